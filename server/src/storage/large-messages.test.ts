import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { LARGE_MESSAGE_BYTES, LargeMessages, largeMessagePaths } from './large-messages.js';
import { EmailStore, type NewEmail } from './emails.js';

const message = (id: number, bytes: number) => {
  const head = Buffer.from(`Subject: message ${id}\r\nX-Case: case-${id}\r\n\r\n`);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 97 + (id % 26))]);
};

const newEmail = (id: number, raw: Buffer): NewEmail => ({
  id, teamId: 'team_a', apiKeyId: 1, source: 'smtp', messageId: `${id}@t`, fromAddress: 'app@acme.test', fromName: '',
  toAddresses: [`u${id}@example.com`], subject: `message ${id}`, size: raw.length, inline: 0, attachments: 0, snippet: '', createdAt: 1_000 + id,
  metadata: { from: 'app@acme.test', to: [`u${id}@example.com`], cc: null, bcc: null, reply_to: null }, creditsUsed: 1, flags: {},
  text: `text ${id}`, html: '', raw,
  recipients: [{ address: `u${id}@example.com`, type: 'to', outcome: 'delivered', code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: 1_000 }],
});

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('raw messages of 16 KB and more, in their own file', () => {
  it('keeps small messages in the main file and large ones in the sibling file, reads, searches and deletes both', () => {
    dir = mkdtempSync(join(tmpdir(), 'sendbox-large-'));
    const path = join(dir, 'sendbox.db');
    const db = openDatabase(path);
    const store = new EmailStore(db);
    const small = message(1, LARGE_MESSAGE_BYTES - 1);
    const large = message(2, LARGE_MESSAGE_BYTES);
    const huge = message(3, 1_400_000);
    store.insertMany([newEmail(1, small), newEmail(2, large), newEmail(3, huge)]);

    const where = (id: number) => db.prepare(`SELECT length(b.raw) AS main, length(l.raw) AS large
      FROM email_bodies b LEFT JOIN large.raw_messages l ON l.email_id = b.email_id WHERE b.email_id = ?`).get(id);
    expect(where(1)).toEqual({ main: small.length, large: null });
    expect(where(2)).toEqual({ main: 0, large: large.length });
    expect(where(3)).toEqual({ main: 0, large: huge.length });
    for (const [id, raw] of [[1, small], [2, large], [3, huge]] as const) expect(store.body(id)?.raw.equals(raw)).toBe(true);
    expect(store.body(2)?.text).toBe('text 2');

    // header: terms read the message wherever it lives.
    const withHeader = (value: string) => store.list({ teamId: null, terms: [{ kind: 'header', name: 'X-Case', value, negated: false, raw: `header:X-Case=${value}` }] }, { offset: 0, limit: 10 }).rows.map((r) => r.id);
    expect(withHeader('case-3')).toEqual([3]);
    expect(withHeader('case-1')).toEqual([1]);

    // 32 KB pages in the sibling files, SQLite's 4 KB in the main one.
    expect(db.pragma('large.page_size', { simple: true })).toBe(32768);
    expect(db.pragma('large2.page_size', { simple: true })).toBe(32768);
    expect(db.pragma('main.page_size', { simple: true })).toBe(4096);

    expect(store.deleteOne(3)).toBe(true);
    expect(db.prepare('SELECT COUNT(*) FROM large.raw_messages WHERE email_id = 3').pluck().get()).toBe(0);
    store.deleteTeam(null);
    expect(db.prepare('SELECT COUNT(*) FROM large.raw_messages').pluck().get()).toBe(0);
    db.close();
    expect(statSync(largeMessagePaths(path)[0]).size).toBeGreaterThan(0);
  });

  it('drops, at open, a large message whose email a crash kept from being committed, and keeps every committed one', () => {
    dir = mkdtempSync(join(tmpdir(), 'sendbox-large-'));
    const path = join(dir, 'sendbox.db');
    const db = openDatabase(path);
    new EmailStore(db).insertMany([newEmail(1, message(1, 20_000)), newEmail(2, message(2, 30_000))]);
    db.close();
    // What a kill between the two commits leaves: the message of email 3, no email 3.
    // Either file may be the one being written.
    for (const file of largeMessagePaths(path)) {
      const raw = new Database(file);
      raw.prepare('INSERT INTO raw_messages (email_id, raw) VALUES (3, ?)').run(message(3, 40_000));
      raw.close();
    }

    const reopened = openDatabase(path);
    expect(reopened.prepare('SELECT email_id FROM large.raw_messages ORDER BY email_id').pluck().all()).toEqual([1, 2]);
    expect(reopened.prepare('SELECT COUNT(*) FROM large2.raw_messages').pluck().get()).toBe(0);
    const store = new EmailStore(reopened);
    // The id is handed out again, with its own message.
    store.insertMany([newEmail(3, message(3, 50_000))]);
    expect(store.body(3)?.raw.length).toBe(50_000);
    expect(store.body(1)?.raw.equals(message(1, 20_000))).toBe(true);
    reopened.close();
  });

  it('takes back the messages of a batch whose email rows could not be written, and only those', () => {
    const db = openDatabase(':memory:');
    const store = new EmailStore(db);
    store.insertMany([newEmail(1, message(1, 20_000))]);
    const broken = { ...newEmail(4, message(4, 40_000)), recipients: [{ ...newEmail(4, message(4, 1)).recipients[0], type: null as never }] };
    expect(() => store.insertMany([newEmail(3, message(3, 30_000)), broken])).toThrow(/NOT NULL/);
    expect(db.prepare('SELECT email_id FROM large.raw_messages ORDER BY email_id').pluck().all()).toEqual([1]);
    // As the write batcher then does: each email on its own.
    store.insertMany([newEmail(3, message(3, 30_000))]);
    expect(store.body(3)?.raw.equals(message(3, 30_000))).toBe(true);
    expect(store.body(1)?.raw.equals(message(1, 20_000))).toBe(true);
    db.close();
  });

  const MB = 1024 * 1024;
  const sustained = async (waitForCheckpoints: boolean) => {
    dir = mkdtempSync(join(tmpdir(), 'sendbox-large-'));
    const path = join(dir, 'sendbox.db');
    const db = openDatabase(path);
    const messages = new LargeMessages(db);
    const files = largeMessagePaths(path);
    const most = [0, 0];
    // 300 MB of 1 MB messages, one commit each: SQLite's own checkpoint (every 10 000 pages)
    // would let a WAL reach 640 MB.
    for (let id = 1; id <= 300; id++) {
      messages.insert([{ id, raw: message(id, MB) }]);
      files.forEach((file, i) => (most[i] = Math.max(most[i], statSync(`${file}-wal`).size)));
      if (waitForCheckpoints) await messages.settled();
    }
    const counts = ['large', 'large2'].map((schema) => db.prepare(`SELECT COUNT(*) FROM ${schema}.raw_messages`).pluck().get() as number);
    return { path, db, messages, files, most, counts };
  };

  it('checkpoints each file in a worker while the other is written, and each WAL starts over at ~64 MB', async () => {
    const { db, messages, files, most, counts } = await sustained(true);
    // Writes moved between the files, ~64 messages at a time.
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[1]).toBeGreaterThan(100);
    expect(counts[0] + counts[1]).toBe(300);
    for (const bytes of most) {
      expect(bytes).toBeGreaterThan(60 * MB);
      expect(bytes).toBeLessThanOrEqual(66 * MB);
    }
    // The database files hold what the worker copied out of the WALs.
    expect(statSync(files[0]).size + statSync(files[1]).size).toBeGreaterThan(200 * MB);
    await messages.close();
    db.close();
    // Every message survives the close (the last connection folds the WALs in).
    let kept = 0;
    for (const file of files) {
      expect(statSync(`${file}-wal`, { throwIfNoEntry: false })).toBeUndefined();
      const reopened = new Database(file, { readonly: true });
      kept += reopened.prepare('SELECT COUNT(*) FROM raw_messages WHERE length(raw) = ?').pluck().get(MB) as number;
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
      reopened.close();
    }
    expect(kept).toBe(300);
  });

  it('keeps writing the same file while the worker is still busy, and never lets its WAL pass four times the mark', async () => {
    const { db, messages, most, counts } = await sustained(false);
    expect(counts[0] + counts[1]).toBe(300);
    for (const bytes of most) expect(bytes).toBeLessThanOrEqual(4 * 64 * MB + 2 * MB);
    await messages.close();
    expect(db.pragma('large.integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('large2.integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('lets a store close while its worker checkpoints, and checkpoints on the event loop after that', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sendbox-large-'));
    const path = join(dir, 'sendbox.db');
    const db = openDatabase(path);
    const store = new EmailStore(db);
    for (let id = 1; id <= 70; id++) store.insertMany([newEmail(id, message(id, MB))]);
    await store.close();
    // Closed: later writes still land, and are checkpointed here.
    for (let id = 71; id <= 140; id++) store.insertMany([newEmail(id, message(id, MB))]);
    expect(statSync(`${largeMessagePaths(path)[1]}-wal`).size).toBeLessThanOrEqual(66 * MB);
    expect(store.body(140)?.raw.equals(message(140, MB))).toBe(true);
    db.close();
  });

  it('works the same in memory', () => {
    const db = openDatabase(':memory:');
    const store = new EmailStore(db);
    store.insertMany([newEmail(1, message(1, 100_000))]);
    expect(store.body(1)?.raw.equals(message(1, 100_000))).toBe(true);
    expect(db.prepare('SELECT COUNT(*) FROM large.raw_messages').pluck().get()).toBe(1);
    db.close();
  });
});
