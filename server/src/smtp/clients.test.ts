import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type TestServer } from '../../test/harness.js';
import { deliveredEmail, listedEmail, queuedId, sendWithNodemailer, sendWithPython } from '../../test/smtp/client.js';

// Configured keys, so that a wrong key is refused and team_smtp (unauthenticated mail) is readable through /v1.
const ALPHA = 'key-alpha-0001';
const BETA = 'key-beta-0002';
const ANON = 'key-smtp-0003';
const KEYS = `team_alpha:${ALPHA},team_beta:${BETA},team_smtp:${ANON}`;

// A 1×1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let server: TestServer;
beforeAll(async () => {
  server = await startServer(['--keys', KEYS]);
});
afterAll(async () => {
  await server?.close();
});

const auth = (pass: string) => ({ auth: { user: 'apikey', pass } });

/** Every recipient has a delivered log entry with a 250 from its domain's MX. */
function expectDeliveredLogs(email: any, recipients: string[]) {
  for (const recipient of recipients) {
    const entries = email.logs.filter((l: any) => l.recipient === recipient);
    expect(entries.map((l: any) => l.status), recipient).toEqual(['processing', 'queued', 'delivered']);
    const delivered = entries.at(-1);
    expect(delivered).toMatchObject({ code: '250', mx_hostname: `mx.${recipient.split('@')[1].toLowerCase()}`, email_id: email.id });
  }
}

describe('nodemailer', () => {
  it('delivers a text message with to, cc, bcc and reply-to into the key\'s team', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: 'Acme App <app@acme.test>',
      to: 'Alice Liddell <alice@example.com>',
      cc: 'carol@example.com',
      bcc: 'bob@example.org',
      replyTo: 'support@acme.test',
      subject: 'Welcome aboard',
      text: 'Hello Alice,\nyour code is 482913.\n\n— Acme',
    }, auth(ALPHA));
    expect(sent.info.accepted).toEqual(['alice@example.com', 'carol@example.com', 'bob@example.org']);
    const id = queuedId(sent.info.response);
    expect(sent.info.response).toBe(`250 2.0.0 Ok: queued as ${id}`);

    const email = await deliveredEmail(server, ALPHA, id);
    expect(email).toMatchObject({
      id,
      message_id: sent.messageId,
      from_address: 'app@acme.test',
      to_addresses: ['alice@example.com'],
      subject: 'Welcome aboard',
      size: sent.size,
      attachments: 0,
      inline: 0,
      api_key_id: 1,
      team_id: 'team_alpha',
      snippet: 'Hello Alice, your code is 482913. — Acme',
      credits_used: 3,
      status: 'delivered',
      metadata: {
        from: 'Acme App <app@acme.test>',
        to: ['Alice Liddell <alice@example.com>'],
        cc: ['carol@example.com'],
        bcc: ['bob@example.org'],
        reply_to: 'support@acme.test',
        text: 'Hello Alice,\nyour code is 482913.\n\n— Acme',
        html: '',
      },
    });
    expect(email.delivered_at).not.toBeNull();
    expectDeliveredLogs(email, ['alice@example.com', 'carol@example.com', 'bob@example.org']);

    // Another team does not see it.
    expect((await server.api(`/v1/emails/${id}`, { key: BETA })).status).toBe(404);
  });

  it('runs the same delivery simulation as the API: X-Sendbox-Outcome and plus-tags', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: 'app@acme.test',
      to: ['ok@example.com', 'nobody+bounced@example.com'],
      subject: 'Simulated outcomes',
      text: 'x',
    }, auth(ALPHA));
    const id = queuedId(sent.info.response);
    const bounced = await eventually(async () => {
      const res = await server.api(`/v1/emails/${id}`, { key: ALPHA });
      return res.body.data?.status === 'bounced' ? res.body.data : undefined;
    }, 10_000, 'the email bounced');
    expect(bounced.logs.filter((l: any) => l.recipient === 'nobody+bounced@example.com').at(-1)).toMatchObject({ status: 'bounced', code: expect.stringMatching(/^5/) });
    expect(bounced.logs.filter((l: any) => l.recipient === 'ok@example.com').at(-1)).toMatchObject({ status: 'delivered', code: '250' });

    const viaHeader = await sendWithNodemailer(server.smtpPort, { from: 'app@acme.test', to: 'fine@example.com', subject: 'Header outcome', text: 'x', headers: { 'X-Sendbox-Outcome': 'failed' } }, auth(ALPHA));
    await eventually(async () => (await server.api(`/v1/emails/${queuedId(viaHeader.info.response)}`, { key: ALPHA })).body.data?.status === 'failed', 10_000, 'the email failed');
  });

  it('counts an inline cid image as inline and keeps the HTML', async () => {
    const html = '<p>Hi <b>Dana</b></p><img src="cid:logo@acme.test" alt="Acme">';
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: 'news@acme.test',
      to: 'dana@example.com',
      subject: 'Inline image',
      text: 'Hi Dana',
      html,
      attachments: [{ filename: 'logo.png', content: PNG, cid: 'logo@acme.test' }],
    }, auth(ALPHA));
    const email = await deliveredEmail(server, ALPHA, queuedId(sent.info.response));
    expect(email).toMatchObject({ inline: 1, attachments: 0, size: sent.size, snippet: 'Hi Dana', metadata: { text: 'Hi Dana', html } });
  });

  it('counts three attachments, none decoded into the text', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: 'reports@acme.test',
      to: 'erin@example.com',
      subject: 'Three files',
      text: 'Reports attached.',
      attachments: [
        { filename: 'notes.txt', content: 'plain text attachment\n' },
        { filename: 'data.csv', content: 'a,b\n1,2\n' },
        { filename: 'blob.bin', content: randomBytes(50_000) },
      ],
    }, auth(ALPHA));
    const email = await deliveredEmail(server, ALPHA, queuedId(sent.info.response));
    expect(email).toMatchObject({ attachments: 3, inline: 0, size: sent.size, metadata: { text: 'Reports attached.', html: '' } });
  });

  it('decodes a UTF-8 subject, display names and an SMTPUTF8 address', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: '"Zoë Ünïcode" <zoe@acme.test>',
      to: '"山田 太郎" <taro@example.jp>',
      cc: 'josé@example.com',
      subject: 'Ünïcödé ✓ 日本語 — grüße',
      text: 'Grüße 👋 from Zoë',
    }, auth(ALPHA));
    const email = await deliveredEmail(server, ALPHA, queuedId(sent.info.response));
    expect(email).toMatchObject({
      from_address: 'zoe@acme.test',
      subject: 'Ünïcödé ✓ 日本語 — grüße',
      to_addresses: ['taro@example.jp'],
      snippet: 'Grüße 👋 from Zoë',
      metadata: { from: 'Zoë Ünïcode <zoe@acme.test>', to: ['山田 太郎 <taro@example.jp>'], cc: ['josé@example.com'], text: 'Grüße 👋 from Zoë' },
    });
  });

  it('takes 50 recipients in one message; a 51st is refused with 452 and not recorded', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `user${i}@example.com`);
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'bulk@acme.test', to: fifty, subject: 'Fifty', text: 'Hi all' }, auth(ALPHA));
    const email = await deliveredEmail(server, ALPHA, queuedId(sent.info.response));
    expect(email.to_addresses).toEqual(fifty);
    expect(email.credits_used).toBe(50);
    expectDeliveredLogs(email, fifty);

    const over = await sendWithNodemailer(server.smtpPort, { from: 'bulk@acme.test', to: [...fifty, 'one-too-many@example.com'], subject: 'Fifty-one', text: 'Hi all' }, auth(ALPHA));
    expect(over.info.rejected).toEqual(['one-too-many@example.com']);
    expect(over.info.rejectedErrors?.[0].responseCode).toBe(452);
    const overEmail = await deliveredEmail(server, ALPHA, queuedId(over.info.response));
    expect(overEmail.to_addresses).toEqual(fifty);
    expect(overEmail.credits_used).toBe(50);
  });

  it('stores a 20 MB attachment sent as 7bit text', async () => {
    const line = 'id,name,amount,comment-padding-to-make-a-long-enough-line-of-csv-data\r\n';
    const csv = line.repeat(Math.ceil(20_000_000 / line.length));
    const sent = await sendWithNodemailer(server.smtpPort, {
      from: 'export@acme.test',
      to: 'finance@example.com',
      subject: 'Big export',
      text: 'The export is attached.',
      attachments: [{ filename: 'export.csv', content: csv, contentType: 'text/csv', contentTransferEncoding: '7bit' }],
    }, auth(ALPHA));
    expect(sent.size).toBeGreaterThan(20_000_000);
    // Wait on the list (no bodies), then read the 20 MB record once.
    const listed = await eventually(async () => {
      const entry = await listedEmail(server, ALPHA, 'Big export');
      return entry.status === 'delivered' ? entry : undefined;
    }, 30_000, 'the big export delivered');
    expect(listed.id).toBe(queuedId(sent.info.response));
    const email = (await server.api(`/v1/emails/${listed.id}`, { key: ALPHA })).body.data;
    expect(email).toMatchObject({ size: sent.size, attachments: 1, inline: 0, status: 'delivered', metadata: { text: 'The export is attached.' } });
  }, 120_000);

  it('refuses a 20 MB binary attachment (27 MB as base64) with 552 and stores nothing', async () => {
    const attempt = sendWithNodemailer(server.smtpPort, {
      from: 'export@acme.test',
      to: 'finance@example.com',
      subject: 'Too big binary',
      text: 'attached',
      attachments: [{ filename: 'big.bin', content: randomBytes(20_000_000) }],
    }, auth(ALPHA));
    await expect(attempt).rejects.toMatchObject({ responseCode: 552 });
    const list = await server.api('/v1/emails?search=Too%20big%20binary', { key: ALPHA });
    expect(list.body.data.data).toEqual([]);
  }, 120_000);
});

describe('Python smtplib', () => {
  it('delivers with AUTH into the key\'s team, text and HTML alternative', async () => {
    const result = await sendWithPython({
      port: server.smtpPort,
      password: BETA,
      from: 'Py Sender <py@acme.test>',
      to: ['frank@example.com', 'Grace <grace@example.com>'],
      subject: 'From Python',
      text: 'Plain part from Python',
      html: '<p>HTML part from <i>Python</i></p>',
      headers: { 'X-Sendbox-Outcome': 'delivered' },
    });
    expect(result.features).toEqual(expect.arrayContaining(['auth', 'pipelining', '8bitmime', 'smtputf8', 'size']));
    expect(result.features).not.toContain('starttls');
    expect(result.auth?.[0]).toBe(235);
    expect(result.data?.[0]).toBe(250);
    const id = queuedId(result.data![1]);
    const email = await deliveredEmail(server, BETA, id);
    expect(email).toMatchObject({
      team_id: 'team_beta',
      api_key_id: 2,
      message_id: result.message_id.replace(/^<|>$/g, ''),
      from_address: 'py@acme.test',
      to_addresses: ['frank@example.com', 'grace@example.com'],
      subject: 'From Python',
      attachments: 0,
      inline: 0,
      credits_used: 2,
      metadata: { from: 'Py Sender <py@acme.test>', to: ['frank@example.com', 'Grace <grace@example.com>'], cc: null, bcc: null, text: 'Plain part from Python\n', html: '<p>HTML part from <i>Python</i></p>\n' },
    });
    expectDeliveredLogs(email, ['frank@example.com', 'grace@example.com']);
  });

  it('delivers without AUTH into team_smtp with api_key_id 0', async () => {
    const result = await sendWithPython({ port: server.smtpPort, from: 'anon@acme.test', to: ['henry@example.com'], subject: 'Anonymous Python', text: 'no auth' });
    expect(result.data?.[0]).toBe(250);
    const listed = await listedEmail(server, ANON, 'Anonymous Python');
    expect(listed).toMatchObject({ team_id: 'team_smtp', api_key_id: 0, from_address: 'anon@acme.test' });
    const email = await deliveredEmail(server, ANON, listed.id);
    expectDeliveredLogs(email, ['henry@example.com']);
    // The authenticated teams do not see it.
    expect((await server.api(`/v1/emails/${listed.id}`, { key: ALPHA })).status).toBe(404);
  });

  it('answers 535 to a key that is not configured, and nothing is sent', async () => {
    const result = await sendWithPython({ port: server.smtpPort, password: 'not-a-configured-key', from: 'x@acme.test', to: ['ivy@example.com'], subject: 'Wrong key', text: 'x' });
    expect(result.auth?.[0]).toBe(535);
    expect(result.data).toBeUndefined();
  });
});

describe('STARTTLS', () => {
  let tls: TestServer;
  beforeAll(async () => {
    tls = await startServer(['--smtp-tls', '--keys', KEYS]);
  });
  afterAll(async () => {
    await tls?.close();
  });

  it('upgrades with the generated certificate kept beside the database (Python verifies it)', async () => {
    const { generatedCertPaths } = await import('./tls.js');
    const cafile = generatedCertPaths(tls.dbPath).cert;
    const result = await sendWithPython({ port: tls.smtpPort, starttls: true, cafile, password: ALPHA, from: 'secure@acme.test', to: ['jack@example.com'], subject: 'Over TLS', text: 'encrypted' });
    expect(result.features).toContain('starttls');
    expect(result.starttls).toBe(220);
    expect(result.features_after_tls).not.toContain('starttls');
    expect(result.cipher).toBeTruthy();
    expect(result.auth?.[0]).toBe(235);
    const email = await deliveredEmail(tls, ALPHA, queuedId(result.data![1]));
    expect(email).toMatchObject({ team_id: 'team_alpha', subject: 'Over TLS', metadata: { text: 'encrypted' } });
  });

  it('keeps the generated certificate across restarts, and serves --smtp-cert/--smtp-key instead when given', async () => {
    const { generatedCertPaths } = await import('./tls.js');
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-tls-'));
    try {
      const first = await startServer(['--smtp-tls'], {}, dir);
      await first.close();
      const paths = generatedCertPaths(join(dir, 'sendbox.db'));
      const cert = readFileSync(paths.cert, 'utf8');
      const again = await startServer(['--smtp-tls'], {}, dir);
      await again.close();
      expect(readFileSync(paths.cert, 'utf8')).toBe(cert);

      const own = await startServer(['--smtp-cert', paths.cert, '--smtp-key', paths.key]);
      try {
        const result = await sendWithPython({ port: own.smtpPort, starttls: true, cafile: paths.cert, password: 'own-cert-key', from: 'a@acme.test', to: ['b@example.com'], subject: 'Own cert', text: 'x' });
        expect(result.data?.[0]).toBe(250);
      } finally {
        await own.close();
      }
      await expect(startServer(['--smtp-cert', join(dir, 'missing.pem'), '--smtp-key', paths.key])).rejects.toThrow(/could not use --smtp-cert .*missing\.pem/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('nodemailer upgrades opportunistically and authenticates', async () => {
    const sent = await sendWithNodemailer(tls.smtpPort, { from: 'secure@acme.test', to: 'kate@example.com', subject: 'nodemailer TLS', text: 'hello' }, { ...auth(BETA), requireTLS: true });
    const email = await deliveredEmail(tls, BETA, queuedId(sent.info.response));
    expect(email).toMatchObject({ team_id: 'team_beta', size: sent.size });
  });
});

describe('--smtp-auth required', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startServer(['--smtp-auth', 'required']);
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('answers 530 at MAIL FROM without AUTH, accepts with an open-mode key', async () => {
    const refused = await sendWithPython({ port: strict.smtpPort, from: 'x@acme.test', to: ['leo@example.com'], subject: 'No auth', text: 'x' });
    expect(refused.mail?.[0]).toBe(530);

    const key = 'open-mode-key-4242';
    const result = await sendWithPython({ port: strict.smtpPort, password: key, from: 'x@acme.test', to: ['leo@example.com'], subject: 'With auth', text: 'x' });
    expect(result.data?.[0]).toBe(250);
    const email = await deliveredEmail(strict, key, queuedId(result.data![1]));
    expect(email).toMatchObject({ api_key_id: 1, subject: 'With auth' });
    expect(email.team_id).toMatch(/^team_[0-9a-f]{12}$/);
  });
});
