import fc from 'fast-check';
import type { Base, EndpointSpec, FuzzContext } from './spec.js';
import { encode, queryString } from './spec.js';
import { extraKeys, invalidAddress, lineText, nastyString, nastyValue, objectOf, pollutionObject, RawJson, validAddress, wrongType } from './values.js';
import { domainAddValid, idnDomain, invalidDomain, listInvalid, listValid, nastyId as anyNastyId, unusedDomain } from './v1.js';

// Under /sandbox/emails, `wait` is a route of its own (GET answers it, other methods 405),
// not an unknown id.
const nastyId = anyNastyId.filter((id) => id !== 'wait');

/** The /sandbox endpoints: generators of valid requests, of broken fields, and what each must answer. */

const teamId = fc.oneof(fc.stringMatching(/^team_[0-9a-f]{12}$/), fc.constantFrom('team_smtp', 'a', 'A.b-c_d'));
const badTeamId = fc.constantFrom('bad id', 'team/x', 'x'.repeat(65), 'tëam', '<script>', "team'--", '%00');
const bool = fc.constantFrom('true', 'false', '1', '0', 'yes', 'no', 'TRUE', '');

const globAtom = fc.stringMatching(/^[a-z0-9@.+_-]{1,12}$/);
const glob = fc.oneof(
  validAddress.filter((a) => !/[[\]{}]/.test(a)),
  fc.tuple(fc.constantFrom('', '*'), globAtom, fc.constantFrom('', '*', '?'), fc.constantFrom('', '@x.test', '@*')).map((p) => p.join('')),
  // Star chains that make a backtracking matcher take minutes on a long address.
  fc.integer({ min: 4, max: 150 }).map((k) => `${'*a'.repeat(k)}*b`),
  fc.integer({ min: 4, max: 100 }).map((k) => `${'*?'.repeat(k)}x`),
);
const badGlob = fc.constantFrom('', 'a b', '[abc]@x.com', '{a,b}@x.com', 'x'.repeat(321), 'a\tb', 'a\u0000b');

// --- mail group: lists, reads, wait, drive ----------------------------------------------

const sandboxListExtra: fc.Arbitrary<[string, string][]> = fc
  .record(
    { from: lineText(100), to: lineText(100), subject: lineText(100), has_attachment: bool, is_read: bool, team_id: teamId },
    { requiredKeys: [] },
  )
  .map((r) => Object.entries(r).filter(([, v]) => v !== undefined) as [string, string][]);

const sandboxListInvalid: fc.Arbitrary<Base> = fc.oneof(
  listInvalid('/sandbox/emails'),
  badTeamId.map((t) => ({ method: 'GET', path: `/sandbox/emails${queryString([['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
  fc.constantFrom('maybe', '2', 'tru').map((v) => ({ method: 'GET', path: `/sandbox/emails?has_attachment=${v}`, expect: [400], kind: 'bad-param:has_attachment' })),
  fc.constantFrom('from', 'to', 'subject', 'is_read').map((k) => ({ method: 'GET', path: `/sandbox/emails?${k}=a&${k}=b`, expect: [400], kind: 'repeated' })),
  fc.constant<Base>({ method: 'GET', path: `/sandbox/emails?subject=${'s'.repeat(501)}`, expect: [400], kind: 'too-long' }),
);

const waitValid = (ctx: FuzzContext): fc.Arbitrary<Base> =>
  fc
    .record(
      {
        to: glob,
        subject: lineText(60),
        team_id: fc.oneof(teamId, fc.constant(ctx.teamId)),
        since: fc.oneof(fc.constantFrom(...ctx.ownIds), fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())),
        count: fc.integer({ min: 1, max: 3 }).map(String),
        timeout_ms: fc.integer({ min: 0, max: 25 }).map(String),
      },
      { requiredKeys: ['timeout_ms'] },
    )
    .chain((q) => (q.count === undefined ? fc.tuple(fc.constant(q), fc.constantFrom(undefined, 'true', 'false')) : fc.tuple(fc.constant(q), fc.constantFrom(undefined, 'false'))))
    .map(([q, none]) => {
      const pairs = Object.entries(q).filter(([, v]) => v !== undefined) as [string, string][];
      if (none) pairs.push(['none', none]);
      return { method: 'GET', path: `/sandbox/emails/wait${queryString(pairs)}`, expect: none === 'true' ? [200, 409] : [200, 408], kind: none === 'true' ? 'valid-none' : 'valid' };
    });

const waitInvalid: fc.Arbitrary<Base> = fc.oneof(
  fc.constantFrom('0', '101', '-1', 'x', '1.5').map((v) => ({ method: 'GET', path: `/sandbox/emails/wait?timeout_ms=1&count=${v}`, expect: [400], kind: 'bad-param:count' })),
  fc.constantFrom('300001', '-1', 'soon', '1e3', '99999999999999999999').map((v) => ({ method: 'GET', path: `/sandbox/emails/wait?timeout_ms=${v}`, expect: [400], kind: 'bad-param:timeout_ms' })),
  fc.constantFrom('yesterday', 'ffffffffffffffff', '0000000000000000', '2026-13-01', 'x'.repeat(65)).map((v) => ({ method: 'GET', path: `/sandbox/emails/wait?timeout_ms=1&since=${v}`, expect: [400], kind: 'bad-param:since' })),
  badGlob.filter((g) => g !== '').map((g) => ({ method: 'GET', path: `/sandbox/emails/wait${queryString([['timeout_ms', '1'], ['to', g]])}`, expect: [400], kind: 'bad-param:to' })),
  fc.constant<Base>({ method: 'GET', path: '/sandbox/emails/wait?timeout_ms=1&none=true&count=2', expect: [400], kind: 'none+count' }),
  fc.constantFrom('maybe', '2').map((v) => ({ method: 'GET', path: `/sandbox/emails/wait?timeout_ms=1&none=${v}`, expect: [400], kind: 'bad-param:none' })),
  badTeamId.map((t) => ({ method: 'GET', path: `/sandbox/emails/wait${queryString([['timeout_ms', '1'], ['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
);

// A valid max_links (1–100), also when written as raw JSON text such as 0.1e1 or 1E2.
const isMaxLinks = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100;

const sandboxId = (suffix: string, method = 'GET') => ({
  valid: (ctx: FuzzContext): fc.Arbitrary<Base> => fc.constantFrom(...ctx.ownIds, ...ctx.otherIds).map((id) => ({ method, path: `/sandbox/emails/${id}${suffix}`, expect: [200], kind: 'existing' })),
  invalid: (): fc.Arbitrary<Base> => nastyId.map((id) => ({ method, path: `/sandbox/emails/${id}${suffix}`, expect: [400, 404], kind: 'unknown-id' })),
});

const forceBody = fc.record(
  { type: fc.constantFrom('delivered', 'bounced', 'failed', 'complaint', 'open', 'click'), recipient: fc.constant('r1@fuzz.test'), url: fc.constantFrom('https://example.com/a', 'http://x.test/?q=1') },
  { requiredKeys: ['type'] },
).filter((b) => b.url === undefined || b.type === 'click');

// --- control group: rules, chaos, delivery, webhooks -----------------------------------

const CODES: Record<string, fc.Arbitrary<string | number>> = {
  delivered: fc.constantFrom('250', 250, '251'),
  deferred: fc.constantFrom('451', 421, '450'),
  bounced: fc.constantFrom('550', 553, '554'),
  failed: fc.constantFrom('554', '451', 550),
};

const ruleMatch = (stage: 'mail' | 'rcpt' | 'data' | null) =>
  fc.record(
    {
      recipient: stage === 'mail' ? fc.constant(undefined) : glob,
      from: glob,
      subject: stage === 'data' || stage === null ? lineText(100).filter((s) => s.length > 0) : fc.constant(undefined),
      header: stage === 'data' || stage === null ? fc.record({ name: fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/), value: glob }, { requiredKeys: ['name'] }) : fc.constant(undefined),
      team_id: teamId,
    },
    { requiredKeys: [] },
  ).map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)));

const outcomeAction = fc.constantFrom('delivered', 'deferred', 'bounced', 'failed', 'complaint').chain((outcome) =>
  fc.record(
    { outcome: fc.constant(outcome), code: outcome === 'complaint' ? fc.constant(undefined) : CODES[outcome], response: lineText(100), delay_ms: fc.integer({ min: 0, max: 3_600_000 }) },
    { requiredKeys: ['outcome'] },
  ),
);
const httpAction = fc.record({ http_status: fc.integer({ min: 400, max: 599 }), retry_after: fc.integer({ min: 0, max: 86_400 }), message: lineText(100).filter((s) => s.length > 0) }, { requiredKeys: ['http_status'] });
const smtpAction = fc.record(
  { smtp_stage: fc.constantFrom('mail', 'rcpt', 'data'), code: fc.constantFrom(421, 450, '451', 550, '554'), message: lineText(100).filter((s) => s.length > 0), delay_ms: fc.integer({ min: 0, max: 60_000 }), disconnect: fc.boolean() },
  { requiredKeys: ['smtp_stage', 'code'] },
);

const validRule = fc
  .oneof(outcomeAction.map((a) => [a, null] as const), httpAction.map((a) => [a, null] as const), smtpAction.map((a) => [a, a.smtp_stage as 'mail' | 'rcpt' | 'data'] as const))
  .chain(([action, stage]) =>
    fc.record(
      {
        match: ruleMatch(stage),
        action: fc.constant(Object.fromEntries(Object.entries(action).filter(([, v]) => v !== undefined))),
        times: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
        nth: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
      },
      { requiredKeys: ['action'] },
    ),
  );

const ruleBreakers: fc.Arbitrary<[string, (r: Record<string, unknown>) => void]> = fc.oneof(
  fc.tuple(fc.constantFrom('recipients', 'outcome', '__proto__', 'constructor', 'Match'), nastyValue).map(([k, v]): [string, (r: Record<string, unknown>) => void] => [`unknown:${k}`, (r) => Object.defineProperty(r, k, { value: v, enumerable: true })]),
  fc.constant<[string, (r: Record<string, unknown>) => void]>(['action', (r) => delete r.action]),
  fc.oneof(wrongType, fc.constantFrom<unknown>({}, { outcome: 'bounced', http_status: 429 }, { outcome: 'exploded' }, { outcome: 'delivered', code: '550' }, { outcome: 'bounced', code: 250 }, { outcome: 'complaint', code: '550' }, { outcome: 'bounced', delay_ms: -1 }, { outcome: 'bounced', delay_ms: 1.5 }, { outcome: 'bounced', response: 'a\r\nb' }, { http_status: 399 }, { http_status: 600 }, { http_status: '429' }, { http_status: 429, retry_after: -1 }, { smtp_stage: 'rset', code: 451 }, { smtp_stage: 'data', code: 250 }, { smtp_stage: 'data', code: '4xx' }, { smtp_stage: 'data', code: 451, disconnect: 'yes' }, { outcome: 'bounced', extra: 1 }))
    .map((v): [string, (r: Record<string, unknown>) => void] => ['action', (r) => { r.action = v; }]),
  fc.constantFrom<unknown>(0, -1, 1.5, '1', 1_000_001, true).map((v): [string, (r: Record<string, unknown>) => void] => ['times', (r) => { r.times = v; }]),
  fc.constantFrom<unknown>(0, 2.5, 'first').map((v): [string, (r: Record<string, unknown>) => void] => ['nth', (r) => { r.nth = v; }]),
  fc.oneof(wrongType.filter((v) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) && v !== null), badGlob.map((g) => ({ recipient: g })), fc.constantFrom<unknown>({ subject: '' }, { subject: 'a\nb' }, { header: { name: 'Bad Name' } }, { header: {} }, { header: { name: 'X-A', value: '' } }, { team_id: 'bad id' }, { recipients: '*' }), pollutionObject)
    .map((v): [string, (r: Record<string, unknown>) => void] => ['match', (r) => { r.match = v; }]),
  fc.constant<[string, (r: Record<string, unknown>) => void]>(['stage', (r) => { r.action = { smtp_stage: 'mail', code: 451 }; r.match = { recipient: '*@x.test' }; }]),
);

const webhookUrl = fc.constantFrom('http://127.0.0.1:9/hook', 'http://localhost:9/x?y=1', 'https://127.0.0.1:9/', 'http://[::1]:9/h', 'http://127.0.0.1:9/ü?q=😀');
const webhookEvents = fc.subarray(['email.*', 'domain.*', 'email.bounced', 'email.delivered', 'domain.success', 'email.opened'], { minLength: 1 });
const validWebhook = fc.record({ url: webhookUrl, secret: lineText(100).filter((s) => s.length > 0), events: webhookEvents }, { requiredKeys: ['url'] });

const clearRules = async (ctx: FuzzContext) => {
  await ctx.api('/sandbox/rules', { method: 'DELETE' });
};
const clearWebhooks = async (ctx: FuzzContext) => {
  const list = await ctx.api('/sandbox/webhooks');
  for (const hook of list.body.data as { id: string }[]) await ctx.api(`/sandbox/webhooks/${hook.id}`, { method: 'DELETE' });
};

async function freshWebhook(ctx: FuzzContext): Promise<string> {
  const res = await ctx.api('/sandbox/webhooks', { method: 'POST', json: { url: 'http://127.0.0.1:9/fresh' } });
  return res.body.data.id;
}

// --- domains group ---------------------------------------------------------------------

const scriptBody = fc.oneof(
  fc.record({ status: fc.constantFrom('success', 'pending', 'failed', 'temporary_failure') }),
  fc.record({ records: fc.record({ dkim: fc.constantFrom('success', 'pending', 'failed'), spf: fc.constantFrom('success', 'failed'), bounce: fc.constantFrom('success'), dmarc: fc.constantFrom('pending', 'success') }, { requiredKeys: [] }).filter((r) => Object.keys(r).length > 0) }),
  fc.record({ sequence: fc.array(fc.constantFrom<unknown>('pending', 'success', 'failed', 'temporary_failure', { records: { dkim: 'failed' } }, { status: 'failed', error_type: 'HOST_NOT_FOUND' }), { minLength: 1, maxLength: 100 }) }),
);
const badScript = fc.constantFrom<unknown>({}, { status: 'verified' }, { records: { spf: 'maybe' } }, { records: { mx: 'success' } }, { records: [] }, { sequence: [] }, { sequence: 'pending' }, { sequence: Array(101).fill('pending') }, { sequence: ['pending'], status: 'success' }, { status: 'temporary_failure', records: { dkim: 'failed' } }, { error_type: 'NOPE', status: 'failed' }, { status: 'failed', unknown: 1 }, { team_id: '' }, { team_id: 5, status: 'failed' });

// --- the table -------------------------------------------------------------------------

const get = (path: string, kind = 'valid'): Base => ({ method: 'GET', path, expect: [200], kind });
const unknownParams = (path: string): fc.Arbitrary<Base> =>
  fc.array(fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'x'), fc.string({ maxLength: 8 })), nastyString.filter((s) => s.length < 2000)), { maxLength: 3 }).map((pairs) => ({ ...get(path + queryString(pairs)), kind: pairs.length ? 'unknown-params' : 'valid' }));

// --- release, relay, metrics, docs (the fuzzing server has no --relay: a valid release answers 409) ---

const releaseTo = fc.array(validAddress, { minLength: 1, maxLength: 50 });
const badReleaseBody = fc.oneof(
  wrongType.map((to) => ({ to })),
  fc.constantFrom<unknown>({}, { to: [] }, { to: 'a@x.test' }, { to: ['not an address'] }, { to: ['a@x.test'], cc: ['b@x.test'] }, { to: Array(51).fill('a@x.test') }),
  invalidAddress.map((a) => ({ to: [a] })),
  pollutionObject.map((o) => ({ to: ['a@x.test'], ...o })),
);

const edgeEndpoints: EndpointSpec[] = [
  {
    name: 'POST /sandbox/emails/{id}/release',
    api: 'sandbox',
    group: 'mail',
    body: 'required',
    valid: (ctx) => fc.tuple(fc.constantFrom(...ctx.ownIds), releaseTo).map(([id, to]) => ({ method: 'POST', path: `/sandbox/emails/${id}/release`, json: { to }, expect: [409], kind: 'valid:no-relay' })),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.ownIds), badReleaseBody).map(([id, json]) => ({ method: 'POST', path: `/sandbox/emails/${id}/release`, json, expect: [422], kind: 'bad-body' })),
        nastyId.map((id) => ({ method: 'POST', path: `/sandbox/emails/${id}/release`, json: { to: ['a@x.test'] }, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  { name: 'GET /sandbox/relay', api: 'sandbox', group: 'mail', body: 'none', valid: () => unknownParams('/sandbox/relay') },
  { name: 'GET /metrics', api: 'sandbox', group: 'mail', body: 'none', valid: () => unknownParams('/metrics') },
  { name: 'GET /docs', api: 'sandbox', group: 'mail', body: 'none', valid: () => fc.constantFrom('/docs', '/docs/init.js', '/docs/docs.css', '/docs/assets/swagger-ui.css').chain((path) => unknownParams(path)) },
];

export const sandboxEndpoints: EndpointSpec[] = [
  ...edgeEndpoints,
  { name: 'GET /sandbox/health', api: 'sandbox', group: 'mail', body: 'none', valid: () => unknownParams('/sandbox/health') },
  { name: 'GET /sandbox/teams', api: 'sandbox', group: 'mail', body: 'none', valid: () => unknownParams('/sandbox/teams') },
  { name: 'GET /sandbox/emails', api: 'sandbox', group: 'mail', body: 'none', valid: () => listValid('/sandbox/emails', sandboxListExtra), invalid: () => sandboxListInvalid },
  { name: 'GET /sandbox/emails/wait', api: 'sandbox', group: 'mail', body: 'none', valid: waitValid, invalid: () => waitInvalid },
  { name: 'GET /sandbox/emails/{id}', api: 'sandbox', group: 'mail', body: 'none', ...sandboxId('') },
  { name: 'GET /sandbox/emails/{id}/raw', api: 'sandbox', group: 'mail', body: 'none', ...sandboxId('/raw') },
  {
    name: 'GET /sandbox/emails/{id}/attachments/{index}',
    api: 'sandbox',
    group: 'mail',
    body: 'none',
    valid: (ctx) => fc.constantFrom('0', '1', '00', '0001').map((i) => get(`/sandbox/emails/${ctx.attachmentEmailId}/attachments/${i}`)),
    invalid: (ctx) =>
      fc.oneof(
        fc.constantFrom('2', '9999', '3').map((i) => ({ method: 'GET', path: `/sandbox/emails/${ctx.attachmentEmailId}/attachments/${i}`, expect: [404], kind: 'no-such-index' })),
        fc.constantFrom('-1', 'a', '1.0', '00000', '1e1', '%20', '99999999999999999999').map((i) => ({ method: 'GET', path: `/sandbox/emails/${ctx.attachmentEmailId}/attachments/${i}`, expect: [400], kind: 'bad-index' })),
        nastyId.map((id) => ({ method: 'GET', path: `/sandbox/emails/${id}/attachments/0`, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  {
    name: 'PATCH /sandbox/emails/{id}',
    api: 'sandbox',
    group: 'mail',
    body: 'required',
    valid: (ctx) => fc.tuple(fc.constantFrom(...ctx.ownIds), fc.boolean()).map(([id, read]) => ({ method: 'PATCH', path: `/sandbox/emails/${id}`, json: { read }, expect: [200], kind: 'valid' })),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.oneof(wrongType.filter((v) => typeof v !== 'boolean'), nastyString)).map(([id, read]) => ({ method: 'PATCH', path: `/sandbox/emails/${id}`, json: { read }, expect: [422], kind: 'bad-field:read' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom('unread', '__proto__', 'constructor', 'subject')).map(([id, k]) => ({ method: 'PATCH', path: `/sandbox/emails/${id}`, json: objectOf([['read', true], [k, true]]), expect: [422], kind: 'unknown-field' })),
        nastyId.map((id) => ({ method: 'PATCH', path: `/sandbox/emails/${id}`, json: { read: true }, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  {
    name: 'DELETE /sandbox/emails/{id}',
    api: 'sandbox',
    group: 'mail',
    body: 'optional',
    valid: () => fc.constant<Base>({ method: 'DELETE', path: '/sandbox/emails/pending', expect: [200], kind: 'fresh', prepare: async (ctx) => ({ path: `/sandbox/emails/${await ctx.sendEmail()}` }) }),
    invalid: () => nastyId.map((id) => ({ method: 'DELETE', path: `/sandbox/emails/${id}`, expect: [400, 404], kind: 'unknown-id' })),
  },
  {
    name: 'POST /sandbox/emails/{id}/events',
    api: 'sandbox',
    group: 'mail',
    body: 'required',
    valid: () =>
      forceBody.map((json) => ({
        method: 'POST',
        path: '/sandbox/emails/pending/events',
        json,
        // Whether the transition is possible depends on where the lifecycle is: 409 is a valid answer.
        expect: [200, 409],
        kind: `valid:${json.type}`,
        prepare: async (ctx) => ({ path: `/sandbox/emails/${await ctx.sendEmail({ to: ['r1@fuzz.test', 'r2@fuzz.test'] })}/events` }),
      })),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.oneof(wrongType, nastyString, fc.constantFrom('opened', 'Delivered', 'deferred'))).map(([id, type]) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type }, expect: [422], kind: 'bad-field:type' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom<unknown>(5, 'ab', 'x'.repeat(255), null)).map(([id, recipient]) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type: 'delivered', recipient }, expect: [422], kind: 'bad-field:recipient' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom('nobody@fuzz.test')).map(([id, recipient]) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type: 'bounced', recipient }, expect: [422], kind: 'not-a-recipient' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom<unknown>('javascript:alert(1)', 'ftp://x', 'x'.repeat(3000), 5)).map(([id, url]) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type: 'click', url }, expect: [422], kind: 'bad-field:url' })),
        fc.constantFrom(...ctx.ownIds).map((id) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type: 'open', url: 'https://x.test' }, expect: [422], kind: 'url-without-click' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom('__proto__', 'constructor', 'extra')).map(([id, k]) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: objectOf([['type', 'open'], [k, { polluted: true }]]), expect: [422], kind: 'unknown-field' })),
        nastyId.map((id) => ({ method: 'POST', path: `/sandbox/emails/${id}/events`, json: { type: 'open' }, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  // The mail-quality lab (CONTRACT §9). No spam filter is configured in the fuzz servers: /spam answers that plainly.
  { name: 'GET /sandbox/emails/{id}/html-check', api: 'sandbox', group: 'mail', body: 'none', ...sandboxId('/html-check') },
  { name: 'GET /sandbox/emails/{id}/spam', api: 'sandbox', group: 'mail', body: 'none', ...sandboxId('/spam') },
  { name: 'GET /sandbox/emails/{id}/auth', api: 'sandbox', group: 'mail', body: 'none', ...sandboxId('/auth') },
  {
    name: 'POST /sandbox/emails/{id}/link-check',
    api: 'sandbox',
    group: 'mail',
    body: 'optional',
    // A fresh email without links: the fuzzer must not make sendbox fetch anything.
    valid: () =>
      fc.oneof(fc.constant({}), fc.record({ max_links: fc.integer({ min: 1, max: 100 }) })).map((json) => ({
        method: 'POST',
        path: '/sandbox/emails/pending/link-check',
        json,
        expect: [200],
        kind: 'valid',
        prepare: async (ctx) => ({ path: `/sandbox/emails/${await ctx.sendEmail({ body: 'No links in here.' })}/link-check` }),
      })),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.oneof(wrongType.filter((v) => !isMaxLinks(v instanceof RawJson ? Number(v.text) : v)), fc.constantFrom<unknown>(0, 101, -1, 1.5, '10'))).map(([id, max_links]) => ({ method: 'POST', path: `/sandbox/emails/${id}/link-check`, json: { max_links }, expect: [422], kind: 'bad-field:max_links' })),
        fc.tuple(fc.constantFrom(...ctx.ownIds), fc.constantFrom('__proto__', 'constructor', 'urls')).map(([id, k]) => ({ method: 'POST', path: `/sandbox/emails/${id}/link-check`, json: objectOf([[k, 1]]), expect: [422], kind: 'unknown-field' })),
        nastyId.map((id) => ({ method: 'POST', path: `/sandbox/emails/${id}/link-check`, json: {}, expect: [400, 404], kind: 'unknown-id' })),
      ),
  },
  {
    name: 'GET /sandbox/events',
    api: 'sandbox',
    group: 'mail',
    body: 'none',
    valid: (ctx) => fc.option(fc.oneof(teamId, fc.constant(ctx.teamId)), { nil: undefined }).map((t) => get(`/sandbox/events${t ? queryString([['team_id', t]]) : ''}`)),
    invalid: () => badTeamId.map((t) => ({ method: 'GET', path: `/sandbox/events${queryString([['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
  },
  {
    name: 'POST /sandbox/rules',
    api: 'sandbox',
    group: 'control',
    body: 'required',
    housekeeping: clearRules,
    valid: () => validRule.map((json) => ({ method: 'POST', path: '/sandbox/rules', json, expect: [201], kind: `valid:${Object.keys(json.action as object)[0]}` })),
    invalid: () =>
      fc.tuple(validRule, ruleBreakers).map(([rule, [field, breakIt]]) => {
        const json = { ...rule } as Record<string, unknown>;
        breakIt(json);
        return { method: 'POST', path: '/sandbox/rules', json, expect: [422], kind: `bad-field:${field.split(':')[0]}` };
      }),
  },
  { name: 'GET /sandbox/rules', api: 'sandbox', group: 'control', body: 'none', valid: () => unknownParams('/sandbox/rules') },
  { name: 'DELETE /sandbox/rules', api: 'sandbox', group: 'control', body: 'optional', valid: () => fc.constant<Base>({ method: 'DELETE', path: '/sandbox/rules', expect: [200], kind: 'valid' }) },
  {
    name: 'GET|DELETE /sandbox/rules/{id}',
    api: 'sandbox',
    group: 'control',
    housekeeping: clearRules,
    body: 'optional',
    valid: () =>
      fc.constantFrom('GET', 'DELETE').map((method) => ({
        method,
        path: '/sandbox/rules/pending',
        expect: [200],
        kind: `fresh:${method}`,
        prepare: async (ctx) => ({ path: `/sandbox/rules/${(await ctx.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@rule.fuzz' }, action: { outcome: 'bounced' } } })).body.data.id}` }),
      })),
    invalid: () => fc.tuple(fc.constantFrom('GET', 'DELETE'), fc.oneof(fc.constantFrom('0', '999999999', '1.5', '-1', '1e3', '9999999999999999', 'abc'), nastyId)).map(([method, id]) => ({ method, path: `/sandbox/rules/${id}`, expect: [400, 404], kind: 'unknown-id' })),
  },
  {
    name: 'GET|PUT /sandbox/chaos',
    api: 'sandbox',
    group: 'control',
    body: 'optional',
    valid: () =>
      fc.oneof(
        fc.constant(get('/sandbox/chaos', 'get')),
        fc
          .record({ rates: fc.record({ bounced: fc.double({ min: 0, max: 0.25, noNaN: true }), failed: fc.double({ min: 0, max: 0.25, noNaN: true }), complaint: fc.double({ min: 0, max: 0.25, noNaN: true }), deferred: fc.double({ min: 0, max: 0.25, noNaN: true }) }, { requiredKeys: [] }), seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }) }, { requiredKeys: [] })
          .map((json) => ({ method: 'PUT', path: '/sandbox/chaos', json, expect: [200], kind: 'put' })),
      ),
    invalid: () =>
      fc
        .constantFrom<unknown>({ rates: { bounced: 2 } }, { rates: { bounced: -0.1 } }, { rates: { bounced: '0.1' } }, { rates: { exploded: 0.1 } }, { rates: [] }, { rates: null }, { seed: -1 }, { seed: 1.5 }, { seed: 2 ** 32 }, { seed: '1' }, { chaos: true }, { rates: { bounced: 0.6, failed: 0.6 } })
        .map((json) => ({ method: 'PUT', path: '/sandbox/chaos', json, expect: [422], kind: 'bad-field' })),
  },
  {
    name: 'GET|POST /sandbox/delivery{,/pause,/resume}',
    api: 'sandbox',
    group: 'control',
    body: 'optional',
    valid: () => fc.oneof(fc.constant(get('/sandbox/delivery')), fc.constantFrom('pause', 'resume').map((a) => ({ method: 'POST', path: `/sandbox/delivery/${a}`, expect: [200], kind: a }))),
  },
  {
    name: 'POST /sandbox/webhooks',
    api: 'sandbox',
    group: 'control',
    body: 'required',
    housekeeping: clearWebhooks,
    valid: () => validWebhook.map((json) => ({ method: 'POST', path: '/sandbox/webhooks', json, expect: [201], kind: 'valid' })),
    invalid: () =>
      fc.oneof(
        fc.oneof(wrongType, fc.constantFrom('', 'ftp://x.test', 'javascript:alert(1)', '//x.test', 'http://', 'not a url', `http://x.test/${'p'.repeat(2000)}`, 'file:///etc/passwd')).map((url) => ({ method: 'POST', path: '/sandbox/webhooks', json: { url }, expect: [422], kind: 'bad-field:url' })),
        fc.constantFrom<unknown>('', 5, 'x'.repeat(501)).map((secret) => ({ method: 'POST', path: '/sandbox/webhooks', json: { url: 'http://127.0.0.1:9/', secret }, expect: [422], kind: 'bad-field:secret' })),
        fc.constantFrom<unknown>([], 'email.*', ['email.nope'], ['*'], [5]).map((events) => ({ method: 'POST', path: '/sandbox/webhooks', json: { url: 'http://127.0.0.1:9/', events }, expect: [422], kind: 'bad-field:events' })),
        fc.constantFrom('__proto__', 'constructor', 'headers').map((k) => ({ method: 'POST', path: '/sandbox/webhooks', json: objectOf([['url', 'http://127.0.0.1:9/'], [k, { polluted: true }]]), expect: [422], kind: 'unknown-field' })),
      ),
  },
  { name: 'GET /sandbox/webhooks', api: 'sandbox', group: 'control', body: 'none', valid: () => unknownParams('/sandbox/webhooks') },
  {
    name: 'GET|DELETE /sandbox/webhooks/{id}',
    api: 'sandbox',
    group: 'control',
    housekeeping: clearWebhooks,
    body: 'optional',
    valid: () => fc.constantFrom('GET', 'DELETE').map((method) => ({ method, path: '/sandbox/webhooks/pending', expect: [200], kind: `fresh:${method}`, prepare: async (ctx) => ({ path: `/sandbox/webhooks/${await freshWebhook(ctx)}` }) })),
    invalid: () => fc.tuple(fc.constantFrom('GET', 'DELETE'), nastyId).map(([method, id]) => ({ method, path: `/sandbox/webhooks/${id}`, expect: [400, 404], kind: 'unknown-id' })),
  },
  {
    name: 'GET /sandbox/webhooks/{id}/attempts',
    api: 'sandbox',
    group: 'control',
    housekeeping: clearWebhooks,
    body: 'none',
    valid: () => fc.option(fc.integer({ min: 1, max: 1000 }).map(String), { nil: undefined }).map((limit) => ({ method: 'GET', path: '/sandbox/webhooks/pending/attempts', expect: [200], kind: 'fresh', prepare: async (ctx) => ({ path: `/sandbox/webhooks/${await freshWebhook(ctx)}/attempts${limit ? `?limit=${limit}` : ''}` }) })),
    invalid: () =>
      fc.oneof(
        nastyId.map((id) => ({ method: 'GET', path: `/sandbox/webhooks/${id}/attempts`, expect: [400, 404], kind: 'unknown-id' })),
        fc.constantFrom('0', '1001', 'x', '-1', '').map((limit) => ({ method: 'GET', path: '/sandbox/webhooks/pending/attempts', expect: [400], kind: 'bad-param:limit', prepare: async (ctx: FuzzContext) => ({ path: `/sandbox/webhooks/${await freshWebhook(ctx)}/attempts?limit=${limit}` }) })),
      ),
  },
  {
    name: 'GET /sandbox/domains',
    api: 'sandbox',
    group: 'domains',
    body: 'none',
    valid: (ctx) =>
      fc.record({ team_id: fc.oneof(teamId, fc.constant(ctx.teamId)), domain: fc.oneof(fc.constantFrom(...ctx.domains), unusedDomain, idnDomain) }, { requiredKeys: [] }).map((q) => get(`/sandbox/domains${queryString(Object.entries(q).filter(([, v]) => v !== undefined) as [string, string][])}`)),
    invalid: () =>
      fc.oneof(
        invalidDomain.filter((d) => d.trim() !== '').map((d) => ({ method: 'GET', path: `/sandbox/domains${queryString([['domain', d]])}`, expect: [422], kind: 'bad-param:domain' })),
        fc.constantFrom('team_id', 'domain').map((k) => ({ method: 'GET', path: `/sandbox/domains?${k}=a.com&${k}=b.com`, expect: [400], kind: 'repeated' })),
      ),
  },
  {
    name: 'POST /sandbox/domains',
    api: 'sandbox',
    group: 'domains',
    body: 'required',
    valid: (ctx) => domainAddValid(ctx, '/sandbox/domains', true),
    invalid: (ctx) =>
      fc.oneof(
        invalidDomain.map((value) => ({ method: 'POST', path: '/sandbox/domains', json: { team_id: ctx.teamId, value }, expect: [422], kind: 'bad-field:value' })),
        fc.oneof(wrongType, fc.constantFrom('', 'x'.repeat(201))).map((team_id) => ({ method: 'POST', path: '/sandbox/domains', json: { team_id, value: 'x.test' }, expect: [422], kind: 'bad-field:team_id' })),
        fc.constantFrom('__proto__', 'constructor', 'records').map((k) => ({ method: 'POST', path: '/sandbox/domains', json: objectOf([['team_id', ctx.teamId], ['value', 'y.test'], [k, { polluted: true }]]), expect: [422], kind: 'unknown-field' })),
      ),
  },
  {
    name: 'DELETE /sandbox/domains',
    api: 'sandbox',
    group: 'domains',
    body: 'optional',
    valid: (ctx) => unusedDomain.map((d) => ({ method: 'DELETE', path: `/sandbox/domains${queryString([['domain', d], ['team_id', ctx.teamId]])}`, expect: [200], kind: 'fresh', prepare: async (c: FuzzContext) => c.addDomain(d) })),
    invalid: () =>
      fc.oneof(
        fc.oneof(unusedDomain, invalidDomain.filter((d) => d.trim() !== '')).map((d) => ({ method: 'DELETE', path: `/sandbox/domains${queryString([['domain', d]])}`, expect: [404], kind: 'unknown-or-invalid' })),
        fc.constantFrom('/sandbox/domains', '/sandbox/domains?domain=', '/sandbox/domains?domain=a.com&domain=b.com').map((path) => ({ method: 'DELETE', path, expect: [400], kind: 'missing-or-repeated' })),
      ),
  },
  {
    name: 'POST /sandbox/domains/verify',
    api: 'sandbox',
    group: 'domains',
    body: 'optional',
    valid: (ctx) => fc.constantFrom(...ctx.domains).map((d) => ({ method: 'POST', path: `/sandbox/domains/verify${queryString([['domain', d], ['team_id', ctx.teamId]])}`, expect: [200], kind: 'existing' })),
    invalid: () =>
      fc.oneof(
        fc.oneof(unusedDomain, invalidDomain.filter((d) => d.trim() !== '')).map((d) => ({ method: 'POST', path: `/sandbox/domains/verify${queryString([['domain', d]])}`, expect: [404], kind: 'unknown-or-invalid' })),
        fc.constantFrom('/sandbox/domains/verify', '/sandbox/domains/verify?domain=').map((path) => ({ method: 'POST', path, expect: [400], kind: 'missing' })),
      ),
  },
  {
    name: 'PUT|GET|DELETE /sandbox/domains/{domain}/verification',
    api: 'sandbox',
    group: 'domains',
    body: 'optional',
    valid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.domains, 'any-name.test'), scriptBody).map(([d, json]) => ({ method: 'PUT', path: `/sandbox/domains/${encode(d)}/verification`, json, expect: [200], kind: 'put' })),
        fc.constantFrom(...ctx.domains).map((d) => ({ method: 'GET', path: `/sandbox/domains/${d}/verification`, expect: [200], kind: 'get' })),
        fc.constantFrom(...ctx.domains).map((d) => ({ method: 'DELETE', path: `/sandbox/domains/${d}/verification`, expect: [200, 404], kind: 'delete' })),
      ),
    invalid: (ctx) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(...ctx.domains), badScript).map(([d, json]) => ({ method: 'PUT', path: `/sandbox/domains/${d}/verification`, json, expect: [422], kind: 'bad-script' })),
        invalidDomain.filter((d) => d.trim() !== '' && !d.includes('/')).map((d) => ({ method: 'PUT', path: `/sandbox/domains/${encode(d)}/verification`, json: { status: 'failed' }, expect: [422], kind: 'bad-domain' })),
      ),
  },
  {
    name: 'POST /sandbox/reset',
    api: 'sandbox',
    group: 'destructive',
    body: 'optional',
    valid: (ctx) => fc.option(fc.oneof(teamId, fc.constant(ctx.teamId)), { nil: undefined }).map((t) => ({ method: 'POST', path: '/sandbox/reset', json: t === undefined ? {} : { team_id: t }, expect: [200], kind: t ? 'team' : 'all' })),
    invalid: () =>
      fc.oneof(
        fc.oneof(wrongType, badTeamId).map((team_id) => ({ method: 'POST', path: '/sandbox/reset', json: { team_id }, expect: [422], kind: 'bad-field:team_id' })),
        fc.tuple(fc.constantFrom('__proto__', 'constructor', 'emails'), nastyValue).map(([k, v]) => ({ method: 'POST', path: '/sandbox/reset', json: objectOf([[k, v]]), expect: [422], kind: 'unknown-field' })),
      ),
  },
  {
    name: 'DELETE /sandbox/emails',
    api: 'sandbox',
    group: 'destructive',
    body: 'optional',
    valid: (ctx) => fc.option(fc.oneof(teamId, fc.constant(ctx.teamId)), { nil: undefined }).map((t) => ({ method: 'DELETE', path: `/sandbox/emails${t ? queryString([['team_id', t]]) : ''}`, expect: [200], kind: t ? 'team' : 'all' })),
    invalid: () => badTeamId.map((t) => ({ method: 'DELETE', path: `/sandbox/emails${queryString([['team_id', t]])}`, expect: [400], kind: 'bad-param:team_id' })),
  },
];

export { extraKeys };
