import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { startServer, type TestServer } from '../../test/harness.js';
import { startReceiver, type Received } from '../../test/smtp/receiver.js';
import { sendWithNodemailer, queuedId } from '../../test/smtp/client.js';
import { ConfigError, loadConfig } from '../config.js';

const KEY = 'release-key-0001';

/** A port that was free a moment ago (the loop test must know sendbox's SMTP port before it starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function send(server: TestServer, to: string[], subject: string): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { from: 'App <app@acme.test>', to, subject, body: '<p>Reset: <a href="https://acme.test/r">link</a></p>' } });
  expect(res.status).toBe(200);
  return res.body.data[0].email_id;
}

const release = (server: TestServer, id: string, body: unknown) => server.api(`/sandbox/emails/${id}/release`, { method: 'POST', json: body });

/** The relayed bytes are the Resent-* block followed by the stored message, byte for byte. */
async function expectResentCopy(server: TestServer, id: string, received: Received, to: string[]) {
  const stored = Buffer.from(await (await fetch(`${server.url}/sandbox/emails/${id}/raw`)).arrayBuffer());
  const split = received.raw.indexOf('Resent-Message-ID:');
  const headEnd = received.raw.indexOf('\r\n', split) + 2;
  const head = received.raw.subarray(0, headEnd).toString('utf8');
  expect(head).toMatch(/^Resent-Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\nResent-From: sandbox@sendbox\.local\r\nResent-To: /);
  expect(head).toContain(`Resent-To: ${to.join(',\r\n ')}\r\n`);
  expect(received.raw.subarray(headEnd).equals(stored)).toBe(true);
}

describe('release through --relay', () => {
  let receiver: Receiver;
  let server: TestServer;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer(['--relay', `smtp://relay-user:relay-pass@127.0.0.1:${receiver.port}`, '--relay-allow', '*@example.com,ops@acme.test', '--relay-tls', 'off']);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('sends the stored bytes with Resent-* headers, logged in, to the given recipients only', async () => {
    const id = await send(server, ['alice@example.com', 'bob@example.com'], 'Reset your password');
    const res = await release(server, id, { to: ['qa@example.com', 'ops@acme.test'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, message: 'Released to 2 recipients', data: { id, to: ['qa@example.com', 'ops@acme.test'], from: 'app@acme.test', relay: `127.0.0.1:${receiver.port}` } });
    expect(res.body.data.response).toMatch(/^250 2\.0\.0 Ok: relayed/);
    const received = await receiver.next();
    expect(received).toMatchObject({ from: 'app@acme.test', to: ['qa@example.com', 'ops@acme.test'], user: 'relay-user' });
    await expectResentCopy(server, id, received, ['qa@example.com', 'ops@acme.test']);
    expect(received.raw.toString()).toContain(`Resent-Message-ID: <${res.body.data.resent_message_id}>`);
  });

  it('releases a message captured over SMTP byte for byte', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'cron@acme.test', to: 'dev@example.com', subject: 'nightly report', text: 'line one\n.line with a leading dot\nend' });
    const id = queuedId(sent.info.response);
    expect((await release(server, id, { to: ['dev@example.com'] })).status).toBe(200);
    await expectResentCopy(server, id, await receiver.next(), ['dev@example.com']);
  });

  it('refuses a recipient outside --relay-allow with 403 and sends nothing', async () => {
    const before = receiver.count();
    const id = await send(server, ['alice@example.com'], 'x');
    const res = await release(server, id, { to: ['qa@example.com', 'ceo@real-customer.com'] });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('ceo@real-customer.com is not allowed by --relay-allow (*@example.com,ops@acme.test)');
    expect(receiver.count()).toBe(before);
  });

  it('answers 502 with the relay\'s reply when it refuses a recipient', async () => {
    const id = await send(server, ['alice@example.com'], 'x');
    const res = await release(server, id, { to: ['reject-me@example.com'] });
    expect(res.status).toBe(502);
    expect(res.body.message).toContain('550 5.1.1 no such user here');
  });

  it.each([
    [{}, 422, 'to'],
    [{ to: [] }, 422, 'to'],
    [{ to: ['not an address'] }, 422, 'to.0'],
    [{ to: ['a@example.com'], cc: ['b@example.com'] }, 422, 'cc'],
    [{ to: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) }, 422, 'to'],
  ])('validates the body %j → %i', async (body, status, field) => {
    const id = await send(server, ['alice@example.com'], 'x');
    const res = await release(server, id, body);
    expect(res.status).toBe(status);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('says where releases go, without the credentials', async () => {
    const res = await server.api('/sandbox/relay');
    expect(res.body).toEqual({ status: 200, message: 'Release is set up', data: { configured: true, relay: `127.0.0.1:${receiver.port}`, allow: ['*@example.com', 'ops@acme.test'], auto: [] } });
  });

  it('answers 404 for an unknown email, 405 for GET, 415 without JSON', async () => {
    expect((await release(server, 'ffffffffffffffff', { to: ['a@example.com'] })).status).toBe(404);
    const id = await send(server, ['alice@example.com'], 'x');
    expect((await server.api(`/sandbox/emails/${id}/release`)).status).toBe(405);
    expect((await server.api(`/sandbox/emails/${id}/release`, { method: 'POST', body: '{"to":["a@example.com"]}' })).status).toBe(415);
  });
});

describe('release is opt-in', () => {
  it('answers 409 without --relay, and 403 for everyone while --relay-allow is unset', async () => {
    const bare = await startServer([]);
    const noAllow = await startServer(['--relay', 'smtp://127.0.0.1:9']);
    try {
      const a = await release(bare, await send(bare, ['alice@example.com'], 'x'), { to: ['alice@example.com'] });
      expect(a.status).toBe(409);
      expect(a.body.message).toContain('--relay smtp://user:pass@host:port');
      const b = await release(noAllow, await send(noAllow, ['alice@example.com'], 'x'), { to: ['alice@example.com'] });
      expect(b.status).toBe(403);
      expect(b.body.message).toContain('until --relay-allow');
    } finally {
      await bare.close();
      await noAllow.close();
    }
  });

  it.each([
    [['--relay', 'http://user:s3cret@host'], '--relay must be smtp://[user:pass@]host[:port] or smtps://…'],
    [['--relay-auto', '*@x.test'], '--relay-auto needs --relay and --relay-allow'],
    [['--relay', 'smtp://h', '--relay-allow', 'a[b]@x.test'], '--relay-allow: "a[b]@x.test" only * and ? are supported as wildcards ([ ] { } are not)'],
    [['--relay', 'smtp://h', '--relay-tls', 'maybe'], '--relay-tls must be auto, required or off, got "maybe"'],
  ])('refuses %j at start without printing the password', (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(expect.objectContaining({ name: 'ConfigError', message }));
  });
});

describe('relay over TLS, and auto-release', () => {
  let pems: { cert: string; private: string };
  beforeAll(async () => {
    pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });
  });

  it('uses implicit TLS for smtps:// and STARTTLS when --relay-tls required', async () => {
    const implicit = await startReceiver({ secure: true, key: pems.private, cert: pems.cert });
    const starttls = await startReceiver({ disabledCommands: [], key: pems.private, cert: pems.cert });
    const a = await startServer(['--relay', `smtps://u:relay-pass@127.0.0.1:${implicit.port}`, '--relay-allow', '*', '--relay-insecure']);
    const b = await startServer(['--relay', `smtp://u:relay-pass@127.0.0.1:${starttls.port}`, '--relay-allow', '*', '--relay-insecure', '--relay-tls', 'required']);
    try {
      expect((await release(a, await send(a, ['x@example.com'], 'tls'), { to: ['x@example.com'] })).status).toBe(200);
      expect(await implicit.next()).toMatchObject({ secure: true, user: 'u' });
      expect((await release(b, await send(b, ['x@example.com'], 'tls'), { to: ['x@example.com'] })).status).toBe(200);
      expect(await starttls.next()).toMatchObject({ secure: true, user: 'u' });
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([implicit.close(), starttls.close()]);
    }
  });

  it('refuses to relay to a self-signed certificate unless --relay-insecure', async () => {
    const implicit = await startReceiver({ secure: true, key: pems.private, cert: pems.cert });
    const strict = await startServer(['--relay', `smtps://u:relay-pass@127.0.0.1:${implicit.port}`, '--relay-allow', '*']);
    try {
      const res = await release(strict, await send(strict, ['x@example.com'], 'tls'), { to: ['x@example.com'] });
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/certificate/i);
    } finally {
      await strict.close();
      await implicit.close();
    }
  });

  it('does not auto-release its own released copy again when the relay leads back to it', async () => {
    const port = await freePort();
    const server = await startServer(['--smtp-port', String(port), '--relay', `smtp://127.0.0.1:${port}`, '--relay-allow', '*@loop.test', '--relay-auto', '*@loop.test', '--relay-tls', 'off']);
    try {
      const id = await send(server, ['dev@loop.test'], 'loop');
      // The copy arrives over SMTP with the Resent-* block; after it, nothing more comes.
      const copies = await server.api('/sandbox/emails/wait?to=dev@loop.test&count=2&timeout_ms=10000');
      expect(copies.status).toBe(200);
      const copy = copies.body.data.find((e: { id: string }) => e.id !== id);
      expect(copy.raw).toMatch(/^Resent-Date: /);
      const third = await server.api(`/sandbox/emails/wait?to=dev@loop.test&since=${copy.id}&none=true&timeout_ms=500`);
      expect(third.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('auto-releases each captured email to its recipients matching --relay-auto', async () => {
    const receiver = await startReceiver();
    const server = await startServer(['--relay', `smtp://127.0.0.1:${receiver.port}`, '--relay-allow', '*@auto.test,*@example.com', '--relay-auto', '*@auto.test', '--relay-tls', 'off']);
    try {
      const id = await send(server, ['dev@auto.test', 'someone@example.com', 'other@elsewhere.test'], 'auto');
      const received = await receiver.next();
      expect(received.to).toEqual(['dev@auto.test']);
      await expectResentCopy(server, id, received, ['dev@auto.test']);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
