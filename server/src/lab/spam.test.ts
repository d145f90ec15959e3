import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { parseSpamdReply } from './spam.js';
import { spamResultSchema } from '../../../shared/lab.js';

/** spamd lives in /usr/sbin on Debian, which a non-root PATH may lack; SPAMD_PATH overrides. */
const SPAMD = process.env.SPAMD_PATH ?? (existsSync('/usr/sbin/spamd') ? '/usr/sbin/spamd' : 'spamd');

/**
 * A real SpamAssassin: Debian's spamd (package `spamd`, rules from `spamassassin`) on a
 * loopback port, with network tests off (-L), no per-user config (-x), running as nobody
 * with a throwaway home. If spamd is not installed this file fails: it never skips.
 */

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Daemon {
  port: number;
  stop: () => Promise<void>;
}

/**
 * Runs a filter daemon until its log says it is ready; a spawn error or an early exit fails the
 * test with the daemon's own words (it never skips). stop() waits for its exit and removes `dir`.
 */
async function startDaemon(options: { name: string; command: string; args: string[]; dir: string; port: number; ready: RegExp; install: string }): Promise<Daemon> {
  const child: ChildProcess = spawn(options.command, options.args, { cwd: options.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`${options.name} could not start (${error.message}): install ${options.install}`)));
    child.once('exit', (code) => reject(new Error(`${options.name} exited with ${code}: ${log.slice(-2000)}`)));
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (options.ready.test(log)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  return {
    port: options.port,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

async function startSpamd(): Promise<Daemon> {
  const home = mkdtempSync(join(tmpdir(), 'sendbox-spamd-'));
  chmodSync(home, 0o777);
  const port = await freePort();
  const args = ['-L', '-x', '-u', 'nobody', '-H', home, `--listen=127.0.0.1:${port}`, '--allowed-ips=127.0.0.1', '--min-children=1', '--max-children=1', '-s', 'stderr', '--pidfile', join(home, 'pid')];
  return startDaemon({ name: 'spamd', command: SPAMD, args, dir: home, port, ready: /server started on/, install: "Debian's spamd and spamassassin packages" });
}

describe('GET /sandbox/emails/{id}/spam with a real spamd', () => {
  let spamd: Daemon;
  let server: TestServer;
  beforeAll(async () => {
    spamd = await startSpamd();
    server = await startServer(['--spamassassin', `127.0.0.1:${spamd.port}`]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await spamd?.stop();
  });

  const send = async (subject: string, body: string) => {
    const res = await server.api('/v1/send', { method: 'POST', key: 'spam-key', json: { from: 'Acme <news@acme.test>', to: 'jane@example.com', subject, body } });
    return res.body.data[0].email_id as string;
  };

  it('scores GTUBE as spam, with the GTUBE rule and its description', async () => {
    const id = await send('Test', `This is the GTUBE test string.\n\n${GTUBE}\n`);
    const res = await server.api(`/sandbox/emails/${id}/spam`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ configured: true, backend: 'spamassassin', server: `127.0.0.1:${spamd.port}`, verdict: 'spam', threshold: 5, cached: false });
    expect(data.score).toBeGreaterThanOrEqual(1000);
    expect(data.rules[0]).toEqual({ name: 'GTUBE', score: 1000, description: 'BODY: Generic Test for Unsolicited Bulk Email' });
    // A real spamd answer has exactly the shape the OpenAPI document publishes (the same zod schema).
    expect(spamResultSchema.safeParse(data).success).toBe(true);
  }, 60_000);

  it('scores a clean transactional message as not spam, and answers the second time from the cache', async () => {
    const id = await send('Your receipt', 'Hi Jane,\n\nthanks for your order. Your receipt is attached to your account page.\n\nAcme');
    const first = await server.api(`/sandbox/emails/${id}/spam`);
    expect(first.body.data).toMatchObject({ configured: true, verdict: 'not-spam', cached: false });
    expect(first.body.data.score).toBeLessThan(first.body.data.threshold);
    const second = await server.api(`/sandbox/emails/${id}/spam`);
    expect(second.body.data).toEqual({ ...first.body.data, cached: true });
  }, 60_000);
});

describe('spam without a filter, or with one that is down', () => {
  let server: TestServer;
  let down: TestServer;
  beforeAll(async () => {
    server = await startServer();
    down = await startServer(['--spamassassin', `127.0.0.1:${await freePort()}`]);
  });
  afterAll(async () => {
    await server.close();
    await down.close();
  });

  it('says plainly that no filter is configured and names the flag', async () => {
    const sent = await server.api('/v1/send', { method: 'POST', key: 'spam-key', json: { to: 'jane@example.com', subject: 'x', body: 'hello' } });
    const res = await server.api(`/sandbox/emails/${sent.body.data[0].email_id}/spam`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ configured: false, message: expect.stringContaining('--spamassassin host:port') });
  });

  it('answers 502 naming the filter when spamd cannot be reached', async () => {
    const sent = await down.api('/v1/send', { method: 'POST', key: 'spam-key', json: { to: 'jane@example.com', subject: 'x', body: 'hello' } });
    const res = await down.api(`/sandbox/emails/${sent.body.data[0].email_id}/spam`);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ status: 502, message: expect.stringMatching(/^SpamAssassin at 127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)$/) });
  });
});

describe('parseSpamdReply', () => {
  it('reads the score, threshold and every rule, joining wrapped descriptions', () => {
    const reply = [
      'SPAMD/1.1 0 EX_OK',
      'Content-length: 400',
      'Spam: False ; 1.2 / 5.0',
      '',
      'Content analysis details:   (1.2 points, 5.0 required)',
      '',
      ' pts rule name              description',
      '---- ---------------------- --------------------------------------------------',
      ' 0.0 HTML_MESSAGE           BODY: HTML included in message',
      ' 1.2 MIME_HTML_ONLY         BODY: Message only has text/html MIME parts which',
      '                            are long',
      '-0.1 DKIM_VALID             Message has at least one valid DKIM or DK signature',
      '',
    ].join('\r\n');
    expect(parseSpamdReply(reply)).toEqual({
      score: 1.2,
      threshold: 5,
      verdict: 'not-spam',
      rules: [
        { name: 'MIME_HTML_ONLY', score: 1.2, description: 'BODY: Message only has text/html MIME parts which are long' },
        { name: 'HTML_MESSAGE', score: 0, description: 'BODY: HTML included in message' },
        { name: 'DKIM_VALID', score: -0.1, description: 'Message has at least one valid DKIM or DK signature' },
      ],
    });
  });
});

/** rspamd is in /usr/bin on Debian (package rspamd, installed by .ci/run); RSPAMD_PATH overrides. */
const RSPAMD = process.env.RSPAMD_PATH ?? 'rspamd';

/**
 * A real rspamd (Debian's rspamd 3.4) on a loopback port: only its scanning worker, logging to
 * the console, its state in a throwaway directory, and DNS pointed at a closed local port so
 * that its network lookups fail at once instead of leaving the machine.
 */
async function startRspamd(): Promise<Daemon> {
  const dir = mkdtempSync(join(tmpdir(), 'sendbox-rspamd-'));
  for (const sub of ['local/override.d', 'local/local.d', 'db', 'run', 'log']) mkdirSync(join(dir, sub), { recursive: true });
  for (const sub of ['', 'local', 'local/override.d', 'local/local.d', 'db', 'run', 'log']) chmodSync(join(dir, sub), 0o777);
  const port = await freePort();
  writeFileSync(join(dir, 'local/override.d/worker-normal.inc'), `bind_socket = "127.0.0.1:${port}";\ncount = 1;\n`);
  writeFileSync(join(dir, 'local/override.d/worker-controller.inc'), 'enabled = false;\n');
  writeFileSync(join(dir, 'local/override.d/worker-proxy.inc'), 'enabled = false;\n');
  writeFileSync(join(dir, 'local/override.d/logging.inc'), 'type = "console";\nlevel = "info";\n');
  writeFileSync(join(dir, 'local/local.d/options.inc'), 'dns { nameserver = ["127.0.0.1:1"]; timeout = 0.1s; retransmits = 0; }\n');
  const vars = [`--var=LOCAL_CONFDIR=${join(dir, 'local')}`, `--var=DBDIR=${join(dir, 'db')}`, `--var=RUNDIR=${join(dir, 'run')}`, `--var=LOGDIR=${join(dir, 'log')}`];
  // Ready when its scanning worker says it runs on the port (the main process bound it before forking).
  const ready = new RegExp(`starting normal process \\d+ \\(0\\); listen on: 127\\.0\\.0\\.1:${port}`);
  return startDaemon({ name: 'rspamd', command: RSPAMD, args: ['-f', '-u', 'nobody', '-g', 'nogroup', ...vars], dir, port, ready, install: "Debian's rspamd package" });
}

describe('GET /sandbox/emails/{id}/spam with a real rspamd (--rspamd)', () => {
  let rspamd: Daemon;
  let server: TestServer;
  beforeAll(async () => {
    rspamd = await startRspamd();
    server = await startServer(['--rspamd', `http://127.0.0.1:${rspamd.port}`]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rspamd?.stop();
  });

  const send = async (subject: string, body: string) => {
    const res = await server.api('/v1/send', { method: 'POST', key: 'spam-key', json: { from: 'Acme <news@acme.test>', to: 'jane@example.com', subject, body } });
    return res.body.data[0].email_id as string;
  };

  it('scores GTUBE as spam with rspamd\'s reject action and its GTUBE symbol', async () => {
    const res = await server.api(`/sandbox/emails/${await send('Test', `GTUBE test.\n\n${GTUBE}\n`)}/spam`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ configured: true, backend: 'rspamd', server: `http://127.0.0.1:${rspamd.port}`, verdict: 'spam', action: 'reject', cached: false });
    expect(res.body.data.score).toBeGreaterThanOrEqual(res.body.data.threshold);
    expect(res.body.data.rules.map((r: { name: string }) => r.name)).toContain('GTUBE');
    expect(spamResultSchema.safeParse(res.body.data).success).toBe(true);
  }, 60_000);

  it('scores a clean transactional message as not spam, listing the symbols with their descriptions', async () => {
    const res = await server.api(`/sandbox/emails/${await send('Your receipt', 'Hi Jane,\n\nthanks for your order. Your receipt is on your account page.\n\nAcme')}/spam`);
    const data = res.body.data;
    expect(data).toMatchObject({ configured: true, backend: 'rspamd', verdict: 'not-spam', action: 'no action' });
    expect(data.score).toBeLessThan(data.threshold);
    expect(data.rules.length).toBeGreaterThan(0);
    expect(data.rules.find((r: { name: string }) => r.name === 'MIME_GOOD')).toMatchObject({ score: -0.1, description: expect.stringContaining('Known content-type') });
    // Highest score first.
    const scores = data.rules.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
  }, 60_000);
});
