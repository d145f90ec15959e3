import fc from 'fast-check';
import type { Base, EndpointSpec, FuzzContext } from './spec.js';
import { toJsonText } from './values.js';

/**
 * Turns an endpoint's requests into full HTTP requests, and breaks the transport around
 * valid ones: auth, Host, Content-Type, malformed or non-object JSON, odd methods, paths
 * and headers. Each breakage knows which status the contract gives it (the first guard
 * that refuses wins: /v1 auth → JSON parse → route; /sandbox Host → Content-Type → parse).
 */
export interface FuzzCase extends Base {
  headers: Record<string, string>;
  body?: string;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers a well-behaved client sends for this request. */
function baseHeaders(spec: EndpointSpec, ctx: FuzzContext, b: Base): Record<string, string> {
  const headers: Record<string, string> = {};
  if (spec.api === 'v1') headers.Authorization = `Bearer ${ctx.key}`;
  const hasBody = b.json !== undefined || b.raw !== undefined;
  // /sandbox state changes must say JSON even without a body (CONTRACT §8).
  if (hasBody || (spec.api === 'sandbox' && !SAFE.has(b.method))) headers['Content-Type'] = 'application/json';
  return headers;
}

function bodyOf(b: Base): string | undefined {
  if (b.raw !== undefined) return b.raw;
  return b.json === undefined ? undefined : toJsonText(b.json);
}

const finish = (spec: EndpointSpec, ctx: FuzzContext, b: Base, harmless: Record<string, string> = {}): FuzzCase => ({
  ...b,
  headers: { ...baseHeaders(spec, ctx, b), ...harmless },
  body: bodyOf(b),
});

// Headers that must change nothing.
const harmlessHeaders: fc.Arbitrary<Record<string, string>> = fc
  .subarray([
    ['Accept', 'text/html'],
    ['Accept', '*/*'],
    ['Accept-Encoding', 'gzip, br'],
    ['Origin', 'https://evil.example'],
    ['Referer', 'https://evil.example/page'],
    ['X-Forwarded-For', '10.0.0.1, 1.2.3.4'],
    ['X-Forwarded-Host', 'evil.example'],
    ['X-HTTP-Method-Override', 'DELETE'],
    ['X-Original-URL', '/sandbox/reset'],
    ['Cookie', 'session=1; __proto__=x'],
    ['User-Agent', 'fuzz/1.0 café'],
    ['X-Big', 'b'.repeat(6000)],
    ['Connection', 'keep-alive'],
  ] as [string, string][])
  .map((pairs) => Object.fromEntries(pairs));

type Mutation = (b: Base) => FuzzCase;

function transportMutations(spec: EndpointSpec, ctx: FuzzContext): fc.Arbitrary<Mutation>[] {
  const out: fc.Arbitrary<Mutation>[] = [];
  const stateChanging = (b: Base) => !SAFE.has(b.method);

  if (spec.api === 'v1') {
    out.push(
      fc.constantFrom<string | null>(null, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', `Bearer ${'k'.repeat(257)}`, 'Bearer ké', 'Token abc', 'Bearerabc', 'Bearer\tx y').map((auth) => (b) => {
        const c = finish(spec, ctx, b);
        if (auth === null) delete c.headers.Authorization;
        else c.headers.Authorization = auth;
        return { ...c, expect: [401], kind: `auth:${auth === null ? 'missing' : auth.slice(0, 12)}`, check: undefined, prepare: undefined };
      }),
    );
  } else {
    out.push(
      fc.constantFrom('evil.example', 'localhost.evil.example', '127.0.0.2', '', 'evil.example:8025', '169.254.169.254', 'localhost@evil.example', '0.0.0.0').map((host) => (b) => {
        const c = finish(spec, ctx, b, { Host: host });
        return { ...c, expect: [403], kind: `host:${host || 'empty'}`, check: undefined, prepare: undefined };
      }),
      fc.constantFrom('LOCALHOST', 'localhost.', '[::1]:1', '127.0.0.1:65535').map((host) => (b) => ({ ...finish(spec, ctx, b, { Host: host }), kind: `host-ok:${host}` })),
    );
  }

  const wrongTypes = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'json', 'text/json', 'application/json-seq'];
  if (spec.body === 'required' || spec.api === 'sandbox') {
    out.push(
      fc.constantFrom<string | null>(null, ...wrongTypes).map((type) => (b) => {
        const c = finish(spec, ctx, b);
        if (type === null) delete c.headers['Content-Type'];
        else c.headers['Content-Type'] = type;
        // A /sandbox read ignores its Content-Type; a body-less /v1 call never looks at it.
        const refused = spec.api === 'sandbox' ? stateChanging(b) : spec.body === 'required';
        return { ...c, expect: refused ? [415] : undefined, kind: `ctype:${type ?? 'missing'}`, check: undefined, prepare: refused ? undefined : c.prepare };
      }),
    );
  }
  if (spec.body !== 'none') {
    out.push(
      fc.constantFrom('application/json; charset=utf-16', 'application/json; charset=iso-8859-1', 'application/json; charset=nope').map((type) => (b) => {
        const c = finish(spec, ctx, { ...b, json: b.json ?? {} });
        c.headers['Content-Type'] = type;
        // body-parser takes any utf-* charset and then fails to parse the bytes: 400 or 415.
        return { ...c, expect: type.includes('utf-16') ? [400, 415] : [415], kind: `charset:${type.split('=')[1]}`, check: undefined, prepare: undefined };
      }),
      fc.constantFrom('APPLICATION/JSON', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"').map((type) => (b) => {
        const c = finish(spec, ctx, b);
        if (c.headers['Content-Type']) c.headers['Content-Type'] = type;
        return { ...c, kind: `ctype-ok:${type}` };
      }),
    );
  }

  // Malformed JSON fails in the body parser, before any route looks at it.
  out.push(
    fc
      .oneof(
        fc.constantFrom('{', '{"a":', "{'a':1}", '{"a":1,}', 'nul', '\u0000', '{"a":"\\x"}', '{"a":1}}', '[1,2', '{"a":NaN}', '{"a":01}', '\ufeff{}', '{"\\ud800":1}x'),
        fc.integer({ min: 2, max: 8000 }).map((d) => '['.repeat(d)),
        fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
      )
      .map((raw) => (b) => {
        const c = finish(spec, ctx, { ...b, json: undefined, raw });
        c.headers['Content-Type'] = 'application/json';
        // \ufeff{} is a BOM, which body-parser may tolerate: then it is an empty object.
        const expect = raw === '\ufeff{}' ? undefined : [400];
        return { ...c, expect, kind: 'malformed-json', check: undefined, prepare: expect ? undefined : c.prepare };
      }),
  );

  if (spec.body === 'required') {
    out.push(
      fc.constantFrom('[]', '"text"', '1', 'null', 'true', '[{"to":"a@b.com"}]', '[' .repeat(3000) + ']'.repeat(3000)).map((raw) => (b) => {
        const c = finish(spec, ctx, { ...b, json: undefined, raw });
        return { ...c, expect: [400], kind: 'not-an-object', check: undefined, prepare: c.prepare };
      }),
      fc.constant((b: Base) => {
        const c = finish(spec, ctx, { ...b, json: undefined, raw: undefined });
        c.headers['Content-Type'] = 'application/json';
        // An empty body may read as {} (then the fields are missing: 422) or as no object (400).
        return { ...c, expect: [400, 422], kind: 'no-body', check: undefined, prepare: c.prepare };
      }),
    );
  }

  // Odd methods, paths and encodings: whatever the answer, it keeps the contract's shape.
  out.push(
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH', 'PURGE', 'LOCK', 'MKCOL', 'REPORT', 'TRACE', 'LINK', 'NOTIFY').map((odd) => (b) => {
      // A DELETE would remove the shared emails and domains other cases rely on: only fresh ones.
      const method = odd === 'DELETE' && !b.prepare ? 'PURGE' : odd;
      const c = finish(spec, ctx, { ...b, method });
      if (spec.api === 'sandbox' && !SAFE.has(method)) c.headers['Content-Type'] = 'application/json';
      return { ...c, method, expect: undefined, kind: `method:${method}`, check: undefined };
    }),
    fc.constantFrom('trailing-slash', 'upper', 'double-slash', 'dot-segment', 'encoded', 'semicolon').map((variant) => (b) => {
      const c = finish(spec, ctx, b);
      const [pathname, query = ''] = c.path.split(/\?(.*)/s);
      const q = query ? `?${query}` : '';
      const variants: Record<string, string> = {
        'trailing-slash': `${pathname}/${q}`,
        upper: `${pathname.toUpperCase()}${q}`,
        'double-slash': `${pathname.replace(/\//g, '//')}${q}`,
        'dot-segment': `${pathname.replace(/^\/(\w+)\//, '/$1/../$1/')}${q}`,
        encoded: `${pathname.replace(/[a-z]/, (ch) => `%${ch.charCodeAt(0).toString(16)}`)}${q}`,
        semicolon: `${pathname};jsessionid=1${q}`,
      };
      return { ...c, path: variants[variant], expect: undefined, kind: `path:${variant}`, check: undefined, prepare: undefined };
    }),
    fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown', 'identity', 'gzip, gzip').map((encoding) => (b) => {
      const c = finish(spec, ctx, { ...b, json: b.json ?? { a: 1 } });
      c.headers['Content-Encoding'] = encoding;
      return { ...c, expect: encoding === 'identity' ? c.expect : undefined, kind: `encoding:${encoding}`, check: encoding === 'identity' ? c.check : undefined, prepare: encoding === 'identity' ? c.prepare : undefined };
    }),
    fc.constant((b: Base) => {
      const c = finish(spec, ctx, b, {});
      c.headers['Transfer-Encoding'] = 'chunked';
      return { ...c, kind: 'chunked' };
    }),
  );
  return out;
}

/** Valid requests, broken fields and broken transports, in proportions fit for an endpoint. */
export function caseArbitrary(spec: EndpointSpec, ctx: FuzzContext, weights = { valid: 45, invalid: 30, transport: 25 }): fc.Arbitrary<FuzzCase> {
  const valid = fc.tuple(spec.valid(ctx), harmlessHeaders).map(([b, h]) => finish(spec, ctx, b, h));
  const invalid = spec.invalid ? spec.invalid(ctx).map((b) => finish(spec, ctx, b)) : valid;
  const transport = fc.tuple(spec.valid(ctx), fc.oneof(...transportMutations(spec, ctx))).map(([b, mutate]) => mutate(b));
  return fc.oneof({ weight: weights.valid, arbitrary: valid }, { weight: weights.invalid, arbitrary: invalid }, { weight: weights.transport, arbitrary: transport });
}
