import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { EmailStore, type NewEmail } from './emails.js';

const newEmail = (id: number, teamId: string, createdAt: number, overrides: Partial<NewEmail> = {}): NewEmail => ({
  id, teamId, apiKeyId: teamId === 'team_a' ? 1 : 2, source: 'api', messageId: `${id}@t`, fromAddress: 'app@acme.test', fromName: 'Acme',
  toAddresses: [`u${id}@example.com`], subject: `subject ${id}`, size: 10, inline: 0, attachments: 0, snippet: '', createdAt,
  metadata: { from: 'app@acme.test', to: [`u${id}@example.com`], cc: null, bcc: null, reply_to: null }, creditsUsed: 1, flags: {},
  text: 't', html: '', raw: Buffer.from('raw'),
  recipients: [{ address: `u${id}@example.com`, type: 'to', outcome: 'delivered', code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: createdAt }],
  ...overrides,
});

describe('EmailStore list totals', () => {
  it('keeps the counters equal to real counts through inserts, status and read changes, deletes and pruning', () => {
    const db = openDatabase(':memory:');
    const store = new EmailStore(db);
    store.insertMany(Array.from({ length: 30 }, (_, i) => newEmail(i + 1, i % 3 === 0 ? 'team_b' : 'team_a', 1_000 + i)));
    for (let id = 1; id <= 30; id += 2) store.setStatus(id, id % 5 === 0 ? 'bounced' : 'delivered', null);
    store.markRead(2, true);
    store.markRead(4, true);
    store.deleteOne(4);
    store.pruneTo(25);
    const real = (where: string, ...params: unknown[]) => db.prepare(`SELECT COUNT(*) FROM emails ${where}`).pluck().get(...params);
    const page = { offset: 0, limit: 5 };
    expect(store.list({ teamId: 'team_a' }, page).total).toBe(real("WHERE team_id = 'team_a'"));
    expect(store.list({ teamId: 'team_b', statuses: ['delivered', 'bounced'] }, page).total).toBe(real("WHERE team_id = 'team_b' AND status IN ('delivered', 'bounced')"));
    expect(store.list({ teamId: null, isRead: false }, page).total).toBe(real('WHERE is_read = 0'));
    expect(store.list({ teamId: 'team_a', apiKeyId: 1, statuses: ['processing'] }, page).total).toBe(real("WHERE team_id = 'team_a' AND api_key_id = 1 AND status = 'processing'"));
    expect(store.teamCounts()).toEqual([
      { team_id: 'team_a', total: real("WHERE team_id = 'team_a'"), unread: real("WHERE team_id = 'team_a' AND is_read = 0") },
      { team_id: 'team_b', total: real("WHERE team_id = 'team_b'"), unread: real("WHERE team_id = 'team_b' AND is_read = 0") },
    ]);
  });

  it('turns date bounds into id ranges, inclusive at both ends', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    // Two emails share a millisecond: both belong to it.
    store.insertMany([newEmail(1, 'team_a', 1_000), newEmail(2, 'team_a', 2_000), newEmail(3, 'team_a', 2_000), newEmail(4, 'team_a', 3_000)]);
    const ids = (startMs?: number, endMs?: number) => store.list({ teamId: 'team_a', startMs, endMs }, { offset: 0, limit: 10 }).rows.map((r) => r.id);
    expect(ids(2_000, 2_000)).toEqual([3, 2]);
    expect(ids(1_500)).toEqual([4, 3, 2]);
    expect(ids(undefined, 2_999)).toEqual([3, 2, 1]);
    expect(ids(3_001)).toEqual([]);
    expect(ids(undefined, 999)).toEqual([]);
  });
});

describe('EmailStore search', () => {
  it('finds the same emails whether or not the team holds every stored email', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    store.insertMany([newEmail(1, 'team_a', 1_000), newEmail(2, 'team_a', 2_000, { subject: 'Invoice March' })]);
    const search = (teamId: string, text: string) => store.list({ teamId, search: text }, { offset: 0, limit: 10 });
    expect(search('team_a', 'invoice')).toMatchObject({ total: 1, rows: [{ id: 2 }] });
    expect(search('team_b', 'invoice')).toMatchObject({ total: 0, rows: [] });
    store.insertMany([newEmail(3, 'team_b', 3_000, { subject: 'Invoice April' })]);
    expect(search('team_a', 'invoice')).toMatchObject({ total: 1, rows: [{ id: 2 }] });
    expect(search('team_b', 'invoice')).toMatchObject({ total: 1, rows: [{ id: 3 }] });
    expect(store.list({ teamId: 'team_a', subject: 'april' }, { offset: 0, limit: 10 }).total).toBe(0);
  });
});

describe('EmailStore search rows written behind ingest', () => {
  it('answers a search right after an insert, and catches up after a restart on the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-index-'));
    try {
      const path = join(dir, 'db.sqlite');
      const db = openDatabase(path);
      const store = new EmailStore(db);
      store.insertMany([newEmail(1, 'team_a', 1_000, { subject: 'Receipt one' }), newEmail(2, 'team_a', 2_000, { subject: 'Receipt two' })]);
      // Nothing indexed yet: the query itself catches up.
      expect(db.prepare('SELECT COUNT(*) FROM email_search').pluck().get()).toBe(0);
      expect(store.list({ teamId: null, search: 'receipt' }, { offset: 0, limit: 10 }).total).toBe(2);
      // An email inserted and never indexed (a crash before the background indexer ran)...
      store.insertMany([newEmail(3, 'team_a', 3_000, { subject: 'Receipt three' })]);
      // ...and the highest indexed email deleted, so the restart's high-water mark is too low.
      store.deleteOne(2);
      db.close();
      const reopened = new EmailStore(openDatabase(path));
      expect(reopened.list({ teamId: null, search: 'receipt' }, { offset: 0, limit: 10 }).rows.map((r) => r.id)).toEqual([3, 1]);
      expect(reopened.list({ teamId: 'team_a', to: 'u3@' }, { offset: 0, limit: 10 }).total).toBe(1);
      expect(reopened.indexSearch()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('indexes SMTP envelope recipients that no header names (bcc)', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    store.insertMany([newEmail(1, 'team_a', 1_000, {
      recipients: [
        { address: 'u1@example.com', type: 'to', outcome: 'delivered', code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: 1_000 },
        { address: 'hidden@example.org', type: 'bcc', outcome: 'delivered', code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: 1_000 },
      ],
    })]);
    expect(store.indexSearch()).toBe(true);
    expect(store.list({ teamId: null, search: 'hidden@' }, { offset: 0, limit: 10 }).total).toBe(1);
  });
});

describe('EmailStore searches of one or two characters (in-memory copy)', () => {
  it('lists what the SQL scan finds, newest first, per team, through inserts, pruning and deletes', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    const words = ['Hola', 'olé', 'Invoice', 'TOOL', 'zz top', 'café', 'a@b', 'Ol'];
    let id = 0;
    const add = (n: number) => store.insertMany(Array.from({ length: n }, () => {
      id++;
      return newEmail(id, id % 3 === 0 ? 'team_b' : 'team_a', 1_000 + id, { subject: `${words[id % words.length]} ${words[(id * 7) % words.length]}`, fromName: id % 5 === 0 ? 'Ölaf' : 'Acme' });
    }));
    const check = () => {
      for (const needle of ['o', 'ol', 'OL', 'é', 'É', '@b', 'zz', 'qq', 'ö', 'Ö', ' t']) {
        for (const teamId of [null, 'team_a', 'team_b']) {
          const memory = store.list({ teamId, search: needle }, { offset: 0, limit: 100 });
          // The SQL scan: the same search with a condition the in-memory path does not take.
          const sql = store.listAscending({ teamId, search: needle, afterId: 0 }, 1000).map((r) => r.id).reverse();
          expect(memory.rows.map((r) => r.id), `${needle} in ${teamId}`).toEqual(sql);
          expect(memory.total).toBe(memory.rows.length);
        }
      }
    };
    add(40);
    check();
    add(10);
    check();
    store.pruneTo(30);
    check();
    store.deleteOne(id - 1);
    add(5);
    check();
    // Pages.
    const all = store.list({ teamId: null, search: 'o' }, { offset: 0, limit: 100 }).rows.map((r) => r.id);
    const page = store.list({ teamId: null, search: 'o' }, { offset: 3, limit: 4 });
    expect(page.rows.map((r) => r.id)).toEqual(all.slice(3, 7));
    expect(page.total).toBe(all.length);
  });
});

describe('EmailStore search-only listing', () => {
  it('pages newest first with the true total', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    store.insertMany([1, 2, 3, 4, 5, 6].map((id) => newEmail(id, 'team_a', id * 1000, { subject: id % 2 ? `Receipt ${id}` : `Other ${id}` })));
    const page = (offset: number) => store.list({ teamId: 'team_a', search: 'receipt' }, { offset, limit: 2 });
    expect(page(0)).toMatchObject({ total: 3, rows: [{ id: 5 }, { id: 3 }] });
    expect(page(2)).toMatchObject({ total: 3, rows: [{ id: 1 }] });
    expect(page(4)).toEqual({ total: 3, rows: [] });
    store.deleteOne(3);
    expect(page(0)).toMatchObject({ total: 2, rows: [{ id: 5 }, { id: 1 }] });
    expect(store.list({ teamId: null, search: 'ei' }, { offset: 0, limit: 10 }).total).toBe(2);
  });
});

describe('EmailStore short needles (below the trigram length)', () => {
  it('matches one- and two-character searches and column filters', () => {
    const store = new EmailStore(openDatabase(':memory:'));
    store.insertMany([newEmail(1, 'team_a', 1_000, { subject: 'Ok' }), newEmail(2, 'team_a', 2_000), newEmail(3, 'team_b', 3_000, { subject: 'Ok too' })]);
    const ids = (filter: Parameters<EmailStore['list']>[0]) => store.list(filter, { offset: 0, limit: 10 }).rows.map((r) => r.id);
    expect(ids({ teamId: 'team_a', search: 'ok' })).toEqual([1]);
    expect(ids({ teamId: null, search: 'OK' })).toEqual([3, 1]);
    expect(ids({ teamId: 'team_a', to: 'u2' })).toEqual([2]);
    expect(ids({ teamId: 'team_a', subject: 'k' })).toEqual([1]);
    expect(ids({ teamId: 'team_a', search: '%' })).toEqual([]);
  });
});
