import type Database from 'better-sqlite3';

type Db = Database.Database;

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

export function attachLargeMessages(db: Db, path: string): void {
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

/**
 * SQLite's automatic checkpoint waits for 10 000 pages (640 MB of WAL in 64 KB pages), so the
 * large messages' file is checkpointed after about 1 000 pages instead (64 MB), counted as each
 * message's overflow pages plus its share of leaf and interior pages; the WAL then starts over.
 * The checkpoint costs what writing the bytes to disk costs (its fsync): ~1.5 ms per 1 MB here,
 * whatever the interval (256 MB measured the same), so the interval only bounds the WAL's size.
 */
export class LargeMessageCheckpoints {
  private pages = 0;

  constructor(private readonly db: Db) {}

  /** After a commit of these messages to the large file. */
  wrote(sizes: number[]): void {
    for (const bytes of sizes) this.pages += Math.ceil(bytes / LARGE_PAGE_BYTES) + 1;
    this.pages += 1;
    if (this.pages < CHECKPOINT_PAGES) return;
    this.pages = 0;
    this.db.pragma('large.wal_checkpoint(PASSIVE)');
  }
}

const CHECKPOINT_PAGES = 1000;
