import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { MAIN, runCli, spawnSendbox, type Running } from '../process.js';

/**
 * API keys (and the --ui-auth password) never appear in full: not in the logs at debug
 * level, not in error messages, not in /sandbox answers (a key hint only), not in the
 * inbox, not in the database file. "In full" is checked strictly: everything but the
 * last four characters (the hint) must be absent too.
 */
const ALPHA = 'sk_test_alpha_Zq8Vw3Lr9Tp2_1111';
const BETA = 'sk_test_beta_Hn4Kx7Mb1Cd6_2222';
const WRONG = 'sk_test_wrong_Yt5Gf8Jk2Pq9_3333';
const FILE_KEY = 'sk_file_Qw1Er2Ty3Ui4Op5_4444';
const UI_PASSWORD = 'ui-pass-Aa1Bb2Cc3Dd4';
const OPEN_KEY = 'open_mode_key_Lk9Jh8Gf7Ds6_5555';

const running: Running[] = [];
const dir = mkdtempSync(join(tmpdir(), 'sendbox-secrets-'));
afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Every place a secret could leak to, gathered as text. */
class Exposure {
  private readonly texts: string[] = [];
  add(where: string, text: string): void {
    this.texts.push(`--- ${where}\n${text}`);
  }
  async fetch(url: string, init: RequestInit = {}, where = `${init.method ?? 'GET'} ${new URL(url).pathname}`): Promise<Response> {
    const res = await fetch(url, init);
    const text = await res.clone().text();
    this.add(`${where} → ${res.status} ${JSON.stringify(Object.fromEntries(res.headers))}`, text);
    return res;
  }
  /** The places where any secret's non-hint part appears. */
  leaks(secrets: string[]): string[] {
    const found: string[] = [];
    for (const secret of secrets) {
      const body = secret.slice(0, -4);
      for (const text of this.texts) if (text.includes(body)) found.push(`${secret.slice(-4)} leaked in ${text.split('\n')[0]}: …${text.slice(Math.max(0, text.indexOf(body) - 60), text.indexOf(body) + body.length + 20)}…`);
    }
    return found;
  }
}

async function smtpSend(port: number, pass: string): Promise<string> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, auth: { user: 'secrets', pass } });
  try {
    const info = await transport.sendMail({ from: 's@secrets.test', to: 'r@secrets.test', subject: 'via smtp', text: 'hello' });
    return info.response;
  } catch (error) {
    return String((error as Error).message);
  } finally {
    transport.close();
  }
}

/** Reads an SSE stream for a moment while `during` runs. */
async function sseDuring(url: string, headers: Record<string, string>, during: () => Promise<void>): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    } catch {
      // aborted
    }
  })();
  await during();
  controller.abort();
  await reading;
  return text;
}

describe('secrets stay secret', () => {
  it('configured keys and the ui password appear nowhere in full: logs, errors, /sandbox, SSE, the inbox, the database', async () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build:server`).toBe(true);
    const keysFile = join(dir, 'keys.json');
    writeFileSync(keysFile, JSON.stringify([{ key: ALPHA, team_id: 'team_alpha' }, { key: BETA, team_id: 'team_beta', api_key_id: 7 }, { key: FILE_KEY, team_id: 'team_alpha' }]));
    const db = join(dir, 'configured.db');
    const server = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', db, '--log-level', 'debug', '--keys', keysFile, '--ui-auth', `admin:${UI_PASSWORD}`, '--delay-ms', '0']);
    running.push(server);
    const seen = new Exposure();
    const ui = { Authorization: `Basic ${Buffer.from(`admin:${UI_PASSWORD}`).toString('base64')}` };
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });
    const url = server.httpUrl;

    const events = await sseDuring(`${url}/sandbox/events`, ui, async () => {
      // Successful sends, validation errors, every kind of 401.
      const sent = await (await seen.fetch(`${url}/v1/send`, { method: 'POST', headers: bearer(ALPHA), body: JSON.stringify({ to: 'a@secrets.test', subject: 'secrets', body: 'b' }) })).json();
      await seen.fetch(`${url}/v1/send`, { method: 'POST', headers: bearer(BETA), body: JSON.stringify({ to: 'not an address', subject: 's', body: 'b' }) });
      for (const auth of [`Bearer ${WRONG}`, `Bearer ${ALPHA} extra`, `Basic ${ALPHA}`, `Bearer ${ALPHA}x`, `bearer ${WRONG}`, ALPHA]) {
        await seen.fetch(`${url}/v1/emails`, { headers: { Authorization: auth } }, `GET /v1/emails with ${auth.slice(0, 6)}…`);
      }
      await seen.fetch(`${url}/v1/emails/${sent.data[0].email_id}`, { headers: bearer(ALPHA) });
      await seen.fetch(`${url}/v1/emails/${sent.data[0].email_id}`, { headers: bearer(BETA) });
      await seen.fetch(`${url}/v1/domains`, { method: 'POST', headers: bearer(ALPHA), body: JSON.stringify({ value: 'secrets.example' }) });
      // SMTP: a good key, a wrong one.
      seen.add('SMTP AUTH with a configured key', await smtpSend(server.smtpPort, FILE_KEY));
      seen.add('SMTP AUTH with a wrong key', await smtpSend(server.smtpPort, WRONG));
      // The inbox's own API, and the inbox itself.
      for (const path of ['/sandbox/teams', '/sandbox/emails', `/sandbox/emails/${sent.data[0].email_id}`, `/sandbox/emails/${sent.data[0].email_id}/raw`, '/sandbox/health', '/sandbox/domains', '/', '/openapi.json']) {
        await seen.fetch(`${url}${path}`, { headers: ui });
      }
      await seen.fetch(`${url}/sandbox/teams`, {}, 'GET /sandbox/teams without ui auth');
      await seen.fetch(`${url}/sandbox/teams`, { headers: { Authorization: `Basic ${Buffer.from(`admin:${UI_PASSWORD}x`).toString('base64')}` } }, 'GET /sandbox/teams with a wrong password');
    });
    seen.add('SSE stream', events);

    // The inbox's mailboxes show the hint, never the key.
    const teams = await (await fetch(`${url}/sandbox/teams`, { headers: ui })).json();
    const hints = teams.data.flatMap((t: { api_keys: { key_hint: string }[] }) => t.api_keys.map((k) => k.key_hint));
    expect(hints.sort()).toEqual(['1111', '2222', '4444'].map((h) => expect.stringContaining(h)));

    // Built inbox assets are static: no key can be in them, but check what is served.
    const webDist = join(MAIN, '..', '..', 'web', 'dist', 'assets');
    if (existsSync(webDist)) for (const f of readdirSync(webDist)) seen.add(`web/dist/assets/${f}`, readFileSync(join(webDist, f), 'utf8'));

    server.child.kill('SIGTERM');
    await server.exited;
    seen.add('stdout', server.stdout());
    seen.add('stderr (debug)', server.stderr());
    for (const f of readdirSync(dir).filter((f) => f.startsWith('configured.db'))) seen.add(`database file ${f}`, readFileSync(join(dir, f)).toString('latin1'));

    expect(server.stderr().length, 'debug logging produced output to check').toBeGreaterThan(0);
    expect(seen.leaks([ALPHA, BETA, WRONG, FILE_KEY, UI_PASSWORD])).toEqual([]);
  }, 60_000);

  it('open-mode keys are stored as hashes and shown as hints only', async () => {
    const db = join(dir, 'open.db');
    const server = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', db, '--log-level', 'debug', '--delay-ms', '0']);
    running.push(server);
    const seen = new Exposure();
    await seen.fetch(`${server.httpUrl}/v1/send`, { method: 'POST', headers: { Authorization: `Bearer ${OPEN_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ to: 'a@open.test', subject: 's', body: 'b' }) });
    seen.add('SMTP AUTH', await smtpSend(server.smtpPort, OPEN_KEY));
    const teams = await (await seen.fetch(`${server.httpUrl}/sandbox/teams`)).json();
    expect(teams.data.flatMap((t: { api_keys: { key_hint: string }[] }) => t.api_keys.map((k) => k.key_hint))).toEqual([expect.stringContaining('5555')]);
    server.child.kill('SIGTERM');
    await server.exited;
    seen.add('stderr (debug)', server.stderr());
    for (const f of readdirSync(dir).filter((f) => f.startsWith('open.db'))) seen.add(`database file ${f}`, readFileSync(join(dir, f)).toString('latin1'));
    expect(seen.leaks([OPEN_KEY])).toEqual([]);
  }, 60_000);

  it('a bad key setting fails at start without echoing the keys', async () => {
    const seen = new Exposure();
    for (const setting of [`team_a:${ALPHA},team_b:${BETA} with space`, `team a:${ALPHA},team_b:${BETA}`]) {
      const result = await runCli(['--port', '0', '--smtp-port', '0', '--db', ':memory:'], { SENDBOX_KEYS: setting });
      seen.add(`start with SENDBOX_KEYS=${setting.slice(0, 3)}… → exit ${result.code}`, `${result.stdout}\n${result.stderr}`);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^sendbox: /);
    }
    const badJson = join(dir, 'bad-keys.json');
    writeFileSync(badJson, `[{"key": "${ALPHA}", "team_id": "bad team"}]`);
    const result = await runCli(['--port', '0', '--smtp-port', '0', '--db', ':memory:', '--keys', badJson]);
    expect(result.code).toBe(2);
    seen.add('start with a bad keys file', `${result.stdout}\n${result.stderr}`);
    expect(seen.leaks([ALPHA, BETA])).toEqual([]);
  }, 60_000);
});
