import type Database from 'better-sqlite3';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

type Db = Database.Database;

/**
 * Raw messages of LARGE_MESSAGE_BYTES or more live in two sibling files, `<db>-large` and
 * `<db>-large-2`, whose pages are 32 KB. SQLite writes a WAL frame, and later checkpoints it,
 * with a system call or two per page: a 1.4 MB message took ~700 of them in 4 KB pages
 * (2.5 ms of CPU, mostly the kernel's) and takes ~90 in 32 KB pages. 64 KB pages halve that
 * again, but a message's last part shares a leaf page with fewer others, and what the file
 * grows by is what the kernel must find fresh memory for: a 100 KB email took 128 KB of file
 * in 64 KB pages and ~104 KB in 32 KB pages, 5-8 % more sends per second; 1 MB sends measured
 * the same (bench/README.md, issue 15). The main file keeps 4 KB pages, because every commit
 * writes its dirty index pages whole and small sends would pay for bigger ones. The files are
 * created on first open; databases written before them keep their raw messages in
 * `email_bodies`, and reads look in all three places.
 *
 * Why two: messages are written to one while the other is checkpointed by a worker thread
 * (LargeMessages below). A checkpoint is an fsync of the WAL, a copy into the database file
 * and an fsync of that; done on the event loop it blocked sends for ~0.1 ms each, waiting
 * on the disk. A checkpoint can only finish, and the WAL start over, while nothing writes to
 * that file; with one file written without pause a background checkpoint never catches up
 * and the WAL grew to 900 MB.
 */
export const LARGE_MESSAGE_BYTES = 16 * 1024;
export const LARGE_PAGE_BYTES = 32768;

/** The files' schema names on the connection, in the order of largeMessagePaths. */
export const LARGE_SCHEMAS = ['large', 'large2'] as const;

export const largeMessagePaths = (path: string): string[] => (path === ':memory:' ? [':memory:', ':memory:'] : [`${path}-large`, `${path}-large-2`]);

/** Joins, to a query over `email_bodies b`, the large messages of its rows (RAW_OF_BODY reads them). */
export const LARGE_JOIN = LARGE_SCHEMAS.map((schema, i) => `LEFT JOIN ${schema}.raw_messages l${i} ON l${i}.email_id = b.email_id`).join(' ');
/** The raw message of body row `b`, wherever it is kept (needs LARGE_JOIN). */
export const RAW_OF_BODY = `COALESCE(${LARGE_SCHEMAS.map((_, i) => `l${i}.raw`).join(', ')}, b.raw)`;

export function attachLargeMessages(db: Db, path: string): void {
  largeMessagePaths(path).forEach((file, i) => {
    const schema = LARGE_SCHEMAS[i];
    db.prepare(`ATTACH DATABASE ? AS ${schema}`).run(file);
    // Only takes effect before the file's first table: an existing file keeps its page size.
    db.pragma(`${schema}.page_size = ${LARGE_PAGE_BYTES}`);
    db.pragma(`${schema}.journal_mode = WAL`);
    db.pragma(`${schema}.synchronous = NORMAL`);
    // Raw messages are read one at a time and whole: the OS cache serves them as well.
    db.pragma(`${schema}.cache_size = -2000`);
    db.exec(`CREATE TABLE IF NOT EXISTS ${schema}.raw_messages (email_id INTEGER PRIMARY KEY, raw BLOB NOT NULL)`);
    // A large message is committed here before its email row is committed in the main file
    // (EmailStore.insertMany), so a crash between the two leaves a message no email points
    // to, above the highest id. Its id would be handed out again: drop it.
    db.prepare(`DELETE FROM ${schema}.raw_messages WHERE email_id > (SELECT COALESCE(MAX(id), 0) FROM main.emails)`).run();
  });
}

/**
 * Writes large messages, and keeps the files' WALs near 64 MB (CHECKPOINT_PAGES): SQLite's
 * automatic checkpoint waits for 10 000 pages, 320 MB in 32 KB pages. Pages are counted as
 * each message's overflow pages plus its share of leaf and interior pages. When the file
 * being written reaches the mark, writes move to the other file and a worker thread
 * checkpoints this one; its WAL starts over at the next write to it. In memory there is no
 * WAL, and no worker.
 */
export class LargeMessages {
  private active = 0;
  private pages = 0;
  /** The file the worker is checkpointing, if any, and what resolves when it is done. */
  private checkpointing: number | null = null;
  private done: { promise: Promise<void>; resolve: () => void } | null = null;
  private worker: Worker | null = null;
  /** The worker failed (or could not start): checkpoints are done here, on the event loop. */
  private inline = false;
  private readonly inserts;
  private readonly paths: string[] | null;

  constructor(private readonly db: Db) {
    // OR REPLACE: a message left behind by a deletion cut short by a crash may hold an id again.
    this.inserts = LARGE_SCHEMAS.map((schema) => db.prepare(`INSERT OR REPLACE INTO ${schema}.raw_messages (email_id, raw) VALUES (?, ?)`));
    this.paths = db.memory ? null : largeMessagePaths(db.name);
  }

  /** Commits these messages, in one transaction, to the file being written. */
  insert(messages: { id: number; raw: Buffer }[]): void {
    const insert = this.inserts[this.active];
    this.db.transaction(() => {
      for (const { id, raw } of messages) insert.run(id, raw);
    })();
    for (const { raw } of messages) this.pages += Math.ceil(raw.length / LARGE_PAGE_BYTES) + 1;
    this.pages += 1;
    if (this.pages >= CHECKPOINT_PAGES) this.checkpoint();
  }

  /** Removes these messages from both files unless an email holds them (a batch that failed). */
  takeBack(ids: number[]): void {
    const list = ids.map(() => '?').join(', ');
    for (const schema of LARGE_SCHEMAS) {
      this.db.prepare(`DELETE FROM ${schema}.raw_messages WHERE email_id IN (${list}) AND email_id NOT IN (SELECT id FROM main.emails)`).run(...ids);
    }
  }

  /** Resolves when no checkpoint is under way in the worker. */
  async settled(): Promise<void> {
    await this.done?.promise;
  }

  /** Waits for a checkpoint under way and stops the worker; call before closing the database. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.inline = true;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('close');
    await exited;
    this.checkpointEnded();
  }

  private checkpoint(): void {
    if (this.paths === null || this.inline) {
      this.pages = 0;
      if (this.paths !== null) this.db.pragma(`${LARGE_SCHEMAS[this.active]}.wal_checkpoint(PASSIVE)`);
      return;
    }
    if (this.checkpointing !== null) {
      // The worker is still on the other file (a slow disk): keep writing this one, and only
      // if that goes on for four times the mark, checkpoint here rather than let the WAL grow.
      if (this.pages >= 4 * CHECKPOINT_PAGES) {
        this.pages = 0;
        this.db.pragma(`${LARGE_SCHEMAS[this.active]}.wal_checkpoint(PASSIVE)`);
      }
      return;
    }
    const worker = this.worker ?? this.startWorker(this.paths);
    if (!worker) return this.checkpoint();
    this.checkpointing = this.active;
    this.active = 1 - this.active;
    this.pages = 0;
    let resolve = () => {};
    this.done = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    worker.postMessage(this.checkpointing);
  }

  private startWorker(paths: string[]): Worker | null {
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(CHECKPOINT_WORKER, { eval: true, workerData: { driver, paths } });
      worker.unref();
      // A checkpoint that fails inside the worker (busy, I/O) is retried at the file's next
      // turn, as SQLite's own would be; if the worker itself dies, checkpoints come back here.
      worker.on('message', () => this.checkpointEnded());
      worker.on('error', () => this.stopWorker(worker));
      worker.on('exit', () => this.stopWorker(worker));
      this.worker = worker;
      return worker;
    } catch {
      this.inline = true;
      return null;
    }
  }

  private checkpointEnded(): void {
    this.checkpointing = null;
    this.done?.resolve();
    this.done = null;
  }

  private stopWorker(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.inline = true;
    this.checkpointEnded();
  }
}

const CHECKPOINT_PAGES = (64 * 1024 * 1024) / LARGE_PAGE_BYTES;

/**
 * The worker: its own connection to each file, a PASSIVE checkpoint of the one it is sent
 * (nothing writes to it meanwhile, so the checkpoint takes every frame and the WAL starts
 * over at the next write), `close` to close them. CommonJS, as eval'd workers are; the
 * driver is required by its resolved path, which holds wherever sendbox is installed.
 */
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = workerData.paths.map((path) => {
  const db = new Database(path, { fileMustExist: true });
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
});
parentPort.on('message', (message) => {
  if (message === 'close') {
    for (const db of files) db.close();
    parentPort.close();
    return;
  }
  let result = null;
  try {
    result = files[message].pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (error) {
    result = { error: String(error) };
  }
  parentPort.postMessage(result);
});
`;
