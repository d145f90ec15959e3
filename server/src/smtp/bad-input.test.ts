import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { dataBlock, deliveredEmail, queuedId, RawSmtp, type Reply } from '../../test/smtp/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const KEY = 'bad-input-key-0001';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function authenticated(port = server.smtpPort): Promise<RawSmtp> {
  const { client } = await RawSmtp.open(port);
  await client.command('EHLO client.test');
  expect((await client.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`)).code).toBe(235);
  return client;
}

/** One message on its own connection; resolves with the DATA reply. */
async function sendOne(message: Buffer | string, to = ['rcpt@example.com'], from = 'sender@acme.test'): Promise<Reply> {
  const client = await authenticated();
  const reply = await client.sendRaw(from, to, message);
  await client.quit();
  return reply;
}

/** After any bad input, a well-formed message still goes through and is delivered. */
async function expectServerStillServes(label: string): Promise<void> {
  const subject = `Still serving after ${label}`;
  const reply = await sendOne(`From: ok@acme.test\r\nTo: ok@example.com\r\nSubject: ${subject}\r\n\r\nfine\r\n`, ['ok@example.com']);
  expect(reply.code).toBe(250);
  expect((await deliveredEmail(server, KEY, queuedId(reply))).subject).toBe(subject);
}

async function listSubjects(): Promise<string[]> {
  const res = await server.api('/v1/emails?limit=100', { key: KEY });
  return res.body.data.data.map((e: { subject: string }) => e.subject);
}

/** What the server receives: the message, ending in CRLF (the line break before the final dot). */
const asReceived = (message: Buffer | string) => {
  const bytes = Buffer.isBuffer(message) ? message : Buffer.from(message, 'utf8');
  return bytes.subarray(-2).toString('latin1') === '\r\n' ? bytes : Buffer.concat([bytes, Buffer.from('\r\n')]);
};

const bigMultipartNesting = (depth: number) => {
  let body = 'Content-Type: text/plain\r\n\r\ndeep inside\r\n';
  for (let i = depth; i > 0; i--) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}--b${i}--\r\n`;
  return `From: deep@acme.test\r\nTo: rcpt@example.com\r\nSubject: Deep nesting\r\n${body}`;
};

/** Bad input that is still a message: stored as well as it can be read. */
const STORED: { name: string; message: Buffer | string; check: (email: any, raw: Buffer) => void }[] = [
  {
    name: 'a multipart without a boundary (read as text)',
    message: 'From: a@acme.test\r\nTo: rcpt@example.com\r\nSubject: No boundary\r\nContent-Type: multipart/mixed\r\n\r\n--xyz\r\nhello\r\n--xyz--\r\n',
    check: (email) => expect(email.metadata.text).toBe('--xyz\nhello\n--xyz--'),
  },
  {
    name: 'an unterminated multipart with broken base64, broken quoted-printable and an unknown charset',
    message: [
      'From: a@acme.test', 'To: rcpt@example.com', 'Subject: Broken parts', 'Content-Type: multipart/alternative; boundary="b1"', '',
      '--b1', 'Content-Type: text/plain; charset=x-no-such-charset', 'Content-Transfer-Encoding: base64', '', '!!!not base64###',
      '--b1', 'Content-Type: text/html', 'Content-Transfer-Encoding: quoted-printable', '', '<p>=ZZbroken qp=', '',
    ].join('\r\n'),
    check: (email) => {
      expect(email.subject).toBe('Broken parts');
      expect(email.metadata.html).toBe('<p>=ZZbroken qp');
    },
  },
  {
    name: 'multiparts nested 200 deep (read to a depth of 32)',
    message: bigMultipartNesting(200),
    check: (email) => expect(email).toMatchObject({ subject: 'Deep nesting', attachments: 0 }),
  },
  {
    name: 'no headers at all (sender from the envelope, recipient as bcc)',
    message: 'just some words\r\nand another line\r\n',
    check: (email, raw) => expect(email).toMatchObject({ subject: '', from_address: 'sender@acme.test', to_addresses: [], size: raw.length, metadata: { bcc: ['rcpt@example.com'], text: 'just some words\nand another line' } }),
  },
  {
    name: 'binary garbage',
    message: Buffer.concat([randomBytes(65_536), Buffer.from([0, 0x0d, 0x2e, 0x0a, 0x2e, 0x2e, 0x0d, 0x0a])]),
    check: (email, raw) => expect(email).toMatchObject({ size: raw.length, from_address: 'sender@acme.test' }),
  },
  {
    name: 'NUL and control characters in a header',
    message: 'From: a@acme.test\r\nTo: rcpt@example.com\r\nSubject: nul\u0000here\u0007\r\n\r\nbody\r\n',
    check: (email) => expect(email.subject).toBe('nul\uFFFDhere\u0007'),
  },
  {
    name: 'lines far over 998 characters',
    message: `From: a@acme.test\r\nTo: rcpt@example.com\r\nSubject: ${'s'.repeat(5000)}\r\n\r\n${'x'.repeat(200_000)}\r\n`,
    check: (email) => {
      expect(email.subject).toBe('s'.repeat(5000));
      expect(email.metadata.text).toBe('x'.repeat(200_000));
    },
  },
  {
    name: 'bare LF line endings',
    message: 'From: Bare <bare@acme.test>\nTo: rcpt@example.com\nSubject: Bare LF\n\nline one\nline two\n',
    check: (email) => expect(email).toMatchObject({ subject: 'Bare LF', from_address: 'bare@acme.test', to_addresses: ['rcpt@example.com'], metadata: { from: 'Bare <bare@acme.test>', text: 'line one\nline two\n' } }),
  },
  {
    name: 'headers without a body',
    message: 'From: a@acme.test\r\nTo: rcpt@example.com\r\nSubject: Only headers\r\n',
    check: (email) => expect(email).toMatchObject({ subject: 'Only headers', snippet: '', metadata: { text: '' } }),
  },
  {
    name: 'raw UTF-8 and invalid UTF-8 in headers, and garbage encoded words',
    message: Buffer.concat([
      Buffer.from('From: =?bogus?Q?J=FCrgen?= <j@acme.test>\r\nTo: rcpt@example.com\r\nSubject: Grüße direkt =?utf-8?B?!!!?=\r\nX-Latin1: ', 'utf8'),
      Buffer.from([0xfc, 0xe9]),
      Buffer.from('\r\n\r\nbody\r\n'),
    ]),
    check: (email) => expect(email).toMatchObject({ from_address: 'j@acme.test', subject: 'Grüße direkt' }),
  },
  {
    name: '10 000 header fields and one 1 MB header line',
    message: `From: a@acme.test\r\nTo: rcpt@example.com\r\nSubject: Many headers\r\n${'X-Filler: yes\r\n'.repeat(10_000)}X-Huge: ${'h'.repeat(1_000_000)}\r\n\r\nbody\r\n`,
    check: (email) => expect(email).toMatchObject({ subject: 'Many headers', metadata: { text: 'body' } }),
  },
];

describe('bad input over SMTP', () => {
  it.each(STORED)('stores $name, and keeps serving', async ({ name, message, check }) => {
    const reply = await sendOne(message);
    expect(reply.code).toBe(250);
    check(await deliveredEmail(server, KEY, queuedId(reply)), asReceived(message));
    await expectServerStillServes(name);
  });

  it('refuses a message over 25 MiB with 552, stores nothing, and the connection goes on', async () => {
    const client = await authenticated();
    expect((await client.command('MAIL FROM:<big@acme.test>')).code).toBe(250);
    expect((await client.command('RCPT TO:<rcpt@example.com>')).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    const line = 'A'.repeat(998) + '\r\n';
    client.write(dataBlock(`Subject: Oversized\r\n\r\n${line.repeat(Math.ceil(26_300_000 / line.length))}`));
    const reply = await client.reply();
    expect(reply.code).toBe(552);
    const next = await client.sendRaw('ok@acme.test', ['ok@example.com'], 'Subject: After oversized\r\n\r\nfine\r\n');
    expect(next.code).toBe(250);
    await client.quit();
    await deliveredEmail(server, KEY, queuedId(next));
    expect(await listSubjects()).not.toContain('Oversized');
  });

  it('stores nothing from a client that disconnects in the middle of DATA', async () => {
    for (const size of [100, 5_000_000]) {
      const client = await authenticated();
      expect((await client.command('MAIL FROM:<gone@acme.test>')).code).toBe(250);
      expect((await client.command('RCPT TO:<rcpt@example.com>')).code).toBe(250);
      expect((await client.command('DATA')).code).toBe(354);
      await client.flush(`From: gone@acme.test\r\nSubject: Half a message ${size}\r\n\r\n${'z'.repeat(size)}`);
      client.destroy();
      await client.closed;
      await expectServerStillServes(`a disconnect after ${size} bytes`);
    }
    expect((await listSubjects()).filter((s) => s.startsWith('Half a message'))).toEqual([]);
  });

  it('closes a connection that sends only garbage commands, and keeps serving', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await client.command(randomBytes(40).toString('latin1').replace(/[\r\n]/g, 'x'))).code);
    expect(codes.slice(0, 9).every((c) => c === 500)).toBe(true);
    expect(codes[9]).toBe(421);
    await client.closed;
    await expectServerStillServes('garbage commands');
  });

  it('refuses a command line over 16 KB with 421, and keeps serving', async () => {
    const { client } = await RawSmtp.open(server.smtpPort);
    const reply = await client.command(`EHLO ${'x'.repeat(100_000)}`);
    expect(reply.code).toBe(421);
    await client.closed;
    await expectServerStillServes('an over-long command');
  });
});
