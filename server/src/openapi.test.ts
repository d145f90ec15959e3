import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type TestServer } from '../test/harness.js';
import { envelopeOf, sandboxEmailSchema } from '../../shared/responses.js';

/**
 * Real answers checked against the OpenAPI document the server publishes: each body must
 * match the schema of its path, method and status there (generated from shared/responses.ts,
 * objects closed with additionalProperties: false, so an undocumented field fails too).
 */
const KEY = 'openapi-key-0001';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let server: TestServer;
let ajv: Ajv2020;
const DOC_ID = 'https://sendbox.local/openapi.json';

beforeAll(async () => {
  // --link-check: the lab test below checks a link to a closed loopback port.
  server = await startServer(['--link-check']);
  const doc = (await server.api('/openapi.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: DOC_ID });
});
afterAll(async () => {
  await server?.close();
});

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** Validates a real answer against the document's schema for it; fails with ajv's reasons. */
function expectDocumented(path: string, method: string, res: { status: number; body: unknown }) {
  const doc = ajv.getSchema(DOC_ID)!.schema as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>> };
  const response = doc.paths[path]?.[method]?.responses[String(res.status)];
  expect(response, `${method.toUpperCase()} ${path} documents no ${res.status}`).toBeDefined();
  const ref = response.$ref ? `${DOC_ID}#${response.$ref.slice(1)}/content/application~1json/schema` : `${DOC_ID}#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref);
  expect(validate, ref).toBeDefined();
  const ok = validate!(res.body);
  expect(ok, `${method.toUpperCase()} ${path} ${res.status}: ${ajv.errorsText(validate!.errors)}\n${JSON.stringify(res.body).slice(0, 400)}`).toBe(true);
}

describe('the OpenAPI document describes real answers', () => {
  let id: string;
  beforeAll(async () => {
    const send = await server.api('/v1/send', { method: 'POST', key: KEY, json: {
      from: 'Acme <app@acme.test>', to: ['a@example.com'], cc: 'c@example.com', subject: 'Your code',
      body: '<p>Code 482913. <a href="https://acme.test/verify?t=1">Verify</a> <img src="cid:logo" alt="logo"></p>',
      attachments: [{ filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: 'logo' }, { filename: 'a.txt', content: 'aGk=', contentType: 'text/plain' }],
    } });
    expectDocumented('/v1/send', 'post', send);
    id = send.body.data[0].email_id;
    await server.api(`/sandbox/emails/wait?to=a@example.com&timeout_ms=5000`);
    await server.api(`/sandbox/emails/${id}/events`, { method: 'POST', json: { type: 'delivered' } });
    await server.api(`/sandbox/emails/${id}/events`, { method: 'POST', json: { type: 'click', recipient: 'a@example.com', url: 'https://acme.test/verify?t=1' } });
  });

  it('for /v1 emails', async () => {
    expectDocumented('/v1/emails', 'get', await server.api('/v1/emails', { key: KEY }));
    expectDocumented('/v1/emails/{email_id}', 'get', await server.api(`/v1/emails/${id}`, { key: KEY }));
    expectDocumented('/v1/emails/{email_id}/logs', 'get', await server.api(`/v1/emails/${id}/logs`, { key: KEY }));
  });

  it('for /v1 domains', async () => {
    expectDocumented('/v1/domains', 'post', await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'acme.test' } }));
    expectDocumented('/v1/domains/verify', 'post', await server.api('/v1/domains/verify?domain=acme.test', { method: 'POST', key: KEY }));
    expectDocumented('/v1/domains', 'get', await server.api('/v1/domains?domain=acme.test', { key: KEY }));
  });

  it('for errors', async () => {
    expectDocumented('/v1/emails', 'get', await server.api('/v1/emails'));
    const invalid = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'nope', subject: 'x', body: 'x' } });
    expect(invalid.status).toBe(422);
    expectDocumented('/v1/send', 'post', invalid);
    expectDocumented('/sandbox/emails/{id}/release', 'post', await server.api(`/sandbox/emails/${id}/release`, { method: 'POST', json: { to: ['a@example.com'] } }));
  });

  it('for the sandbox views', async () => {
    expectDocumented('/sandbox/emails', 'get', await server.api('/sandbox/emails'));
    const view = await server.api(`/sandbox/emails/${id}`);
    expectDocumented('/sandbox/emails/{id}', 'get', view);
    // The answer really has the parts the schema describes, not only empty lists.
    const email = envelopeOf(sandboxEmailSchema).parse(view.body).data;
    expect(email.files).toHaveLength(2);
    expect(email.links[0].href).toBe('https://acme.test/verify?t=1');
    expect(email.codes).toEqual([{ value: '482913' }]);
    expect(email.events.map((e) => e.type)).toEqual(['click']);
    expectDocumented('/sandbox/teams', 'get', await server.api('/sandbox/teams'));
    expectDocumented('/sandbox/relay', 'get', await server.api('/sandbox/relay'));
  });

  it('for rules, the delivery clock, chaos and reset', async () => {
    const outcome = await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@x.test', header: { name: 'X-Env' } }, action: { outcome: 'bounced', code: '550', response: '5.1.1 no' }, times: 1 } });
    expectDocumented('/sandbox/rules', 'post', outcome);
    expectDocumented('/sandbox/rules', 'post', await server.api('/sandbox/rules', { method: 'POST', json: { action: { http_status: 429, retry_after: 5 } , nth: 2 } }));
    expectDocumented('/sandbox/rules', 'post', await server.api('/sandbox/rules', { method: 'POST', json: { action: { smtp_stage: 'rcpt', code: 451, delay_ms: 10 } } }));
    expectDocumented('/sandbox/rules', 'get', await server.api('/sandbox/rules'));
    expectDocumented('/sandbox/rules/{id}', 'get', await server.api(`/sandbox/rules/${outcome.body.data.id}`));
    expectDocumented('/sandbox/rules', 'delete', await server.api('/sandbox/rules', { method: 'DELETE', json: {} }));
    expectDocumented('/sandbox/delivery', 'get', await server.api('/sandbox/delivery'));
    expectDocumented('/sandbox/chaos', 'put', await server.api('/sandbox/chaos', { method: 'PUT', json: { seed: 7 } }));
    expectDocumented('/sandbox/chaos', 'get', await server.api('/sandbox/chaos'));
    expectDocumented('/sandbox/reset', 'post', await server.api('/sandbox/reset', { method: 'POST', json: { team_id: 'team_nobody' } }));
  });

  it('for webhooks and their attempts', async () => {
    const created = await server.api('/sandbox/webhooks', { method: 'POST', json: { url: 'http://127.0.0.1:9/hook', events: ['email.*'] } });
    expectDocumented('/sandbox/webhooks', 'post', created);
    await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'hook@example.com', subject: 'hook', body: 'x' } });
    const hook = `/sandbox/webhooks/${created.body.data.id}`;
    // The receiver port is closed: the first attempt fails at once and is recorded.
    await eventually(async () => (await server.api(`${hook}/attempts`)).body.data.length > 0, 5000, 'a recorded attempt');
    expectDocumented('/sandbox/webhooks', 'get', await server.api('/sandbox/webhooks'));
    const detail = await server.api(hook);
    expectDocumented('/sandbox/webhooks/{id}', 'get', detail);
    const attempts = await server.api(`${hook}/attempts`);
    expectDocumented('/sandbox/webhooks/{id}/attempts', 'get', attempts);
  });

  it('for domain scripts, a wait that times out, and deletions', async () => {
    expectDocumented('/sandbox/domains/{domain}/verification', 'put', await server.api('/sandbox/domains/script.test/verification', { method: 'PUT', json: { sequence: ['pending', { records: { dkim: 'failed' } }] } }));
    expectDocumented('/sandbox/domains/{domain}/verification', 'get', await server.api('/sandbox/domains/script.test/verification'));
    const timeout = await server.api('/sandbox/emails/wait?to=nobody@example.com&timeout_ms=1');
    expect(timeout.status).toBe(408);
    expectDocumented('/sandbox/emails/wait', 'get', timeout);
    const gone = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'gone@example.com', subject: 'x', body: 'x' } });
    expectDocumented('/sandbox/emails/{id}', 'delete', await server.api(`/sandbox/emails/${gone.body.data[0].email_id}`, { method: 'DELETE', json: {} }));
    expectDocumented('/sandbox/emails', 'delete', await server.api('/sandbox/emails?team_id=team_nobody', { method: 'DELETE', json: {} }));
  });

  it('for the mail-quality lab', async () => {
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'lab.acme.test' } });
    await server.api('/v1/domains/verify?domain=lab.acme.test', { method: 'POST', key: KEY });
    const sent = await server.api('/v1/send', { method: 'POST', key: KEY, json: {
      from: 'News <news@lab.acme.test>', to: 'a@example.com', subject: 'Lab', headers: { 'List-Unsubscribe': '<https://lab.acme.test/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      body: '<style>.r{display:flex}</style><div class="r" style="border-radius:4px"><a href="http://127.0.0.1:9/closed">closed</a> <img src="http://127.0.0.1:9/logo.png" alt="logo"></div>',
    } });
    const lab = sent.body.data[0].email_id;
    const html = await server.api(`/sandbox/emails/${lab}/html-check`);
    expect(html.body.data.features.length).toBeGreaterThan(2);
    expectDocumented('/sandbox/emails/{id}/html-check', 'get', html);
    expectDocumented('/sandbox/emails/{id}/spam', 'get', await server.api(`/sandbox/emails/${lab}/spam`));
    const links = await server.api(`/sandbox/emails/${lab}/link-check`, { method: 'POST', json: { max_links: 1 } });
    expect(links.body.data).toMatchObject({ checked: 1, skipped: ['http://127.0.0.1:9/logo.png'] });
    expectDocumented('/sandbox/emails/{id}/link-check', 'post', links);
    const auth = await server.api(`/sandbox/emails/${lab}/auth`);
    expect(auth.body.data.dkim).toHaveLength(1);
    expectDocumented('/sandbox/emails/{id}/auth', 'get', auth);
    expectDocumented('/sandbox/emails/{id}/link-check', 'post', await server.api(`/sandbox/emails/${lab}/link-check`, { method: 'POST', json: { max_links: 0 } }));
  });

  it('for tags, bulk actions, the read flag, forced events and health', async () => {
    const sent = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'tags@example.com', subject: 'Tagged', body: 'x', headers: { 'X-Tags': 'signup, welcome' } } });
    const tagged = sent.body.data[0].email_id;
    expectDocumented('/sandbox/emails/{id}/tags', 'put', await server.api(`/sandbox/emails/${tagged}/tags`, { method: 'PUT', json: { tags: ['signup', 'vip'] } }));
    expectDocumented('/sandbox/emails/{id}/tags', 'put', await server.api(`/sandbox/emails/${tagged}/tags`, { method: 'PUT', json: { tags: 'vip' } }));
    expectDocumented('/sandbox/tags', 'get', await server.api('/sandbox/tags'));
    expectDocumented('/sandbox/tags/{tag}', 'put', await server.api('/sandbox/tags/vip', { method: 'PUT', json: { name: 'VIP customers' } }));
    expectDocumented('/sandbox/tags/{tag}', 'delete', await server.api('/sandbox/tags/signup', { method: 'DELETE', json: {} }));
    expectDocumented('/sandbox/emails/bulk', 'post', await server.api('/sandbox/emails/bulk', { method: 'POST', json: { ids: [tagged], action: 'tag', tags: ['bulk'] } }));
    expectDocumented('/sandbox/emails/bulk', 'post', await server.api('/sandbox/emails/bulk', { method: 'POST', json: { q: 'tag:bulk', action: 'read' } }));
    expectDocumented('/sandbox/emails/bulk', 'post', await server.api('/sandbox/emails/bulk', { method: 'POST', json: { q: 'status:lost', action: 'read' } }));
    expectDocumented('/sandbox/emails/{id}', 'patch', await server.api(`/sandbox/emails/${tagged}`, { method: 'PATCH', json: { read: false } }));
    expectDocumented('/sandbox/emails/{id}/events', 'post', await server.api(`/sandbox/emails/${tagged}/events`, { method: 'POST', json: { type: 'delivered' } }));
    expectDocumented('/sandbox/health', 'get', await server.api('/sandbox/health'));
  });

  it('describes every request body with the schema the server validates it with', () => {
    const doc = ajv.getSchema(DOC_ID)!.schema as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>> };
    const body = (path: string, method: string) => ajv.compile({ $ref: `${DOC_ID}#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}` });
    // What the server accepts, the document accepts; what it refuses for its shape, the document refuses.
    expect(body('/sandbox/rules', 'post')({ match: { recipient: '*@x.test' }, action: { smtp_stage: 'rcpt', code: 451 }, times: 1 })).toBe(true);
    expect(body('/sandbox/rules', 'post')({ action: { outcome: 'lost' } })).toBe(false);
    expect(body('/sandbox/emails/bulk', 'post')({ q: 'tag:x', action: 'tag', tags: ['y'] })).toBe(true);
    expect(body('/sandbox/emails/bulk', 'post')({ q: 'x', action: 'read', other: 1 })).toBe(false);
    expect(body('/sandbox/chaos', 'put')({ rates: { bounced: 0.5 }, seed: 3 })).toBe(true);
    expect(body('/sandbox/chaos', 'put')({ rates: { bounced: 2 } })).toBe(false);
    expect(body('/sandbox/webhooks', 'post')({ url: 'https://hooks.example/x', events: ['email.*'] })).toBe(true);
    expect(body('/sandbox/emails/{id}', 'patch')({ read: 'yes' })).toBe(false);
    // Every /sandbox body comes from a strict zod object: closed to unknown keys, as the server is.
    const open = Object.entries(doc.paths).filter(([path]) => path.startsWith('/sandbox')).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, op]) => op.requestBody && (op.requestBody.content['application/json'].schema as { additionalProperties?: unknown }).additionalProperties !== false).map(([method]) => `${method} ${path}`));
    expect(open).toEqual([]);
  });

  it('fails for an answer with a field the document does not list', () => {
    expect(() => expectDocumented('/sandbox/relay', 'get', { status: 200, body: { status: 200, message: 'x', data: { configured: false, relay: null, allow: [], auto: [], password: 'leak' } } })).toThrow(/must NOT have additional properties/);
  });
});
