import fc from 'fast-check';
import { parseAddress } from '../../../../shared/address.js';
import type { Base, EndpointSpec, FuzzContext } from './spec.js';
import { encode, queryString } from './spec.js';
import {
  base64Content, extraKeys, hugeString, invalidAddress, lineText, nastyString, nastyValue, objectOf, pollutionObject, validAddress, validDisplayAddress, validDomain, wrongType,
} from './values.js';

/** The /v1 endpoints: generators of valid requests, of broken fields, and what each must answer. */

const addressList = (max: number) => fc.oneof(validDisplayAddress, fc.array(validDisplayAddress, { minLength: 1, maxLength: max }));
const count = (v: string | string[] | undefined) => (v === undefined ? 0 : Array.isArray(v) ? v.length : 1);

const headerName = fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/);
const headerValue = fc.oneof(lineText(200), fc.constantFrom('bounced', 'delivered', 'deferred', 'failed', 'complaint', 'nonsense'));
const outcomeHeader = fc.constantFrom('delivered', 'deferred', 'bounced', 'failed', 'complaint', 'unknown-outcome').map((v): [string, string] => ['X-Sendbox-Outcome', v]);

const attachment = fc.record(
  {
    filename: fc.oneof(fc.constantFrom('report.pdf', 'a b.txt', 'ünïcode.txt', '..\\..\\evil.exe', '../../etc/passwd', '"quoted".txt', '<script>.html', '😀.png', '.hidden', 'x'.repeat(255)), lineText(60).filter((s) => s.length > 0)),
    content: base64Content,
    contentType: fc.constantFrom('text/plain', 'application/pdf', 'image/png', 'text/html', 'image/svg+xml', 'application/octet-stream', 'x-custom/x.y+z'),
    contentId: fc.option(fc.oneof(fc.constantFrom('logo', '<logo@x>', 'img1@sendbox'), fc.stringMatching(/^[a-z0-9.@-]{1,30}$/)), { nil: undefined }),
  },
  { requiredKeys: ['filename', 'content', 'contentType'] },
);

const textBody = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 }) },
  { weight: 3, arbitrary: fc.constantFrom('<p>Hello <a href="https://example.com/reset?t=1">reset</a></p>', 'Your code is 482910', '<html><body><script>alert(1)</script><img src=x onerror=alert(2)></body></html>', '<b>unclosed', 'plain\r\nlines\n\n', '\u0000binary\u0001') },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'line of text '.repeat(Math.ceil(n / 13)).slice(0, n)) },
);

interface SendFields {
  to: string | string[];
  subject: string;
  body: string;
  from?: string;
  cc?: string | string[];
  bcc?: string | string[];
  username?: string;
  reply_to?: string;
  headers?: Record<string, string>;
  attachments?: Record<string, unknown>[];
}

export const validSendBody: fc.Arbitrary<SendFields> = fc
  .record(
    {
      to: addressList(5),
      subject: lineText(998),
      body: textBody,
      from: validDisplayAddress,
      cc: addressList(5),
      bcc: addressList(5),
      username: lineText(200),
      reply_to: validDisplayAddress,
      headers: fc.tuple(fc.dictionary(headerName, headerValue, { maxKeys: 4 }), fc.option(outcomeHeader, { nil: undefined })).map(([h, o]) => (o ? { ...h, [o[0]]: o[1] } : h)),
      attachments: fc.array(attachment, { maxLength: 3 }),
    },
    { requiredKeys: ['to', 'subject', 'body'] },
  )
  .filter((b) => count(b.to) + count(b.cc) + count(b.bcc) <= 50);

/** One broken field of a send, with the field it breaks. */
const sendFieldBreakers: fc.Arbitrary<[string, (b: Record<string, unknown>) => void]>[] = [
  fc.oneof(invalidAddress, wrongType.filter((v) => typeof v !== 'string'), fc.constant([]), fc.array(invalidAddress, { minLength: 1, maxLength: 3 }), fc.array(validAddress, { minLength: 51, maxLength: 60 }), fc.constant([['a@b.com']])).map((v): [string, (b: Record<string, unknown>) => void] => ['to', (b) => { b.to = v; }]),
  fc.constant<[string, (b: Record<string, unknown>) => void]>(['to', (b) => { delete b.to; }]),
  fc.oneof(wrongType.filter((v) => typeof v !== 'string'), fc.constantFrom('a\r\nBcc: x@y.com', 'line\nbreak', 'x'.repeat(999))).map((v): [string, (b: Record<string, unknown>) => void] => ['subject', (b) => { b.subject = v; }]),
  fc.constant<[string, (b: Record<string, unknown>) => void]>(['subject', (b) => { delete b.subject; }]),
  fc.oneof(wrongType.filter((v) => typeof v !== 'string'), fc.constant('')).map((v): [string, (b: Record<string, unknown>) => void] => ['body', (b) => { b.body = v; }]),
  fc.constant<[string, (b: Record<string, unknown>) => void]>(['body', (b) => { delete b.body; }]),
  fc.oneof(invalidAddress, wrongType).map((v): [string, (b: Record<string, unknown>) => void] => ['from', (b) => { b.from = v; }]),
  fc.oneof(invalidAddress, wrongType.filter((v) => typeof v !== 'string'), fc.constant([])).map((v): [string, (b: Record<string, unknown>) => void] => ['cc', (b) => { b.cc = Array.isArray(v) && v.length === 0 ? ['not an address'] : v; }]),
  fc.oneof(invalidAddress, fc.array(invalidAddress, { minLength: 1, maxLength: 2 })).map((v): [string, (b: Record<string, unknown>) => void] => ['bcc', (b) => { b.bcc = v; }]),
  fc.oneof(wrongType.filter((v) => typeof v !== 'string'), fc.constantFrom('a\nb', 'x'.repeat(201))).map((v): [string, (b: Record<string, unknown>) => void] => ['username', (b) => { b.username = v; }]),
  fc.oneof(invalidAddress, wrongType.filter((v) => typeof v !== 'string')).map((v): [string, (b: Record<string, unknown>) => void] => ['reply_to', (b) => { b.reply_to = v; }]),
  fc
    .oneof(
      fc.constantFrom<unknown>('X-A: b', ['X-A', 'b'], { 'Bad Name': 'v' }, { 'X:A': 'v' }, { '': 'v' }, { Subject: 'x' }, { FROM: 'x@y.com' }, { 'Content-Type': 'text/html' }, { 'content-transfer-encoding': 'x' }, { 'Message-ID': '<a@b>' }, { 'X-A': 'a\r\nBcc: v@x.com' }, { 'X-A': 'a\nb' }, { 'X-A': 'x'.repeat(4097) }, { 'X-Ü': 'v' }),
      fc.tuple(headerName, wrongType.filter((v) => typeof v !== 'string')).map(([k, v]) => ({ [k]: v })),
      wrongType.filter((v) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)),
    )
    .map((v): [string, (b: Record<string, unknown>) => void] => ['headers', (b) => { b.headers = v; }]),
  fc
    .oneof(
      fc.constantFrom<unknown>('file', {}, [null], [{}], [{ filename: '', content: 'YQ==', contentType: 'text/plain' }], [{ filename: 'a', content: 'not base64!', contentType: 'text/plain' }], [{ filename: 'a', content: 'YQ=', contentType: 'text/plain' }], [{ filename: 'a', content: 'Y', contentType: 'text/plain' }], [{ filename: 'a', content: 'YQ==', contentType: 'textplain' }], [{ filename: 'a', content: 'YQ==', contentType: 'text/plain; charset=utf-8' }], [{ filename: 'a\r\n.txt', content: 'YQ==', contentType: 'text/plain' }], [{ filename: 'x'.repeat(256), content: 'YQ==', contentType: 'text/plain' }], [{ filename: 'a', content: 'YQ==', contentType: 'text/plain', contentId: 'a\nb' }], [{ filename: 'a', content: 'YQ==', contentType: 'text/plain', contentId: '' }], [{ filename: 'a', content: 'YQ==' }], [{ content: 'YQ==', contentType: 'text/plain' }], [{ filename: 'a', content: 'YQ==', contentType: 'text/plain' }, 'x'], [{ filename: 'a', content: '-_-_', contentType: 'text/plain' }]),
      fc.array(fc.constant({ filename: 'a.txt', content: 'YQ==', contentType: 'text/plain' }), { minLength: 6, maxLength: 8 }),
      fc.record({ filename: nastyValue, content: nastyValue, contentType: nastyValue }).filter((a) => typeof a.filename !== 'string' || typeof a.content !== 'string' || typeof a.contentType !== 'string').map((a) => [a]),
    )
    .map((v): [string, (b: Record<string, unknown>) => void] => ['attachments', (b) => { b.attachments = v; }]),
];

/** A valid send is 200 and reads back with its subject, recipients and size. */
async function checkSent(res: { status: number; json: unknown }, ctx: FuzzContext, sent: SendFields): Promise<string[]> {
  const body = res.json as { success?: boolean; data?: { message?: string; email_id?: string }[]; timestamp?: string };
  const first = body?.data?.[0];
  if (body?.success !== true || !first?.email_id || first.message !== `250 2.0.0 Ok: queued as ${first.email_id}` || typeof body.timestamp !== 'string') {
    return [`send 200 body not in the contract's shape: ${JSON.stringify(body).slice(0, 200)}`];
  }
  const read = await ctx.api(`/v1/emails/${first.email_id}`);
  if (read.status !== 200) return [`sent email ${first.email_id} reads back ${read.status}`];
  const problems: string[] = [];
  const email = read.body.data;
  if (email.subject !== sent.subject) problems.push(`subject changed: sent ${JSON.stringify(sent.subject).slice(0, 80)}, stored ${JSON.stringify(email.subject).slice(0, 80)}`);
  const to = (Array.isArray(sent.to) ? sent.to : [sent.to]).map((a) => parseAddress(a)!.address);
  if (JSON.stringify(email.to_addresses) !== JSON.stringify(to)) problems.push(`to_addresses changed: sent ${JSON.stringify(to)}, stored ${JSON.stringify(email.to_addresses)}`);
  if (!(email.size > 0)) problems.push('stored size is not positive');
  return problems;
}

const sendValid = (ctx: FuzzContext): fc.Arbitrary<Base> =>
  fc.tuple(validSendBody, extraKeys).map(([fields, extra]) => ({
    method: 'POST',
    path: '/v1/send',
    // Unknown keys (prototype-pollution ones included) are ignored, so the send stays valid.
    json: objectOf([...Object.entries(fields), ...extra.filter(([k]) => !(k in fields))]),
    expect: [200],
    kind: extra.length ? 'valid+unknown-keys' : 'valid',
    check: (res) => checkSent(res, ctx, fields),
  }));

const sendInvalid = (): fc.Arbitrary<Base> =>
  fc.tuple(validSendBody, fc.oneof(...sendFieldBreakers), fc.option(pollutionObject, { nil: undefined })).map(([fields, [field, breakIt], pollution]) => {
    const body: Record<string, unknown> = { ...fields };
    breakIt(body);
    const json = pollution ? objectOf([...Object.entries(body), ...Object.entries(pollution)]) : body;
    return { method: 'POST', path: '/v1/send', json, expect: [422], kind: `bad-field:${field}` };
  });

// --- list --------------------------------------------------------------------------

const STATUSES = ['processing', 'queued', 'delivered', 'failed', 'bounced', 'complaint'];
const isoDate = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true });
const dateForms = (d: Date) => [d.toISOString().slice(0, 10), d.toISOString(), d.toISOString().slice(0, 19), d.toISOString().replace('Z', '+02:00'), d.toISOString().slice(0, 16) + 'Z'];
const validDate = fc.tuple(isoDate, fc.nat(4)).map(([d, i]) => dateForms(d)[i]);

const validListParams = fc.record(
  {
    page: fc.oneof(fc.integer({ min: 1, max: 5 }).map(String), fc.constantFrom('1', '01', '999999', '9007199254740993', '99999999999999999999999')),
    limit: fc.integer({ min: 1, max: 100 }).map(String),
    search: fc.oneof(nastyString.filter((s) => s.length <= 500), fc.constantFrom('example', 'sub', '"', '*', 'NEAR(', '%_', 'a')),
    dates: fc.oneof(
      fc.tuple(validDate, fc.constant(undefined)),
      fc.tuple(fc.constant(undefined), validDate),
      fc.tuple(isoDate, isoDate).map(([a, b]) => (a <= b ? [a, b] : [b, a]).map((d) => d.toISOString().slice(0, 10)) as [string, string]),
    ),
    status: fc.tuple(fc.subarray(STATUSES, { minLength: 1 }), fc.constantFrom(',', ', ', ' ,')).map(([s, sep]) => s.join(sep)),
    api_key_id: fc.oneof(fc.nat(5).map(String), fc.constantFrom('0', '99999999999999999999')),
  },
  { requiredKeys: [] },
);

type ListParams = typeof validListParams extends fc.Arbitrary<infer T> ? T : never;
const listPairs = (p: ListParams): [string, string][] => {
  const pairs: [string, string][] = [];
  for (const k of ['page', 'limit', 'search', 'status', 'api_key_id'] as const) if (p[k] !== undefined) pairs.push([k, p[k]!]);
  if (p.dates?.[0] !== undefined) pairs.push(['start_date', p.dates[0]]);
  if (p.dates?.[1] !== undefined) pairs.push(['end_date', p.dates[1]]);
  return pairs;
};

const badListParam: fc.Arbitrary<[string, [string, string][]]> = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', 'abc', ' 1', '1e3', '+1', '', '١').map((v): [string, [string, string][]] => ['page', [['page', v]]]),
  fc.constantFrom('0', '101', '-5', 'ten', '1.0', '', '1e2').map((v): [string, [string, string][]] => ['limit', [['limit', v]]]),
  fc.constantFrom('x'.repeat(501)).map((v): [string, [string, string][]] => ['search', [['search', v]]]),
  fc.constantFrom('tomorrow', '2026-13-01', '2026-02-30T00:00:00Z', '2026-01-01T25:00:00Z', '31/01/2026', '', '2026-1-1', '1e400').map((v): [string, [string, string][]] => ['start_date', [['start_date', v]]]),
  fc.constantFrom('yesterday', '2026-00-10', 'now').map((v): [string, [string, string][]] => ['end_date', [['end_date', v]]]),
  fc.constant<[string, [string, string][]]>(['start_date', [['start_date', '2026-02-01'], ['end_date', '2026-01-01']]]),
  fc.constantFrom('sent', 'DELIVERED', 'delivered,', ',', 'delivered,nope', '').map((v): [string, [string, string][]] => ['status', [['status', v]]]),
  fc.constantFrom('x', '-1', '1.5', '').map((v): [string, [string, string][]] => ['api_key_id', [['api_key_id', v]]]),
  fc.constantFrom('page', 'limit', 'search', 'status', 'start_date', 'api_key_id').map((k): [string, [string, string][]] => [k, [[k, '1'], [k, '2']]]),
);

/** A 200 list keeps its pagination arithmetic. */
async function checkList(res: { json: unknown }, limitAsked: string | undefined): Promise<string[]> {
  const data = (res.json as { data?: { data?: unknown[]; pagination?: Record<string, number> } })?.data;
  const p = data?.pagination;
  if (!Array.isArray(data?.data) || !p) return ['list 200 without data.data and pagination'];
  const limit = limitAsked === undefined ? 10 : Number(limitAsked);
  const problems: string[] = [];
  if (p.limit !== limit) problems.push(`pagination.limit ${p.limit}, asked ${limit}`);
  if (p.total_pages !== Math.ceil(p.total_records / limit)) problems.push(`total_pages ${p.total_pages} for ${p.total_records} records of ${limit}`);
  if (data!.data!.length > limit) problems.push(`${data!.data!.length} rows over limit ${limit}`);
  return problems;
}

const listValid = (path: string, extra: fc.Arbitrary<[string, string][]> = fc.constant([])): fc.Arbitrary<Base> =>
  fc.tuple(validListParams, extra, fc.array(fc.tuple(fc.constantFrom('foo', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'a[b]', 'toString'), nastyString.filter((s) => s.length < 2000)), { maxLength: 2 })).map(([params, more, unknown]) => {
    const pairs = [...listPairs(params), ...more, ...unknown];
    return { method: 'GET', path: path + queryString(pairs), expect: [200], kind: unknown.length ? 'valid+unknown-params' : 'valid', check: (res) => checkList(res, params.limit) };
  });

const listInvalid = (path: string): fc.Arbitrary<Base> =>
  fc.tuple(validListParams, badListParam).map(([params, [name, bad]]) => {
    const pairs = listPairs(params).filter(([k]) => !bad.some(([b]) => b === k) && !(name === 'start_date' && k === 'end_date'));
    return { method: 'GET', path: path + queryString([...pairs, ...bad]), expect: [400], kind: `bad-param:${name}` };
  });

// --- one email -----------------------------------------------------------------------

const nastyId = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{16}$/),
  fc.constantFrom('0', '-1', '00000000000000000', 'ffffffffffffffff', 'wait', 'undefined', 'null', '__proto__', 'constructor', '%2e%2e', '..', '%00', '%E0%A4%A', '%', 'a%2Fb', 'x'.repeat(5000), '😀'),
  nastyString.filter((s) => s.length > 0 && s.length < 3000).map(encode),
);

const oneEmail = (suffix: string) => (ctx: FuzzContext): fc.Arbitrary<Base> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ctx.ownIds).map((id) => ({ method: 'GET', path: `/v1/emails/${id}${suffix}`, expect: [200], kind: 'own-id' })) },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.ownIds).map((id) => ({ method: 'GET', path: `/v1/emails/${id.toUpperCase()}${suffix}`, expect: [200, 404], kind: 'own-id-uppercase' })) },
  );
const oneEmailInvalid = (suffix: string) => (ctx: FuzzContext): fc.Arbitrary<Base> =>
  fc.oneof(
    fc.constantFrom(...ctx.otherIds).map((id) => ({ method: 'GET', path: `/v1/emails/${id}${suffix}`, expect: [404], kind: 'other-team-id' })),
    nastyId.map((id) => ({ method: 'GET', path: `/v1/emails/${id}${suffix}`, expect: [400, 404], kind: 'unknown-id' })),
  );

// --- domains -------------------------------------------------------------------------

// A counter keeps generated names unique across a long run (fc.nat() repeats).
let unusedDomains = 0;
const unusedDomain = fc.tuple(validDomain, fc.nat()).map(([d, n]) => `fz${n}-${unusedDomains++}-${d}`.replace(/-\./, '.'));
const idnDomain = fc.constantFrom('bücher.example', 'MÜNCHEN.test', 'xn--bcher-kva.example', 'пример.испытание', '例え.テスト');
const invalidDomain = fc.oneof(
  fc.constantFrom('', ' ', 'nodot', '.', '..', 'a..b', '-a.com', 'a-.com', 'a.-b.com', 'a_b.com', 'a b.com', '1.2.3.4', 'a.123', `${'l'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, 'a.com/x', 'a.com:80', '*.a.com', 'a.com\u0000', 'exa\nmple.com'),
  nastyString.filter(certainlyNotDomain),
);

/** No dot, or a character no domain label can hold (after the trim the server does). */
function certainlyNotDomain(s: string): boolean {
  const t = s.trim();
  return !/[.\u3002\uff0e\uff61]/.test(t) || /[\x00-\x20_@/:*<>"'\\!#$%&()+,;=?[\]^`{|}~\x7f]/.test(t);
}

const domainAddValid = (ctx: FuzzContext, path: string, teamBody: boolean): fc.Arbitrary<Base> =>
  fc.tuple(fc.oneof(unusedDomain, idnDomain), fc.constantFrom('', '.', 'UPPER'), extraKeys).map(([name, variant, extra]) => {
    const value = variant === 'UPPER' ? name.toUpperCase() : name + variant;
    const fields: [string, unknown][] = teamBody ? [['team_id', ctx.teamId], ['value', value]] : [['value', value]];
    // /v1 ignores unknown keys; /sandbox/domains refuses them.
    const unknown = teamBody ? [] : extra.filter(([k]) => k !== 'value');
    return { method: 'POST', path, json: objectOf([...fields, ...unknown]), expect: [201, 409], kind: 'valid' };
  });

export const v1Endpoints: EndpointSpec[] = [
  { name: 'POST /v1/send', api: 'v1', group: 'mail', body: 'required', valid: sendValid, invalid: sendInvalid },
  { name: 'GET /v1/emails', api: 'v1', group: 'mail', body: 'none', valid: () => listValid('/v1/emails'), invalid: () => listInvalid('/v1/emails') },
  { name: 'GET /v1/emails/{id}', api: 'v1', group: 'mail', body: 'none', valid: oneEmail(''), invalid: oneEmailInvalid('') },
  { name: 'GET /v1/emails/{id}/logs', api: 'v1', group: 'mail', body: 'none', valid: oneEmail('/logs'), invalid: oneEmailInvalid('/logs') },
  {
    name: 'POST /v1/domains',
    api: 'v1',
    group: 'domains',
    body: 'required',
    valid: (ctx) => domainAddValid(ctx, '/v1/domains', false),
    invalid: () =>
      fc.oneof(
        invalidDomain.map((value) => ({ method: 'POST', path: '/v1/domains', json: { value }, expect: [422], kind: 'bad-field:value' })),
        wrongType.map((value) => ({ method: 'POST', path: '/v1/domains', json: { value }, expect: [422], kind: 'bad-type:value' })),
        fc.constant<Base>({ method: 'POST', path: '/v1/domains', json: {}, expect: [422], kind: 'missing:value' }),
      ),
  },
  {
    name: 'GET /v1/domains',
    api: 'v1',
    group: 'domains',
    body: 'none',
    valid: (ctx) =>
      fc.oneof(
        fc.constant<Base>({ method: 'GET', path: '/v1/domains', expect: [200], kind: 'list' }),
        fc.tuple(fc.constantFrom(...ctx.domains), fc.constantFrom('', '.', 'UPPER')).map(([d, v]) => ({ method: 'GET', path: `/v1/domains${queryString([['domain', v === 'UPPER' ? d.toUpperCase() : d + v]])}`, expect: [200], kind: 'existing' })),
      ),
    invalid: () =>
      fc.oneof(
        fc.oneof(unusedDomain, invalidDomain).map((d) => ({ method: 'GET', path: `/v1/domains${queryString([['domain', d]])}`, expect: d.trim() === '' ? [400] : [404], kind: 'unknown-or-invalid' })),
        fc.constant<Base>({ method: 'GET', path: '/v1/domains?domain=a.com&domain=b.com', expect: [400], kind: 'repeated' }),
      ),
  },
  {
    name: 'POST /v1/domains/verify',
    api: 'v1',
    group: 'domains',
    body: 'optional',
    valid: (ctx) =>
      fc.tuple(fc.constantFrom(...ctx.domains)).map(([d]) => ({ method: 'POST', path: `/v1/domains/verify${queryString([['domain', d]])}`, expect: [200], kind: 'existing' })),
    invalid: () =>
      fc.oneof(
        fc.oneof(unusedDomain, invalidDomain.filter((d) => d.trim() !== '')).map((d) => ({ method: 'POST', path: `/v1/domains/verify${queryString([['domain', d]])}`, expect: [404], kind: 'unknown-or-invalid' })),
        fc.constantFrom('/v1/domains/verify', '/v1/domains/verify?domain=', '/v1/domains/verify?domain=a.com&domain=a.com').map((path) => ({ method: 'POST', path, expect: [400], kind: 'missing-or-repeated' })),
      ),
  },
  {
    name: 'DELETE /v1/domains',
    api: 'v1',
    group: 'domains',
    body: 'optional',
    valid: () =>
      unusedDomain.map((d) => ({
        method: 'DELETE',
        path: `/v1/domains${queryString([['domain', d]])}`,
        expect: [200],
        kind: 'fresh',
        prepare: async (ctx) => ctx.addDomain(d),
      })),
    invalid: () =>
      fc.oneof(
        fc.oneof(unusedDomain, invalidDomain.filter((d) => d.trim() !== '')).map((d) => ({ method: 'DELETE', path: `/v1/domains${queryString([['domain', d]])}`, expect: [404], kind: 'unknown-or-invalid' })),
        fc.constantFrom('/v1/domains', '/v1/domains?domain=', '/v1/domains?domain=a.com&domain=b.com').map((path) => ({ method: 'DELETE', path, expect: [400], kind: 'missing-or-repeated' })),
      ),
  },
];

export { hugeString, listInvalid, listValid, nastyId, unusedDomain, invalidDomain, idnDomain, domainAddValid };
