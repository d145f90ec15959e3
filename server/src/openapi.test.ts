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
  server = await startServer();
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

  it('fails for an answer with a field the document does not list', () => {
    expect(() => expectDocumented('/sandbox/relay', 'get', { status: 200, body: { status: 200, message: 'x', data: { configured: false, relay: null, allow: [], auto: [], password: 'leak' } } })).toThrow(/must NOT have additional properties/);
  });
});
