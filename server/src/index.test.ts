import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { startSendbox, SendboxStartError } from './index.js';

// What keeps a process alive (sockets, servers, timers, pending fs work), by kind.
const activeResources = () => process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap').sort();
// Closed handles leave the list once libuv has run their close callbacks: give it a bounded
// number of event-loop turns (not a time) to get back to where it was.
async function settledResources(expected: string[]): Promise<string[]> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (JSON.stringify(activeResources()) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return activeResources();
}

describe('startSendbox', () => {
  it('runs two instances in one process, each serving its own HTTP, SMTP and database', async () => {
    const a = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
    const b = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
    try {
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(a.url).not.toBe(b.url);
      expect(a.smtp.port).not.toBe(b.smtp.port);

      const sent = await a.client('key-a').send({ to: 'jane@example.com', subject: 'through the API', body: 'hello' });
      await createTransport({ host: b.smtp.host, port: b.smtp.port, secure: false, ignoreTLS: true }).sendMail({ from: 'app@example.com', to: 'joe@example.com', subject: 'through SMTP', text: 'hi' });

      expect((await a.client().waitForEmail({ subject: 'through the API' })).id).toBe(sent.id);
      expect((await b.client().waitForEmail({ subject: 'through SMTP' })).to_addresses).toEqual(['joe@example.com']);
      // Each instance has its own database.
      expect((await a.client().emails.list()).pagination.total_records).toBe(1);
      expect((await b.client().emails.list()).data.map((e) => e.subject)).toEqual(['through SMTP']);
      const inbox = await fetch(`${a.url}/`, { headers: { Accept: 'text/html' } });
      expect(inbox.status).toBe(200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('gives each key its own mailbox through client(apiKey)', async () => {
    const sb = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
    try {
      const one = sb.client('worker-1');
      const two = sb.client('worker-2');
      await one.send({ to: 'a@example.com', subject: 'one', body: 'x' });
      await two.send({ to: 'a@example.com', subject: 'two', body: 'x' });
      await one.waitForEmail({ subject: 'one' });
      await two.waitForEmail({ subject: 'two' });
      expect((await one.emails.list()).data.map((e) => e.subject)).toEqual(['one']);
      expect((await two.emails.list()).data.map((e) => e.subject)).toEqual(['two']);
      expect((await sb.client().emails.list()).pagination.total_records).toBe(2);
    } finally {
      await sb.stop();
    }
  });

  it('leaves no socket, server, timer or file handle behind after stop()', async () => {
    const before = activeResources();
    const sb = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
    await sb.client('k').send({ to: 'a@example.com', subject: 'leak check', body: 'x' });
    await sb.client().waitForEmail({ subject: 'leak check' });
    // An idle keep-alive connection is open when it stops.
    expect((await fetch(`${sb.url}/sandbox/health`)).status).toBe(200);
    await sb.stop();
    expect(await settledResources(before)).toEqual(before);
  });

  it('rejects bad options with the CLI message and a typed error, without exiting', async () => {
    const failure = (options: Record<string, unknown>) => startSendbox(options as never).then(() => null, (error: unknown) => error);
    const wrongType = await failure({ smtpPort: '25' });
    expect(wrongType).toBeInstanceOf(SendboxStartError);
    expect(wrongType).toMatchObject({ code: 'INVALID_OPTION', option: 'smtpPort', message: '--smtp-port (smtpPort) must be a whole number, got "25"' });
    expect(await failure({ port: 70000 })).toMatchObject({ code: 'INVALID_OPTION', option: 'port', message: '--port must be between 0 and 65535, got 70000' });
    expect(await failure({ smtpAuth: 'sometimes' })).toMatchObject({ code: 'INVALID_OPTION', option: 'smtpAuth' });
    expect(await failure({ chaos: 'bounced=2' })).toMatchObject({ code: 'INVALID_OPTION', option: 'chaos' });
    expect(await failure({ keys: 'no-colon' })).toMatchObject({ code: 'INVALID_OPTION', option: 'keys' });
    expect(await failure({ smtpPorts: 1 })).toMatchObject({ code: 'INVALID_OPTION', option: 'smtpPorts', message: expect.stringContaining('unknown option "smtpPorts"') });
    // A regular file where the database's folder should be.
    const file = join(mkdtempSync(join(tmpdir(), 'sendbox-start-')), 'not-a-folder');
    writeFileSync(file, '');
    expect(await failure({ db: join(file, 'sendbox.db'), port: 0, smtpPort: 0 })).toMatchObject({ code: 'DATABASE', option: 'db' });
  });

  it('rejects a port in use with PORT_IN_USE naming the option, and frees what it had opened', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const before = activeResources();
    try {
      const error = await startSendbox({ port: 0, smtpPort: port, db: ':memory:' }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(SendboxStartError);
      expect(error).toMatchObject({ code: 'PORT_IN_USE', option: 'smtpPort', message: expect.stringContaining(`port ${port} on 127.0.0.1 is already in use: choose another with --smtp-port or SENDBOX_SMTP_PORT`) });
      // Nothing new is left open (the previous test's sockets may still be closing).
      const after = await settledResources(before);
      for (const kind of new Set(after)) expect(after.filter((k) => k === kind).length).toBeLessThanOrEqual(before.filter((k) => k === kind).length);
    } finally {
      blocker.close();
    }
  });

  it('tells where SMTPS listens when smtpsPort is set, and mail sent there arrives', async () => {
    const sb = await startSendbox({ port: 0, smtpPort: 0, smtpsPort: 0, db: ':memory:', delayMs: 0 });
    try {
      expect(sb.smtps).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
      expect(sb.smtps!.port).not.toBe(sb.smtp.port);
      // The certificate is the generated self-signed one: this test trusts it as a local client would.
      await createTransport({ host: sb.smtps!.host, port: sb.smtps!.port, secure: true, tls: { rejectUnauthorized: false } }).sendMail({ from: 'app@example.com', to: 'tls@example.com', subject: 'over smtps', text: 'hi' });
      expect((await sb.client().waitForEmail({ subject: 'over smtps' })).to_addresses).toEqual(['tls@example.com']);
    } finally {
      await sb.stop();
    }
    const plain = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:' });
    expect(plain.smtps).toBeNull();
    await plain.stop();
  });
});
