import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../harness.js';
import { MAIN, spawnSendbox, type Running } from '../process.js';
import { databaseProblems, startStorm, unfinished, type Acked } from './lib/storm.js';
import { largeMessagePaths } from '../../src/storage/large-messages.js';

/**
 * Crash safety of the built server: a storm of concurrent API and SMTP sends, SIGKILL in
 * the middle of it, restart on the same file. Every email that got a 200 or a 250 is
 * there and intact, nothing is half-written, and the lifecycles the kill interrupted
 * finish. CRASH_ROUNDS repeats kill and restart (scripts/crash.mjs runs many rounds).
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1);
const REPORT = process.env.CRASH_REPORT;
const KEY = 'crash-key-0001';
const running: Running[] = [];
const dir = mkdtempSync(join(tmpdir(), 'sendbox-crash-'));

afterAll(() => {
  for (const r of running) r.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(db: string): Promise<Running> {
  // Slow enough delivery that the kill finds emails processing and queued.
  const r = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', db, '--delay-ms', '200']);
  running.push(r);
  return r;
}

/** Problems with acknowledged emails as the restarted server shows them. */
async function missingOrChanged(httpUrl: string, acked: Acked[]): Promise<string[]> {
  const problems: string[] = [];
  for (const a of acked) {
    const res = await fetch(`${httpUrl}/v1/emails/${a.id}`, { headers: { Authorization: `Bearer ${KEY}` } });
    if (res.status !== 200) {
      problems.push(`${a.via} ${a.id} acknowledged but answers ${res.status}`);
      continue;
    }
    const email = ((await res.json()) as { data: { subject: string; to_addresses: string[]; size: number; metadata: { text: string; html: string } } }).data;
    if (email.subject !== a.subject) problems.push(`${a.id}: subject ${JSON.stringify(email.subject)} instead of ${JSON.stringify(a.subject)}`);
    if (JSON.stringify(email.to_addresses) !== JSON.stringify(a.to)) problems.push(`${a.id}: to ${email.to_addresses} instead of ${a.to}`);
    if (a.size !== null && email.size !== a.size) problems.push(`${a.id}: size ${email.size} instead of the ${a.size} bytes sent`);
    if (!`${email.metadata.text}${email.metadata.html}`.includes(a.marker)) problems.push(`${a.id}: the content is not the one sent`);
  }
  return problems;
}

/** Acknowledged emails that a search for their round's tag does not list. */
async function unsearchable(httpUrl: string, acked: Acked[], tag: string): Promise<string[]> {
  const found = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await fetch(`${httpUrl}/v1/emails?search=${encodeURIComponent(tag)}&limit=100&page=${page}`, { headers: { Authorization: `Bearer ${KEY}` } });
    const { data } = ((await res.json()) as { data: { data: { id: string }[] } }).data;
    for (const email of data) found.add(email.id);
    if (data.length < 100) break;
  }
  return acked.filter((a) => !found.has(a.id)).map((a) => `${a.via} ${a.id} (${a.subject}) not found by search`);
}

describe('crash safety of the built server', () => {
  it('keeps every acknowledged email whole across SIGKILL mid-storm and finishes interrupted lifecycles', async () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build:server`).toBe(true);
    const db = join(dir, 'sendbox.db');
    const all: Acked[] = [];
    const rounds: { acked: number; failedInFlight: number; unfinishedAtRestart: number; dbBytes: number }[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const server = await start(db);
      const storm = startStorm({ httpUrl: server.httpUrl, smtpPort: server.smtpPort, key: KEY, apiWorkers: 12, smtpWorkers: 4, largeWorkers: 2, tag: `r${round}` });
      // Kill once every path has a fair number of acknowledgements (a different point each round).
      // 50-90 messages of 1 MB: past the first switch of large-message file, when the worker
      // checkpoints one file while the other is written.
      const apiTarget = 60 + (round % 5) * 25;
      const largeTarget = 50 + (round % 3) * 20;
      const count = (via: Acked['via']) => storm.acked.filter((a) => a.via === via).length;
      await eventually(() => count('api') >= apiTarget && count('smtp') >= 12 && count('large') >= largeTarget, 60_000, 'acknowledgements before the kill');
      server.child.kill('SIGKILL');
      await server.exited;
      await storm.stop();
      all.push(...storm.acked);

      // The file as the kill left it: whole emails only.
      expect(databaseProblems(db), `after the kill in round ${round}`).toEqual([]);
      const interrupted = unfinished(db);

      const restarted = await start(db);
      expect(await missingOrChanged(restarted.httpUrl, all), `round ${round}`).toEqual([]);
      // Search rows are written behind ingest, so the kill left some unindexed: search still finds every one.
      expect(await unsearchable(restarted.httpUrl, storm.acked, `r${round} `), `search in round ${round}`).toEqual([]);
      // Lifecycles resume from their persisted due times.
      await eventually(() => unfinished(db) === 0, 30_000, 'every interrupted lifecycle to finish');
      expect(databaseProblems(db), `after restart in round ${round}`).toEqual([]);
      rounds.push({ acked: storm.acked.length, failedInFlight: storm.failed, unfinishedAtRestart: interrupted, dbBytes: [db, ...largeMessagePaths(db)].reduce((sum, file) => sum + statSync(file).size, 0) });
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }

    // The first round must have caught lifecycles mid-way, or it proved nothing about resuming.
    expect(rounds[0].unfinishedAtRestart).toBeGreaterThan(0);
    if (REPORT) writeFileSync(REPORT, JSON.stringify({ rounds, acked: all.length, api: all.filter((a) => a.via === 'api').length, large: all.filter((a) => a.via === 'large').length, smtp: all.filter((a) => a.via === 'smtp').length }, null, 2));
  }, 60_000 + ROUNDS * 60_000);
});
