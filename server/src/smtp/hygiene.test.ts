import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type TestServer } from '../../test/harness.js';
import { deliveredEmail, queuedId, RawSmtp, type Reply } from '../../test/smtp/client.js';

const KEY = 'hygiene-key-0001';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

let server: TestServer;
beforeAll(async () => {
  server = await startServer(['--smtp-timeout-ms', '300', '--smtp-data-timeout-ms', '600', '--smtp-max-clients', '3']);
});
afterAll(async () => {
  await server?.close();
});

/** Replies until the server closes the connection. */
async function repliesUntilClosed(client: RawSmtp): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (;;) {
    try {
      replies.push(await client.reply());
    } catch {
      return replies;
    }
  }
}

describe('connection hygiene', () => {
  it('closes an idle connection with 421', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    const replies = await repliesUntilClosed(client);
    expect(replies.map((r) => r.code)).toEqual([421]);
    expect(replies[0].text).toMatch(/timeout/i);
  });

  it('cuts a client that trickles its message slower than the data deadline, storing nothing', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    await client.command('EHLO client.test');
    await client.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`);
    await client.command('MAIL FROM:<slow@acme.test>');
    await client.command('RCPT TO:<rcpt@example.com>');
    expect((await client.command('DATA')).code).toBe(354);
    client.write('Subject: Trickled\r\n\r\n');
    // One byte every 100 ms keeps the 300 ms idle timeout from firing; only the deadline can end it.
    const trickle = setInterval(() => client.write('x'), 100);
    const replies = await repliesUntilClosed(client).finally(() => clearInterval(trickle));
    expect(replies.map((r) => r.code)).toEqual([421]);
    expect(replies[0].text).toMatch(/did not arrive within 600 ms/);
    const list = await server.api('/v1/emails?search=Trickled', { key: KEY });
    expect(list.body.data.data).toEqual([]);
  });

  it('answers 421 beyond the maximum number of clients, and takes new ones once others leave', async () => {
    const open = await Promise.all([0, 1, 2].map(() => RawSmtp.open(server.smtpPort)));
    for (const { greeting } of open) expect(greeting.code).toBe(220);
    // Keep them busy so the idle timeout does not free a slot during the check.
    const keepAlive = setInterval(() => open.forEach(({ client }) => client.write('NOOP\r\n')), 100);
    try {
      const extra = await RawSmtp.open(server.smtpPort);
      expect(extra.greeting.code).toBe(421);
      expect(extra.greeting.text).toMatch(/too many/i);
      await extra.client.closed;
    } finally {
      clearInterval(keepAlive);
    }
    for (const { client } of open) client.destroy();
    const next = await eventually(async () => {
      const attempt = await RawSmtp.open(server.smtpPort);
      if (attempt.greeting.code === 220) return attempt.client;
      attempt.client.destroy();
      return undefined;
    }, 5000, 'a free client slot');
    const reply = await (async () => {
      await next.command('EHLO client.test');
      await next.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`);
      return next.sendRaw('ok@acme.test', ['ok@example.com'], 'Subject: After the crowd\r\n\r\nfine\r\n');
    })();
    expect(reply.code).toBe(250);
    await next.quit();
    expect((await deliveredEmail(server, KEY, queuedId(reply))).subject).toBe('After the crowd');
  });
});

describe('shutdown', () => {
  it('tells idle clients 421 and stops without waiting for them', async () => {
    const own = await startServer(['--smtp-timeout-ms', '60000']);
    const { client } = await RawSmtp.open(own.smtpPort);
    await client.command('EHLO client.test');
    const closing = own.close();
    const replies = await repliesUntilClosed(client);
    expect(replies.map((r) => r.code)).toEqual([421]);
    await closing;
  });
});
