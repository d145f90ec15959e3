import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MIGRATIONS } from './migrations.js';
import type { Logger } from '../logger.js';
import { attachLargeMessages, largeMessagePaths } from './large-messages.js';

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
      // Without a schema name the checkpoint covers the main file and the large messages' files.
      if (idle && Math.max(...[path, ...largeMessagePaths(path)].map(walBytes)) > minBytes) db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Closed meanwhile, or busy: the next interval tries again.
    }
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
