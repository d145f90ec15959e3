import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

// The contract points of issue 12 (CONTRACT §3, §8): dotted field paths on every route,
// non-object JSON bodies → 400 on both /v1/send paths, unknown paths → 404 JSON.
let server: TestServer;
const KEY = 'contract-test-key-01';
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('errors[].field is a dotted path to the offending element', () => {
  const valid = { to: 'a@example.com', subject: 'Hi', body: 'Hello' };
  const PNG = 'iVBORw0KGgo=';
  for (const [what, json, field] of [
    ['the second to', { ...valid, to: ['a@example.com', 'not an address'] }, 'to.1'],
    ['the first cc', { ...valid, cc: ['nope'] }, 'cc.0'],
    ['the third bcc', { ...valid, bcc: ['b@example.com', 'c@example.com', 'x'] }, 'bcc.2'],
    ['a header value', { ...valid, headers: { 'X-Foo': 'a\r\nb' } }, 'headers.X-Foo'],
    ['a header name', { ...valid, headers: { 'Bad Name': 'x' } }, 'headers.Bad Name'],
    ['the content of the third attachment', { ...valid, attachments: [{ filename: 'a.png', content: PNG, contentType: 'image/png' }, { filename: 'b.png', content: PNG, contentType: 'image/png' }, { filename: 'c.png', content: '!!', contentType: 'image/png' }] }, 'attachments.2.content'],
    ['an attachment filename', { ...valid, attachments: [{ filename: '', content: PNG, contentType: 'image/png' }] }, 'attachments.0.filename'],
  ] as const) {
    it(`POST /v1/send names ${what}`, async () => {
      const res = await server.api('/v1/send', { method: 'POST', key: KEY, json });
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain(field);
    });
  }

  for (const [what, method, path, json, field] of [
    ['a rule\'s header name', 'POST', '/sandbox/rules', { match: { header: { value: 'x' } }, action: { outcome: 'bounced' } }, 'match.header.name'],
    ['a rule\'s outcome', 'POST', '/sandbox/rules', { match: {}, action: { outcome: 'lost' } }, 'action.outcome'],
    ['an unknown key inside a rule\'s match', 'POST', '/sandbox/rules', { match: { colour: 'red' }, action: { outcome: 'bounced' } }, 'match.colour'],
    ['the second webhook event', 'POST', '/sandbox/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['email.bounced', 'email.lost'] }, 'events.1'],
    ['a scripted record', 'PUT', '/sandbox/domains/acme.test/verification', { records: { dkim: 'maybe' } }, 'records.dkim'],
    ['an unknown record', 'PUT', '/sandbox/domains/acme.test/verification', { records: { mx: 'failed' } }, 'records.mx'],
    ['a chaos rate', 'PUT', '/sandbox/chaos', { rates: { bounced: 'lots' } }, 'rates.bounced'],
    ['a reset\'s team', 'POST', '/sandbox/reset', { team_id: 5 }, 'team_id'],
  ] as const) {
    it(`${method} ${path} names ${what}`, async () => {
      const res = await server.api(path, { method, json });
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain(field);
    });
  }
});

describe('a body that is not a JSON object answers 400', () => {
  const post = (path: string, body: string, extra: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...extra }, body });
  // Streamed without a length, a body is chunked: the raw fast path leaves it to Express.
  const chunked = (path: string, body: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: new ReadableStream({ start(c) { if (body) c.enqueue(new TextEncoder().encode(body)); c.close(); } }),
      duplex: 'half',
    } as RequestInit);

  for (const [what, body] of [['an empty body', ''], ['null', 'null'], ['an array', '[{"to":"a@example.com"}]'], ['a number', '42'], ['a string', '"hi"'], ['only whitespace', '  \n']] as const) {
    it(`POST /v1/send with ${what}, on the raw path and through Express`, async () => {
      for (const res of [await post('/v1/send', body), await chunked('/v1/send', body)]) {
        expect(res.status).toBe(400);
        const json = (await res.json()) as Record<string, unknown>;
        expect(json).toMatchObject({ status: 400, success: false });
        expect(typeof json.timestamp).toBe('string');
      }
    });
  }

  it('POST /v1/domains and /sandbox/rules with an empty JSON body', async () => {
    for (const path of ['/v1/domains', '/sandbox/rules']) {
      const res = await post(path, '');
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ status: 400, message: 'Body must be a JSON object' });
    }
  });

  it('still takes an empty body where the body is optional (POST /sandbox/reset)', async () => {
    const res = await post('/sandbox/reset', '');
    expect(res.status).toBe(200);
  });
});

describe('unknown paths answer 404 JSON to API clients', () => {
  const get = (path: string, accept?: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${KEY}`, ...(accept ? { Accept: accept } : {}) } });

  for (const [method, path, accept] of [
    ['GET', '/v2/send', 'application/json'],
    ['GET', '/v1/nope', undefined],
    ['GET', '/sandbox/nope', 'text/html'],
    ['GET', '/api/emails', 'application/json'],
    ['GET', '/emails/abc', 'application/json'],
    ['GET', '/emails/abc', '*/*'],
    ['GET', '/domains', undefined],
    ['POST', '/scenarios', 'text/html'],
    ['GET', '/favicon-that-is-not-there.ico', 'text/html'],
  ] as const) {
    it(`${method} ${path} with Accept ${accept ?? '(none)'}`, async () => {
      const res = method === 'GET' ? await get(path, accept) : await fetch(`${server.url}${path}`, { method, headers: { Accept: accept ?? '*/*', 'Content-Type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ status: 404 });
    });
  }

  const built = existsSync(new URL('../../../web/dist/index.html', import.meta.url));
  it.skipIf(!built)('gives the inbox page to a browser on the inbox\'s own pages (needs npm run build:web)', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const path of ['/', '/emails/abc', '/domains', '/domains/acme.test', '/scenarios']) {
      const res = await get(path, accept);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    // Not an inbox page, so not the inbox even for a browser.
    expect((await get('/v2/send', accept)).status).toBe(404);
  });
});
