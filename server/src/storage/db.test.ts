import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, truncateWalWhenIdle } from './db.js';
import { largeMessagePaths } from './large-messages.js';

describe('truncateWalWhenIdle', () => {
  it('leaves the WAL alone while writes continue and below its minimum, and truncates it once they stop', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-wal-'));
    const path = join(dir, 'db.sqlite');
    const db = openDatabase(path);
    const walBytes = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    // Checked by hand here (check()), not by its timer.
    const truncation = truncateWalWhenIdle(db, path, { everyMs: 3_600_000, minBytes: 100_000 });
    try {
      db.exec('CREATE TABLE t (x BLOB)');
      // The migrations' own writes (~270 KB of WAL): two quiet checks truncate them.
      truncation.check();
      truncation.check();
      expect(walBytes()).toBe(0);
      const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
      insert.run(Buffer.alloc(20_000));
      truncation.check();
      truncation.check();
      // Idle, but under the minimum: left as it is.
      expect(walBytes()).toBeGreaterThan(0);
      for (let i = 0; i < 10; i++) {
        insert.run(Buffer.alloc(20_000));
        truncation.check();
      }
      // Over the minimum, but written to between every two checks: left as it is.
      expect(walBytes()).toBeGreaterThan(200_000);
      truncation.check();
      expect(walBytes()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(11);

      // The large messages' files (each with its WAL) are folded in and truncated the same way.
      const largeWalBytes = () => largeMessagePaths(path).map((file) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
      db.prepare('INSERT INTO large.raw_messages (email_id, raw) VALUES (1, ?)').run(Buffer.alloc(300_000));
      db.prepare('INSERT INTO large2.raw_messages (email_id, raw) VALUES (2, ?)').run(Buffer.alloc(300_000));
      expect(Math.min(...largeWalBytes())).toBeGreaterThan(100_000);
      truncation.check();
      truncation.check();
      expect(largeWalBytes()).toEqual([0, 0]);
      expect(walBytes()).toBe(0);
    } finally {
      truncation.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
