import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { dataBlock, deliveredEmail, queuedId, RawSmtp } from '../../test/smtp/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const KEY = 'commands-key-0001';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const EHLO: Step = ['EHLO client.test', 250];

type Step = [command: string, code: number];

/** Reply codes by command sequence, each row on a fresh connection (Mailpit's smtpd_test.go style). */
const TABLE: { name: string; steps: Step[] }[] = [
  { name: 'HELO is accepted', steps: [['HELO client.test', 250]] },
  { name: 'EHLO without a host name', steps: [['EHLO', 501]] },
  { name: 'MAIL before EHLO', steps: [['MAIL FROM:<app@acme.test>', 503]] },
  { name: 'RCPT before MAIL', steps: [EHLO, ['RCPT TO:<a@example.com>', 503]] },
  { name: 'DATA before MAIL', steps: [EHLO, ['DATA', 503]] },
  { name: 'DATA without RCPT', steps: [EHLO, ['MAIL FROM:<app@acme.test>', 250], ['DATA', 503]] },
  { name: 'a second MAIL inside a transaction', steps: [EHLO, ['MAIL FROM:<app@acme.test>', 250], ['MAIL FROM:<app@acme.test>', 503]] },
  { name: 'MAIL FROM with SIZE over the limit', steps: [EHLO, ['MAIL FROM:<app@acme.test> SIZE=26214401', 552]] },
  { name: 'MAIL FROM with SIZE at the limit', steps: [EHLO, ['MAIL FROM:<app@acme.test> SIZE=26214400', 250]] },
  { name: 'MAIL FROM with BODY=8BITMIME', steps: [EHLO, ['MAIL FROM:<app@acme.test> BODY=8BITMIME', 250]] },
  { name: 'null sender', steps: [EHLO, ['MAIL FROM:<>', 250], ['RCPT TO:<a@example.com>', 250]] },
  { name: 'bad sender syntax', steps: [EHLO, ['MAIL FROM:<not an address>', 501]] },
  { name: 'bad recipient syntax', steps: [EHLO, ['MAIL FROM:<app@acme.test>', 250], ['RCPT TO:<@@>', 501]] },
  { name: 'SMTPUTF8 addresses', steps: [EHLO, ['MAIL FROM:<josé@acme.test> SMTPUTF8', 250], ['RCPT TO:<ünï@example.com>', 250]] },
  { name: 'RSET ends the transaction', steps: [EHLO, ['MAIL FROM:<app@acme.test>', 250], ['RSET', 250], ['RCPT TO:<a@example.com>', 503]] },
  { name: 'AUTH PLAIN with an API key', steps: [EHLO, [`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`, 235], ['MAIL FROM:<app@acme.test>', 250]] },
  { name: 'AUTH PLAIN with a password that is no key', steps: [EHLO, [`AUTH PLAIN ${b64('\0apikey\0not a key')}`, 535]] },
  { name: 'AUTH PLAIN with an empty password', steps: [EHLO, [`AUTH PLAIN ${b64('\0apikey\0')}`, 535]] },
  { name: 'AUTH LOGIN with an API key', steps: [EHLO, ['AUTH LOGIN', 334], [b64('apikey'), 334], [b64(KEY), 235]] },
  { name: 'AUTH after AUTH', steps: [EHLO, [`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`, 235], [`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`, 503]] },
  { name: 'AUTH with an unoffered mechanism', steps: [EHLO, ['AUTH XOAUTH2 dXNlcg==', 504]] },
  { name: 'AUTH CRAM-MD5 answers a base64 challenge', steps: [EHLO, ['AUTH CRAM-MD5', 334]] },
  { name: 'STARTTLS when TLS is off', steps: [EHLO, ['STARTTLS', 500]] },
  { name: 'an unknown command', steps: [EHLO, ['FROBNICATE', 500]] },
  { name: 'NOOP', steps: [EHLO, ['NOOP', 250]] },
  { name: 'VRFY does not disclose', steps: [EHLO, ['VRFY alice', 252]] },
  { name: 'QUIT', steps: [EHLO, ['QUIT', 221]] },
  {
    name: '50 recipients, then 452 for the 51st (a repeated one is not counted)',
    steps: [
      EHLO,
      ['MAIL FROM:<app@acme.test>', 250],
      ...Array.from({ length: 50 }, (_, i): Step => [`RCPT TO:<r${i}@example.com>`, 250]),
      ['RCPT TO:<r0@example.com>', 250],
      ['RCPT TO:<r50@example.com>', 452],
    ],
  },
];

describe('SMTP reply codes', () => {
  it('greets with 220 and lists the extensions on EHLO', async () => {
    const { client, greeting } = await RawSmtp.open(server.smtpPort);
    expect(greeting.code).toBe(220);
    expect(greeting.text).toMatch(/ESMTP/);
    const ehlo = await client.command('EHLO client.test');
    expect(ehlo.code).toBe(250);
    const features = ehlo.lines.slice(1).map((l) => l.slice(4));
    expect(features).toEqual(expect.arrayContaining(['PIPELINING', '8BITMIME', 'SMTPUTF8', 'AUTH PLAIN LOGIN CRAM-MD5', 'SIZE 26214400']));
    expect(features).not.toContain('STARTTLS');
    await client.quit();
  });

  it.each(TABLE)('$name', async ({ steps }) => {
    const { client } = await RawSmtp.open(server.smtpPort);
    const got: Step[] = [];
    for (const [command] of steps) got.push([command, (await client.command(command)).code]);
    expect(got).toEqual(steps);
    client.destroy();
  });

  it('answers pipelined commands in order and queues the message', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    expect((await client.command('EHLO client.test')).code).toBe(250);
    client.write(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}\r\nMAIL FROM:<app@acme.test>\r\nRCPT TO:<p1@example.com>\r\nRCPT TO:<nope>\r\nRCPT TO:<p2@example.com>\r\nDATA\r\n`);
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await client.reply()).code);
    expect(codes).toEqual([235, 250, 250, 501, 250, 354]);

    client.write(Buffer.concat([dataBlock('From: app@acme.test\r\nTo: p1@example.com\r\nSubject: Pipelined\r\n\r\nbody\r\n'), Buffer.from('NOOP\r\nQUIT\r\n')]));
    const data = await client.reply();
    expect(data.code).toBe(250);
    expect(data.text).toMatch(/^2\.0\.0 Ok: queued as [0-9a-f]{16}$/);
    expect((await client.reply()).code).toBe(250);
    expect((await client.reply()).code).toBe(221);
    await client.closed;

    const email = await deliveredEmail(server, KEY, queuedId(data));
    expect(email).toMatchObject({ subject: 'Pipelined', to_addresses: ['p1@example.com'], metadata: { bcc: ['p2@example.com'] }, credits_used: 2 });
  });

  it('takes several messages on one connection', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    await client.command('EHLO client.test');
    await client.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const reply = await client.sendRaw('app@acme.test', ['multi@example.com'], `Subject: Same connection ${i}\r\n\r\nmessage ${i}\r\n`);
      expect(reply.code).toBe(250);
      ids.push(queuedId(reply));
    }
    await client.quit();
    expect(new Set(ids).size).toBe(3);
    for (const [i, id] of ids.entries()) expect((await deliveredEmail(server, KEY, id)).subject).toBe(`Same connection ${i}`);
  });
});
