import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MIGRATIONS } from './migrations.js';
import type { Logger } from '../logger.js';

export type Db = Database.Database;

/** Opens the database (creating its folder), sets WAL and applies pending migrations. */
export function openDatabase(path: string, logger?: Logger): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // SQLite's default 4 KB pages. 16 KB pages made a 1.4 MB insert 3.6 → 1.0 ms, but every
  // commit writes its dirty index pages whole: a 1 KB send at one connection (one email per
  // commit) cost 0.35 → 0.46 ms, 8 KB pages 0.39 ms (bench/README.md, issue 15).
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (SIGKILL); only power loss can drop the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = OFF');
  db.pragma('temp_store = MEMORY');
  // 8 MB of page cache: list and search latencies at 100 000 emails in 20 teams were the same
  // as with 16 or 32 MB (the OS caches the file too), and resident memory after them 8 MB
  // lower than with 16 MB (142-143 vs 150 MB); sends measured the same (README, issue 15).
  db.pragma('cache_size = -8000');
  // Checkpoint every ~40 MB of WAL instead of 4 MB: the index pages that every send
  // rewrites are copied back once per checkpoint, so fewer checkpoints cost less in all
  // (~15-20% of a /v1/send under load, bench/profile-send.mjs). Recovery after a crash
  // replays at most that much.
  db.pragma('wal_autocheckpoint = 10000');
  migrate(db, logger);
  attachLargeMessages(db, path);
  return db;
}

/**
 * Raw messages of LARGE_MESSAGE_BYTES or more live in a sibling file, `<db>-large`, whose
 * pages are 64 KB. SQLite writes a WAL frame, and later checkpoints it, with a system call
 * or two per page: a 1.4 MB message took ~700 of them in 4 KB pages (2.5 ms of CPU, mostly
 * the kernel's) and takes ~45 in 64 KB pages (0.6 ms). The main file keeps 4 KB pages,
 * because every commit writes its dirty index pages whole and small sends would pay for
 * bigger ones (bench/README.md, issue 15). The file is created on first open; databases
 * written before it keep their raw messages in `email_bodies`, and reads look in both.
 */
export const LARGE_MESSAGE_BYTES = 16 * 1024;
export const LARGE_PAGE_BYTES = 65536;

export const largeMessagesPath = (path: string) => (path === ':memory:' ? ':memory:' : `${path}-large`);

function attachLargeMessages(db: Db, path: string): void {
  db.prepare('ATTACH DATABASE ? AS large').run(largeMessagesPath(path));
  // Only takes effect before the file's first table: an existing file keeps its page size.
  db.pragma(`large.page_size = ${LARGE_PAGE_BYTES}`);
  db.pragma('large.journal_mode = WAL');
  db.pragma('large.synchronous = NORMAL');
  // Raw messages are read one at a time and whole: the OS cache serves them as well.
  db.pragma('large.cache_size = -2000');
  db.exec('CREATE TABLE IF NOT EXISTS large.raw_messages (email_id INTEGER PRIMARY KEY, raw BLOB NOT NULL)');
  // A large message is committed here before its email row is committed in the main file
  // (EmailStore.insertMany), so a crash between the two leaves a message no email points
  // to, above the highest id. Its id would be handed out again: drop it.
  db.prepare('DELETE FROM large.raw_messages WHERE email_id > (SELECT COALESCE(MAX(id), 0) FROM main.emails)').run();
}

export function migrate(db: Db, logger?: Logger): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
    })();
    logger?.debug(`applied migration ${migration.version} ${migration.name}`);
  }
}

/** A value kept in `meta`, created on first use (e.g. the id-encoding secret). */
export function metaValue(db: Db, key: string, create: () => string): string {
  const existing = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  if (existing !== undefined) return existing;
  const value = create();
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
  return value;
}

export const randomSecret = () => randomBytes(16).toString('hex');

/**
 * Under sustained writes the WAL grows to its checkpoint interval (~40 MB) and SQLite
 * keeps the file that size. Once nothing has been written for a whole interval, this
 * folds it into the database and truncates it, so an idle sendbox leaves a small file.
 */
export function truncateWalWhenIdle(db: Db, path: string, { everyMs = 5_000, minBytes = 4 * 1024 * 1024 } = {}): { stop(): void; check(): void } {
  if (path === ':memory:') return { stop() {}, check() {} };
  const changes = db.prepare('SELECT total_changes()').pluck();
  let seen = -1;
  const check = () => {
    try {
      const now = changes.get() as number;
      const idle = now === seen;
      seen = now;
      const walBytes = (file: string) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      // Without a schema name the checkpoint covers the main file and the large messages' file.
      if (idle && Math.max(walBytes(path), walBytes(largeMessagesPath(path))) > minBytes) db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Closed meanwhile, or busy: the next interval tries again.
    }
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
