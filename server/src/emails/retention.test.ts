import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createSendbox, type Sendbox } from '../sendbox.js';
import { silentLogger } from '../logger.js';
import { ManualClock } from '../../test/manual-clock.js';
import { listen, type SseClient } from '../../test/hardening/lib/sse.js';
import { parseMaxAge } from './retention.js';

/** Retention by age (`--max-age`), driven through the injected clock against a real server and SQLite file. */
const T0 = Date.parse('2026-11-24T08:00:00Z');
const MINUTE = 60_000;
let folder: string;
let sendbox: Sendbox;
let url: string;
let sse: SseClient;
const clock = new ManualClock(T0);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sendbox-age-'));
  const config = loadConfig(['--port', '0', '--smtp-port', '0', '--db', join(folder, 'sendbox.db'), '--max-age', '1h'], {});
  sendbox = createSendbox(config, { clock, logger: silentLogger });
  const { httpPort } = await sendbox.listen();
  url = `http://127.0.0.1:${httpPort}`;
  sse = listen(url);
  await sse.ready;
});
afterAll(async () => {
  await sse?.close();
  await sendbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function send(subject: string): Promise<string> {
  const res = await fetch(`${url}/v1/send`, { method: 'POST', headers: { Authorization: 'Bearer age-key', 'Content-Type': 'application/json' }, body: JSON.stringify({ from: 'a@acme.test', to: 'b@example.com', subject, body: 'hi' }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { email_id: string }[] }).data[0].email_id;
}

const subjects = async () => ((await (await fetch(`${url}/sandbox/emails?limit=100`)).json()) as { data: { data: { subject: string }[] } }).data.data.map((e) => e.subject);

/** Resolves once the stream has carried `count` events of `type` (SSE is asynchronous to the write). */
async function events(type: string, count: number): Promise<string[]> {
  for (;;) {
    const ids = sse.events.filter((e) => e.type === type).map((e) => e.data.id!);
    if (ids.length >= count) return ids;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('--max-age', () => {
  it('deletes each email once it is older than the limit, announcing each deletion', async () => {
    const first = await send('first');
    clock.advance(30 * MINUTE);
    const second = await send('second');
    clock.advance(29 * MINUTE);
    expect(await subjects()).toEqual(['second', 'first']);

    clock.advance(2 * MINUTE);
    expect(await subjects()).toEqual(['second']);
    expect(await events('email.deleted', 1)).toEqual([first]);

    clock.advance(30 * MINUTE);
    expect(await subjects()).toEqual([]);
    expect(await events('email.deleted', 2)).toEqual([first, second]);
  });

  it('prunes at start what expired while sendbox was stopped', async () => {
    await send('before the restart');
    await sse.close();
    await sendbox.close();
    clock.advance(2 * 60 * MINUTE);
    sendbox = createSendbox(loadConfig(['--port', '0', '--smtp-port', '0', '--db', join(folder, 'sendbox.db'), '--max-age', '1h'], {}), { clock, logger: silentLogger });
    url = `http://127.0.0.1:${(await sendbox.listen()).httpPort}`;
    sse = listen(url);
    await sse.ready;
    expect(await subjects()).toEqual([]);
  });

  it('shows the retention in force in the health answer', async () => {
    const health = (await (await fetch(`${url}/sandbox/health`)).json()) as { data: { retention: unknown } };
    expect(health.data.retention).toEqual({ max_emails: 50_000, max_age: '1h' });
  });

  it('reads minutes, hours and days and refuses anything else at start', () => {
    expect([parseMaxAge('30m'), parseMaxAge('12h'), parseMaxAge('7D')]).toEqual([30 * MINUTE, 12 * 60 * MINUTE, 7 * 24 * 60 * MINUTE]);
    for (const bad of ['0d', '7', '1w', '-1h', '1.5h']) {
      expect(() => loadConfig(['--max-age', bad], {}), bad).toThrow(ConfigError);
    }
    expect(loadConfig([], { SENDBOX_MAX_AGE: '2d' }).maxAge).toBe('2d');
  });
});
