import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSendbox, runCli, ROOT, type Running } from '../test/process.js';
import { envName, SETTINGS } from './config.js';

const running: Running[] = [];
afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
});
const tmpDb = () => join(mkdtempSync(join(tmpdir(), 'sendbox-cli-')), 'sendbox.db');

describe('the sendbox command', () => {
  it('prints one ready line with the real ports and answers /v1 and /openapi.json', async () => {
    const db = tmpDb();
    const r = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', db]);
    running.push(r);
    expect(r.stdout()).toMatch(new RegExp(`^sendbox ready  http://127\\.0\\.0\\.1:\\d+  smtp://127\\.0\\.0\\.1:\\d+  db ${db}\\n$`));
    const send = await fetch(`${r.httpUrl}/v1/send`, { method: 'POST', headers: { Authorization: 'Bearer cli-key', 'Content-Type': 'application/json' }, body: JSON.stringify({ to: 'a@example.com', subject: 's', body: 'b' }) });
    expect(send.status).toBe(200);
    const doc = await (await fetch(`${r.httpUrl}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/send', '/v1/emails', '/v1/emails/{email_id}', '/v1/emails/{email_id}/logs', '/v1/domains', '/v1/domains/verify']));
    expect(doc.components.schemas.SendRequest.properties.attachments.maxItems).toBe(5);
  });

  it('takes every setting from its environment twin', async () => {
    const r = await spawnSendbox([], { SENDBOX_PORT: '0', SENDBOX_SMTP_PORT: '0', SENDBOX_DB: ':memory:', SENDBOX_DEFAULT_FROM: 'env@acme.test' });
    running.push(r);
    expect(r.stdout()).toContain('db :memory:');
    const sent = await (await fetch(`${r.httpUrl}/v1/send`, { method: 'POST', headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' }, body: JSON.stringify({ to: 'a@example.com', subject: 's', body: 'b' }) })).json();
    const email = await (await fetch(`${r.httpUrl}/v1/emails/${sent.data[0].email_id}`, { headers: { Authorization: 'Bearer k' } })).json();
    expect(email.data.from_address).toBe('env@acme.test');
  });

  it('fails at start with one line naming the port, the flag and the env variable when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const http = await runCli(['--port', String(port), '--smtp-port', '0', '--db', ':memory:']);
      expect(http.code).toBe(1);
      expect(http.stderr.trim().split('\n')).toHaveLength(1);
      expect(http.stderr).toContain(`port ${port}`);
      expect(http.stderr).toContain('--port');
      expect(http.stderr).toContain('SENDBOX_PORT');
      const smtp = await runCli(['--port', '0', '--smtp-port', String(port), '--db', ':memory:']);
      expect(smtp.code).toBe(1);
      expect(smtp.stderr).toContain('--smtp-port');
      expect(smtp.stderr).toContain('SENDBOX_SMTP_PORT');
    } finally {
      blocker.close();
    }
  });

  it('lists every flag with its env twin and default in --help', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const text of ['--port', 'SENDBOX_PORT', '--smtp-port', 'SENDBOX_SMTP_PORT', '--db', 'SENDBOX_DB', '--max-emails', '(default: 50000)', '--keys', '--delay-ms', '--default-from', '--message-host']) {
      expect(help.stdout).toContain(text);
    }
    // Every setting, the lab's and the everyday tools' included (--relay, --smtps-port, --max-age, --link-check …).
    for (const setting of Object.values(SETTINGS)) {
      expect(help.stdout).toMatch(new RegExp(`^  --${setting.flag}\\b`, 'm'));
      expect(help.stdout).toContain(`env ${envName(setting.flag)}`);
    }
    expect(help.stdout).toContain('sendbox sendmail');
  });

  it.each([
    [['--port', 'abc'], '--port must be a whole number'],
    [['--port', '70000'], '--port must be between 0 and 65535'],
    [['--bogus'], 'Unknown option'],
    [['--dns', 'maybe'], '--dns must be simulated or real'],
    [['--strict-sender', '--max-emails', '0'], '--max-emails must be at least 1'],
  ])('refuses %j at start with a clear message', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('refuses a bad boolean environment value', async () => {
    const result = await runCli([], { SENDBOX_STRICT_SENDER: 'perhaps' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SENDBOX_STRICT_SENDER must be one of 1/0/true/false/yes/no');
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const r = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', tmpDb()]);
    const body = JSON.stringify({ to: 'inflight@example.com', subject: 'in flight', body: 'x'.repeat(2000) });
    const url = new URL(`${r.httpUrl}/v1/send`);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      // Expect: 100-continue makes the server answer once it holds the request: only then is
      // the request in flight (a connection without one is idle and rightly closed at once).
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.on('continue', () => {
        let logged = '';
        const onLog = (chunk: Buffer) => {
          logged += chunk;
          if (!logged.includes('SIGTERM')) return;
          r.child.stderr!.off('data', onLog);
          // The body arrives after shutdown has begun.
          req.end(body);
        };
        r.child.stderr!.on('data', onLog);
        r.child.kill('SIGTERM');
      });
      req.flushHeaders();
    });
    const result = await response;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).success).toBe(true);
    expect(await r.exited).toBe(0);
  });

  it('npm start runs the same command with flags passed through', async () => {
    const r = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', ':memory:'], {}, join(ROOT, 'scripts', 'start.mjs'), 120_000);
    running.push(r);
    expect(r.stdout()).toMatch(/sendbox ready {2}http:\/\/127\.0\.0\.1:\d+/);
    expect((await fetch(`${r.httpUrl}/v1/emails`, { headers: { Authorization: 'Bearer k' } })).status).toBe(200);
  });
});
