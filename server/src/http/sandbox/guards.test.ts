import { request } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';
import { hostGuard } from './guards.js';

/** Forged requests (CONTRACT §6, §8): 415, Host checks, --ui-auth. */

/** A request with a chosen Host header (fetch does not let a caller set it). */
function raw(url: string, options: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'GET', headers: { ...(options.host ? { Host: options.host } : {}), ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('Content-Type on state changes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['POST', '/sandbox/rules', 'text/plain', '{"action":{"outcome":"bounced"}}'],
    ['POST', '/sandbox/rules', 'application/x-www-form-urlencoded', 'action=1'],
    ['POST', '/sandbox/reset', undefined, undefined],
    ['POST', '/sandbox/delivery/pause', 'multipart/form-data; boundary=x', '--x--'],
    ['DELETE', '/sandbox/emails', undefined, undefined],
    ['DELETE', '/sandbox/rules', 'text/plain', ''],
    ['PUT', '/sandbox/chaos', 'text/plain', '{"seed":1}'],
    ['PATCH', '/sandbox/emails/0123456789abcdef', 'text/plain', '{"read":true}'],
    ['POST', '/sandbox/emails/0123456789abcdef/events', undefined, '{"type":"open"}'],
  ])('answers 415 for %s %s with %s', async (method, path, type, body) => {
    const res = await fetch(server.url + path, { method, headers: type ? { 'Content-Type': type } : {}, body });
    expect(res.status).toBe(415);
    const json = await res.json();
    expect(json.status).toBe(415);
    expect(json.message).toMatch(/Content-Type: application\/json/);
  });

  it('accepts JSON state changes, reads without a Content-Type, and leaves /v1 alone', async () => {
    expect((await fetch(`${server.url}/sandbox/delivery/pause`, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' } })).status).toBe(200);
    expect((await fetch(`${server.url}/sandbox/delivery/resume`, { method: 'POST', headers: { 'Content-Type': 'application/json' } })).status).toBe(200);
    expect((await fetch(`${server.url}/sandbox/rules`)).status).toBe(200);
    await server.api('/v1/domains', { method: 'POST', key: 'guard-key', json: { value: 'guard.example' } });
    const del = await fetch(`${server.url}/v1/domains?domain=guard.example`, { method: 'DELETE', headers: { Authorization: 'Bearer guard-key' } });
    expect(del.status).toBe(200);
  });
});

describe('Host while bound to loopback', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(['--allowed-hosts', 'sendbox.internal,*.dev.example']);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['/sandbox/health', '/sandbox/emails', '/sandbox/events', '/', '/some/inbox/page'])('answers 403 to a foreign Host for %s, reads included', async (path) => {
    const res = await raw(server.url + path, { host: 'evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).message).toMatch(/^Host "evil\.example" is not allowed/);
  });

  it('refuses a rebinding attempt on a state change too', async () => {
    const res = await raw(`${server.url}/sandbox/reset`, { method: 'POST', host: 'attacker.example:80', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
  });

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST.', 'sendbox.internal', 'app.dev.example'])('answers Host %s', async (name) => {
    const port = new URL(server.url).port;
    expect((await raw(`${server.url}/sandbox/health`, { host: `${name}:${port}` })).status).toBe(200);
    expect((await raw(`${server.url}/sandbox/emails`, { host: name })).status).toBe(200);
  });

  it('does not guard /v1, which has its own bearer auth', async () => {
    expect((await raw(`${server.url}/v1/emails`, { host: 'evil.example' })).status).toBe(401);
    expect((await raw(`${server.url}/v1/emails`, { host: 'evil.example', headers: { Authorization: 'Bearer host-key' } })).status).toBe(200);
  });
});

describe('Host when bound elsewhere', () => {
  const probe = async (config: { host: string; allowedHosts?: string }, host: string) => {
    const app = express();
    app.use(hostGuard({ host: config.host, allowedHosts: config.allowedHosts }), (_req, res) => void res.send('ok'));
    app.use(((err, _req, res, _next) => void res.status(err.status).send('no')) as express.ErrorRequestHandler);
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((r) => listener.once('listening', r));
    try {
      const { port } = listener.address() as { port: number };
      return (await raw(`http://127.0.0.1:${port}/`, { host })).status;
    } finally {
      listener.close();
    }
  };

  it('checks nothing without --allowed-hosts, and checks with it', async () => {
    expect(await probe({ host: '0.0.0.0' }, 'anything.example')).toBe(200);
    expect(await probe({ host: '0.0.0.0', allowedHosts: 'box.lan' }, 'anything.example')).toBe(403);
    expect(await probe({ host: '0.0.0.0', allowedHosts: 'box.lan' }, 'box.lan:8025')).toBe(200);
    expect(await probe({ host: '127.0.0.2' }, 'anything.example')).toBe(403);
  });
});

describe('--ui-auth', () => {
  let server: TestServer;
  const good = `Basic ${Buffer.from('admin:s3cret:with:colons').toString('base64')}`;
  const bad = `Basic ${Buffer.from('admin:wrong').toString('base64')}`;
  beforeAll(async () => {
    server = await startServer(['--ui-auth', 'admin:s3cret:with:colons']);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['/sandbox/emails', '/sandbox/rules', '/sandbox/events', '/sandbox/teams', '/'])('asks for basic auth on %s', async (path) => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="sendbox", charset="UTF-8"');
    expect((await fetch(server.url + path, { headers: { Authorization: bad } })).status).toBe(401);
  });

  it('answers with the right credentials, keeps health open, and leaves /v1 to its bearer auth', async () => {
    expect((await fetch(`${server.url}/sandbox/emails`, { headers: { Authorization: good } })).status).toBe(200);
    const stream = await fetch(`${server.url}/sandbox/events`, { headers: { Authorization: good } });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    expect((await fetch(`${server.url}/sandbox/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/emails`, { headers: { Authorization: 'Bearer ui-key' } })).status).toBe(200);
  });

  it('checks auth before Content-Type, so an anonymous forged post learns nothing', async () => {
    const res = await fetch(`${server.url}/sandbox/reset`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});
