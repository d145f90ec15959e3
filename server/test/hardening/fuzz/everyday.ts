import fc from 'fast-check';
import type { Base, EndpointSpec, FuzzContext } from './spec.js';
import { encode, queryString } from './spec.js';
import { lineText, nastyString, objectOf, wrongType } from './values.js';
import { nastyId as anyNastyId } from './v1.js';

/** Tags, the search language and bulk actions (issue 14): generators of valid and broken requests. */

// Under /sandbox/emails, `bulk` and `wait` are routes of their own.
const nastyId = anyNastyId.filter((id) => id !== 'wait' && id !== 'bulk');

const word = fc.stringMatching(/^[a-z0-9@._+]{1,16}$/);
// Quoted phrases: anything but a quote (the quote would end the phrase).
const phrase = fc.oneof(lineText(60), nastyString.filter((s) => s.length < 200)).map((s) => `"${s.replace(/"/g, '')}"`);
const tag = fc.oneof(fc.stringMatching(/^[a-z0-9 _-]{1,20}$/).filter((t) => t.trim() !== ''), fc.constantFrom('signup', 'ünïcödé', 'emoji 🎉', 'a.b/c'));
const date = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

/** One term of the search language, any of them, sometimes negated. */
const term: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('', '-'),
  fc.oneof(
    word,
    phrase,
    fc.tuple(fc.constantFrom('from', 'to', 'cc', 'subject'), fc.oneof(word, phrase.filter((p) => p !== '""'))).map(([k, v]) => `${k}:${v}`),
    tag.map((t) => `tag:"${t}"`),
    fc.subarray(['processing', 'queued', 'delivered', 'bounced', 'failed', 'complaint'], { minLength: 1 }).map((s) => `status:${s.join(',')}`),
    fc.constantFrom('is:read', 'is:unread', 'has:attachment', 'has:inline', 'header:X-Env=ci', 'header:List-Id', 'header:"Subject=a b"'),
    fc.tuple(fc.constantFrom('before', 'after'), fc.oneof(date, date.map((d) => d.slice(0, 10)))).map(([k, d]) => `${k}:${d}`),
    fc.tuple(fc.constantFrom('larger', 'smaller'), fc.integer({ min: 0, max: 99999 }), fc.constantFrom('', 'B', 'KB', 'k', 'MB', 'm', 'GB')).map(([k, n, u]) => `${k}:${n}${u}`),
  ),
).map(([neg, t]) => neg + t);

const validQuery = fc.array(term, { maxLength: 6 }).map((terms) => terms.join(' '));
const badTerm = fc.constantFrom('status:lost', 'is:starred', 'has:pdf', 'after:2026-02-30', 'before:yesterday', 'larger:lots', 'header:=x', 'nope:x', '"unclosed', 'from:', '-tag:', 'smaller:1TB');

const team = (ctx: FuzzContext) => fc.option(fc.constant(ctx.teamId), { nil: undefined });

export const everydayEndpoints: EndpointSpec[] = [
  {
    name: 'GET /sandbox/emails?q=',
    api: 'sandbox',
    group: 'mail',
    body: 'none',
    valid: (ctx) => fc.tuple(validQuery, team(ctx)).map(([q, t]) => ({ method: 'GET', path: `/sandbox/emails${queryString([['q', q], ...(t ? [['team_id', t] as [string, string]] : [])])}`, expect: [200], kind: 'valid' })),
    invalid: () =>
      fc.oneof(
        fc.tuple(validQuery, badTerm).map(([q, bad]) => ({ method: 'GET', path: `/sandbox/emails${queryString([['q', `${q} ${bad}`]])}`, expect: [400], kind: 'bad-term' })),
        // Anything at all: parsed or refused, never a 5xx.
        fc.oneof(nastyString, fc.string({ maxLength: 300 })).filter((q) => q.length <= 2000).map((q) => ({ method: 'GET', path: `/sandbox/emails${queryString([['q', q]])}`, expect: [200, 400], kind: 'any-text' })),
        fc.constant<Base>({ method: 'GET', path: `/sandbox/emails?q=${'a'.repeat(2001)}`, expect: [400], kind: 'too-long' }),
        fc.constant<Base>({ method: 'GET', path: '/sandbox/emails?q=a&q=b', expect: [400], kind: 'repeated' }),
      ),
  },
  {
    name: 'PUT /sandbox/emails/{id}/tags',
    api: 'sandbox',
    group: 'mail',
    body: 'required',
    valid: (ctx) => fc.tuple(fc.constantFrom(...ctx.ownIds, ...ctx.otherIds), fc.array(tag, { maxLength: 5 })).map(([id, tags]) => ({ method: 'PUT', path: `/sandbox/emails/${id}/tags`, json: { tags }, expect: [200], kind: 'valid' })),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.oneof(wrongType.filter((v) => !Array.isArray(v) && v !== undefined), fc.constant([5]), fc.constant(['']), fc.constant(['x'.repeat(65)]), fc.constant(Array(21).fill('t').map((t, i) => `${t}${i}`)))).map(([id, tags]) => ({ method: 'PUT', path: `/sandbox/emails/${id}/tags`, json: { tags }, expect: [422], kind: 'bad-field:tags' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom('__proto__', 'constructor', 'tag')).map(([id, k]) => ({ method: 'PUT', path: `/sandbox/emails/${id}/tags`, json: objectOf([['tags', []], [k, true]]), expect: [422], kind: 'unknown-field' })),
        nastyId.map((id) => ({ method: 'PUT', path: `/sandbox/emails/${id}/tags`, json: { tags: ['a'] }, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  {
    name: 'POST /sandbox/emails/bulk',
    api: 'sandbox',
    group: 'mail',
    body: 'required',
    valid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.subarray(ctx.ownIds, { minLength: 1 }), fc.constantFrom('read', 'unread')).map(([ids, action]) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { ids, action }, expect: [200], kind: 'ids' })),
        fc.tuple(fc.subarray(ctx.ownIds, { minLength: 1 }), fc.constantFrom('tag', 'untag'), fc.array(tag, { minLength: 1, maxLength: 3 })).map(([ids, action, tags]) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { ids, action, tags }, expect: [200], kind: 'ids-tags' })),
        fc.tuple(validQuery, fc.constantFrom('read', 'unread', 'tag'), team(ctx)).map(([q, action, t]) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { q, action, ...(action === 'tag' ? { tags: ['bulk'] } : {}), ...(t ? { team_id: t } : {}) }, expect: [200], kind: 'q' })),
        // Deletes only mail made for it (a subject of its own), so the shared ids stay.
        fc.integer({ min: 0, max: 1e9 }).map((n) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { q: `subject:"fuzz bulk delete ${n}"`, action: 'delete' }, expect: [200], kind: 'delete', prepare: async (c: FuzzContext) => void (await c.sendEmail({ subject: `fuzz bulk delete ${n}` })) })),
      ),
    invalid: (ctx) =>
      fc.oneof(
        fc.constantFrom<unknown>({ action: 'read' }, { ids: [], action: 'read' }, { ids: ctx.ownIds.slice(0, 1), q: '', action: 'read' }, { ids: ctx.ownIds.slice(0, 1), action: 'tag' }, { ids: ctx.ownIds.slice(0, 1), action: 'read', tags: ['x'] }, { q: '', action: 'archive' }, { q: '', action: 'read', team_id: 'bad team' }, { q: 5, action: 'read' }, { ids: 'x', action: 'read' }, { ids: Array(10_001).fill('x'), action: 'read' })
          .map((json) => ({ method: 'POST', path: '/sandbox/emails/bulk', json, expect: [422], kind: 'bad-body' })),
        fc.tuple(nastyId, fc.constantFrom('read', 'delete')).map(([id, action]) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { ids: [id], action }, expect: [200, 422], kind: 'unknown-id' })),
        badTerm.map((q) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: { q, action: 'delete' }, expect: [400], kind: 'bad-term' })),
        fc.tuple(fc.constantFrom('__proto__', 'constructor', 'filter'), wrongType).map(([k, v]) => ({ method: 'POST', path: '/sandbox/emails/bulk', json: objectOf([['q', 'x'], ['action', 'read'], [k, v]]), expect: [422], kind: 'unknown-field' })),
      ),
  },
  {
    name: 'GET /sandbox/tags',
    api: 'sandbox',
    group: 'mail',
    body: 'none',
    valid: (ctx) => team(ctx).map((t) => ({ method: 'GET', path: `/sandbox/tags${t ? `?team_id=${t}` : ''}`, expect: [200], kind: 'valid' })),
    invalid: () => fc.constantFrom('bad id', 'x'.repeat(65)).map((t) => ({ method: 'GET', path: `/sandbox/tags${queryString([['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
  },
  {
    name: 'PUT|DELETE /sandbox/tags/{tag}',
    api: 'sandbox',
    group: 'mail',
    body: 'optional',
    valid: (ctx) =>
      fc.oneof(
        fc.tuple(tag, tag, fc.option(fc.constant(ctx.teamId), { nil: undefined })).map(([from, to, t]) => ({ method: 'PUT', path: `/sandbox/tags/${encode(from)}`, json: { name: to, ...(t ? { team_id: t } : {}) }, expect: [200], kind: 'rename' })),
        fc.tuple(tag, fc.option(fc.constant(ctx.teamId), { nil: undefined })).map(([t, team]) => ({ method: 'DELETE', path: `/sandbox/tags/${encode(t)}${team ? `?team_id=${team}` : ''}`, expect: [200], kind: 'delete' })),
      ),
    invalid: () =>
      fc.oneof(
        fc.oneof(wrongType.filter((v) => typeof v !== 'string'), fc.constantFrom('', ' ', 'x'.repeat(65))).map((name) => ({ method: 'PUT', path: '/sandbox/tags/signup', json: { name }, expect: [422], kind: 'bad-field:name' })),
        fc.constantFrom('%20', 'x'.repeat(65), '%2C').map((t) => ({ method: 'DELETE', path: `/sandbox/tags/${t}`, expect: [422], kind: 'bad-tag' })),
        fc.constantFrom<unknown>('bad team', 5, '').map((team_id) => ({ method: 'PUT', path: '/sandbox/tags/signup', json: { name: 'x', team_id }, expect: [422], kind: 'bad-field:team_id' })),
        fc.constantFrom('bad team', 'x'.repeat(65)).map((t) => ({ method: 'DELETE', path: `/sandbox/tags/signup${queryString([['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
      ),
  },
];
