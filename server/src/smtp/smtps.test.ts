import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { deliveredEmail, queuedId, sendWithNodemailer, sendWithPython } from '../../test/smtp/client.js';
import { generatedCertPaths } from './tls.js';
import { openTeamId } from '../auth/keys.js';

const run = promisify(execFile);
const ALPHA = 'key-alpha-0001';
const BETA = 'key-beta-0002';
const KEYS = `team_alpha:${ALPHA},team_beta:${BETA}`;

/** swaks, a third client: its whole transcript, and whether it exited 0. */
async function swaks(args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout, stderr } = await run('swaks', ['--server', '127.0.0.1', '--from', 'app@acme.test', '--to', 'alice@example.com', '--timeout', '20', ...args]);
    return { ok: true, out: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('implicit TLS port and CRAM-MD5 with configured keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(['--smtps-port', '0', '--keys', KEYS]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('accepts mail over implicit TLS, verified against the generated certificate', async () => {
    const ca = readFileSync(generatedCertPaths(server.dbPath).cert);
    const sent = await sendWithNodemailer(server.smtpsPort!, { from: 'app@acme.test', to: 'alice@example.com', subject: 'over smtps', text: 'hi' }, {
      secure: true, tls: { ca, servername: 'localhost' }, auth: { user: 'apikey', pass: ALPHA },
    });
    const email = await deliveredEmail(server, ALPHA, queuedId(sent.info.response));
    expect(email).toMatchObject({ subject: 'over smtps', team_id: 'team_alpha' });
  });

  it('works with Python\'s smtplib over SMTP_SSL with AUTH CRAM-MD5', async () => {
    const cafile = generatedCertPaths(server.dbPath).cert;
    const result = await sendWithPython({ port: server.smtpsPort!, implicit_tls: true, auth_method: 'CRAM-MD5', cafile, user: 'python', password: BETA, from: 'py@acme.test', to: ['carol@example.com'], subject: 'python smtps', text: 'hi' });
    expect(result.features).toContain('auth');
    expect(result.auth![0]).toBe(235);
    expect(result.cipher).toBeTruthy();
    const email = await deliveredEmail(server, BETA, queuedId(result.data![1]));
    expect(email).toMatchObject({ subject: 'python smtps', team_id: 'team_beta' });
  });

  it('does not offer STARTTLS on the plain port when only --smtps-port is set', async () => {
    const { out } = await swaks(['--port', String(server.smtpPort), '--quit-after', 'EHLO']);
    expect(out).toContain('250-AUTH PLAIN LOGIN CRAM-MD5');
    expect(out).not.toContain('STARTTLS');
  });

  it('ties CRAM-MD5 to the key whose digest matches, whatever the user name', async () => {
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'app@acme.test', to: 'bob@example.com', subject: 'cram nodemailer', text: 'hi' }, {
      auth: { user: 'anything', pass: BETA, method: 'CRAM-MD5' },
    });
    const email = await deliveredEmail(server, BETA, queuedId(sent.info.response));
    expect(email).toMatchObject({ subject: 'cram nodemailer', team_id: 'team_beta' });
  });

  it('refuses CRAM-MD5 with a key that is not configured (535)', async () => {
    await expect(sendWithNodemailer(server.smtpPort, { from: 'a@acme.test', to: 'b@example.com', subject: 'x', text: 'x' }, {
      auth: { user: 'apikey', pass: 'not-a-key-9999', method: 'CRAM-MD5' },
    })).rejects.toMatchObject({ responseCode: 535 });
  });

  it('works with swaks: implicit TLS plus AUTH CRAM-MD5', async () => {
    const { ok, out } = await swaks(['--port', String(server.smtpsPort), '--tls-on-connect', '--auth', 'CRAM-MD5', '--auth-user', 'u', '--auth-password', ALPHA, '--header', 'Subject: swaks smtps cram']);
    expect(ok, out).toBe(true);
    expect(out).toContain('235');
    const id = /queued as ([0-9a-f]+)/.exec(out)![1];
    expect(await deliveredEmail(server, ALPHA, id)).toMatchObject({ subject: 'swaks smtps cram', team_id: 'team_alpha' });
  });
});

describe('CRAM-MD5 in open mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer([]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes the user name as the key when the password is that key too', async () => {
    const key = 'open-key-cram-1234';
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'a@acme.test', to: 'b@example.com', subject: 'open cram', text: 'x' }, {
      auth: { user: key, pass: key, method: 'CRAM-MD5' },
    });
    expect(await deliveredEmail(server, key, queuedId(sent.info.response))).toMatchObject({ team_id: openTeamId(key) });
  });

  it('refuses a different password with a 535 that says what to do', async () => {
    const { ok, out } = await swaks(['--port', String(server.smtpPort), '--auth', 'CRAM-MD5', '--auth-user', 'apikey', '--auth-password', 'open-key-5678']);
    expect(ok).toBe(false);
    expect(out).toContain('535 5.7.8 Authentication failed: CRAM-MD5 in open mode needs the API key as both user name and password');
  });

  it('has no implicit-TLS port unless asked', () => {
    expect(server.smtpsPort).toBeNull();
  });
});
