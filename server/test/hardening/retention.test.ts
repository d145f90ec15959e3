import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { startServer, eventually, type TestServer } from '../harness.js';
import { listen, type SseClient } from './lib/sse.js';
import { largeMessagePaths } from '../../src/storage/large-messages.js';

/**
 * Retention under load: with --max-emails N, pruning runs while sends keep coming.
 * The newest N are all there, in order; everything older was pruned (and announced);
 * the database file stops growing. The event stream gives the exact arrival order.
 * RETENTION_SENDS / RETENTION_MAX scale it up (scripts/load.mjs runs the long one).
 */
const SENDS = Number(process.env.RETENTION_SENDS ?? 600);
const MAX = Number(process.env.RETENTION_MAX ?? 100);
const REPORT = process.env.RETENTION_REPORT;
const CONCURRENCY = 16;
const KEYS = ['retention-a', 'retention-b', 'retention-c'];

let server: TestServer;
let sse: SseClient;
let closed = false;
beforeAll(async () => {
  server = await startServer(['--max-emails', String(MAX)]);
  sse = listen(server.url);
  await sse.ready;
});
afterAll(async () => {
  if (closed) return;
  await sse?.close();
  await server?.close();
});

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const filesOf = (path: string) => [path, ...largeMessagePaths(path)].flatMap((file) => [file, `${file}-wal`, `${file}-shm`]);
// The main file and the large messages' files (storage/large-messages.ts), each with its WAL.
const fileBytes = (path: string) => filesOf(path).reduce((sum, file) => sum + size(file), 0);
// The main WAL is checkpointed every 10 000 pages, the large messages' one every 64 MB
// (storage/db.ts, emails.ts); one batch may go past that.
const WAL_CAP_BYTES = 10_000 * 4096 + 8 * 1024 * 1024;
const LARGE_WAL_CAP_BYTES = 64 * 1024 * 1024 + 8 * 1024 * 1024;

describe('retention while sends continue', () => {
  it('keeps exactly the newest N in order, prunes the rest, and keeps the file bounded', async () => {
    const acked = new Set<string>();
    const sizes: { sent: number; bytes: number; wal: number; largeWal: number }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < SENDS) {
        const i = next++;
        const res = await server.api('/v1/send', {
          method: 'POST',
          key: KEYS[i % KEYS.length],
          json: { to: [`r${i}@retention.test`, `cc${i % 7}@retention.test`], subject: `retention ${i}`, body: `<p>${'content '.repeat(50 + (i % 40) * 60)}</p>`, attachments: i % 9 === 0 ? [{ filename: 'a.bin', content: Buffer.alloc(8000 + i, i % 256).toString('base64'), contentType: 'application/octet-stream' }] : undefined },
        });
        expect(res.status).toBe(200);
        acked.add(res.body.data[0].email_id);
        if (acked.size % Math.max(1, Math.floor(SENDS / 12)) === 0) sizes.push({ sent: acked.size, bytes: fileBytes(server.dbPath), wal: size(`${server.dbPath}-wal`), largeWal: Math.max(...largeMessagePaths(server.dbPath).map((file) => size(`${file}-wal`))) });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // Every email was announced, in the order ingest wrote them.
    const created = await eventually(() => {
      const ids = sse.events.filter((e) => e.type === 'email.created').map((e) => e.data.id!);
      return ids.length === SENDS ? ids : undefined;
    }, 20_000, `${SENDS} email.created events`);
    expect(new Set(created)).toEqual(acked);
    const newest = created.slice(-MAX);
    const deleted = new Set(await eventually(() => {
      const ids = sse.events.filter((e) => e.type === 'email.deleted').map((e) => e.data.id!);
      return ids.length === SENDS - MAX ? ids : undefined;
    }, 20_000, `${SENDS - MAX} email.deleted events`));
    expect(newest.filter((id) => deleted.has(id)), 'newest emails that were pruned').toEqual([]);
    expect(created.slice(0, -MAX).every((id) => deleted.has(id)), 'every older email pruned').toBe(true);

    // What the API shows: exactly the newest N, newest first.
    const listed: string[] = [];
    for (let page = 1; listed.length < MAX + 1; page++) {
      const res = await server.api(`/sandbox/emails?limit=100&page=${page}`);
      listed.push(...res.body.data.data.map((e: { id: string }) => e.id));
      if (res.body.data.data.length < 100) break;
    }
    expect(listed).toEqual([...newest].reverse());
    for (const id of newest.slice(-5)) expect((await server.api(`/sandbox/emails/${id}`)).status).toBe(200);
    for (const id of created.slice(0, 5)) expect((await server.api(`/sandbox/emails/${id}`)).status).toBe(404);

    // Freed pages are reused: once the first N are pruned, the database stops growing. The
    // WAL grows up to its checkpoint interval meanwhile; closing checkpoints it into the file.
    const settled = sizes.filter((s) => s.sent >= SENDS / 3);
    const first = settled[0].bytes;
    const timeline = sizes.map((s) => `${s.sent}:${s.bytes} (wal ${s.wal}, large wal ${s.largeWal})`).join(' ');
    expect(Math.max(...sizes.map((s) => s.wal)), `WAL bytes over time: ${timeline}`).toBeLessThanOrEqual(WAL_CAP_BYTES);
    expect(Math.max(...sizes.map((s) => s.largeWal)), `WAL bytes over time: ${timeline}`).toBeLessThanOrEqual(LARGE_WAL_CAP_BYTES);
    // The sends are large enough that both files are in use.
    expect(size(largeMessagePaths(server.dbPath)[0])).toBeGreaterThan(0);
    await sse.close();
    await server.sendbox.close();
    const final = fileBytes(server.dbPath);
    await server.close().catch(() => {});
    closed = true;
    if (REPORT) writeFileSync(REPORT, JSON.stringify({ sends: SENDS, max: MAX, sizes, final }, null, 2));
    expect(final, `file bytes over time: ${timeline}, after close ${final}`).toBeLessThanOrEqual(first * 1.5);
  }, 120_000);
});
