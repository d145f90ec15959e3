import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { LARGE_JOIN, LARGE_SCHEMAS, RAW_OF_BODY, largeMessagePaths } from '../../../src/storage/large-messages.js';

/**
 * A storm of concurrent sends (API and SMTP) that remembers exactly what was
 * acknowledged, and the checks that a database holds all of it, whole.
 */
export interface Acked {
  id: string;
  via: 'api' | 'large' | 'smtp';
  subject: string;
  to: string[];
  /** Bytes the server received (SMTP), or null (the API composes the message itself). */
  size: number | null;
  /** A token in the body, to prove the content is the one sent. */
  marker: string;
}

export interface Storm {
  acked: Acked[];
  /** Requests that failed (expected once the server is killed). */
  failed: number;
  stop(): Promise<void>;
}

/**
 * Starts `apiWorkers` + `smtpWorkers` loops sending as fast as the server answers, and
 * `largeWorkers` API loops sending 1 MB attachments: ~45 of those fill a large-message file's
 * WAL mark, so a kill finds writes moved to the other file and the worker checkpointing.
 */
export function startStorm(opts: { httpUrl: string; smtpPort: number; key: string; apiWorkers: number; smtpWorkers: number; largeWorkers?: number; tag: string }): Storm {
  const acked: Acked[] = [];
  const megabyte = randomBytes(1024 * 1024).toString('base64');
  let failed = 0;
  let running = true;
  let n = 0;

  const apiLoop = async (worker: number, large = false) => {
    while (running) {
      const i = n++;
      const marker = `m-${opts.tag}-${i}-${randomBytes(4).toString('hex')}`;
      const to = Array.from({ length: 1 + (i % 3) }, (_, r) => `api${worker}-${i}-${r}@crash.test`);
      const subject = `${large ? 'large' : 'api'} ${opts.tag} ${i} ünï`;
      const content = large ? megabyte : i % 5 === 0 ? randomBytes(2048 + (i % 7) * 1000).toString('base64') : null;
      const attachments = content === null ? undefined : [{ filename: `f${i}.bin`, content, contentType: 'application/octet-stream' }];
      try {
        const res = await fetch(`${opts.httpUrl}/v1/send`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${opts.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ to, subject, body: `<p>${marker}</p>${'x'.repeat(i % 11 * 300)}`, attachments }),
        });
        const body = (await res.json()) as { data?: { email_id: string }[] };
        if (res.status === 200 && body.data?.[0]) acked.push({ id: body.data[0].email_id, via: large ? 'large' : 'api', subject, to, size: null, marker });
        else failed++;
      } catch {
        failed++;
      }
    }
  };

  const smtpLoop = async (worker: number) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: opts.smtpPort, secure: false, auth: { user: 'storm', pass: opts.key }, pool: true, maxConnections: 1, maxMessages: Infinity });
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    try {
      while (running) {
        const i = n++;
        const marker = `m-${opts.tag}-${i}-${randomBytes(4).toString('hex')}`;
        const to = [`smtp${worker}-${i}@crash.test`];
        const subject = `smtp ${opts.tag} ${i}`;
        try {
          const built = await composer.sendMail({ from: 'storm@crash.test', to, subject, text: `${marker}\n${'y'.repeat(i % 13 * 200)}` });
          const message = built.message as Buffer;
          const info = await transport.sendMail({ envelope: built.envelope, raw: message });
          const id = /queued as ([0-9a-f]+)/.exec(info.response)?.[1];
          if (!id) {
            failed++;
            continue;
          }
          const size = message.length + (message.subarray(-2).toString() === '\r\n' ? 0 : 2);
          acked.push({ id, via: 'smtp', subject, to, size, marker });
        } catch {
          failed++;
          // The server is gone: back off a little rather than spin on connection errors.
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    } finally {
      transport.close();
    }
  };

  const loops = [
    ...Array.from({ length: opts.apiWorkers }, (_, w) => apiLoop(w)),
    ...Array.from({ length: opts.largeWorkers ?? 0 }, (_, w) => apiLoop(opts.apiWorkers + w, true)),
    ...Array.from({ length: opts.smtpWorkers }, (_, w) => smtpLoop(w)),
  ];
  return {
    acked,
    get failed() {
      return failed;
    },
    async stop() {
      running = false;
      await Promise.allSettled(loops);
    },
  };
}

/** Structural problems in a sendbox database: half-written emails, orphans, counters off. */
export function databaseProblems(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    // Raw messages of 16 KB and more live in the sibling files (storage/large-messages.ts).
    largeMessagePaths(dbPath).forEach((file, i) => db.prepare(`ATTACH DATABASE ? AS ${LARGE_SCHEMAS[i]}`).run(file));
    const one = (sql: string) => db.prepare(sql).pluck().get() as number | string;
    const problems: string[] = [];
    const checks: [string, string][] = [
      ['emails without a body row', 'SELECT COUNT(*) FROM emails e WHERE NOT EXISTS (SELECT 1 FROM email_bodies b WHERE b.email_id = e.id)'],
      ['emails without recipients', 'SELECT COUNT(*) FROM emails e WHERE NOT EXISTS (SELECT 1 FROM recipients r WHERE r.email_id = e.id)'],
      ['emails without a processing log', "SELECT COUNT(*) FROM emails e WHERE NOT EXISTS (SELECT 1 FROM email_logs l WHERE l.email_id = e.id AND l.status = 'processing')"],
      ['recipients without a log', 'SELECT COUNT(*) FROM recipients r WHERE NOT EXISTS (SELECT 1 FROM email_logs l WHERE l.email_id = r.email_id AND l.recipient = r.address)'],
      ['bodies without an email', 'SELECT COUNT(*) FROM email_bodies b WHERE NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = b.email_id)'],
      ['recipients without an email', 'SELECT COUNT(*) FROM recipients r WHERE NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = r.email_id)'],
      ['logs without an email', 'SELECT COUNT(*) FROM email_logs l WHERE NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = l.email_id)'],
      [
        'sizes that differ from the raw message',
        // A generated text part is not stored (storage/body-spans.ts): the message is short by its span.
        `SELECT COUNT(*) FROM emails e JOIN email_bodies b ON b.email_id = e.id ${LARGE_JOIN}
          WHERE e.size != length(${RAW_OF_BODY}) + IFNULL(IIF(b.spans ->> '$.text.generated' IS NULL, 0, (b.spans ->> '$.text.end') - (b.spans ->> '$.text.start')), 0)`,
      ],
      ...LARGE_SCHEMAS.map((schema): [string, string] => [`large messages kept twice (${schema})`,
        `SELECT COUNT(*) FROM email_bodies b JOIN ${schema}.raw_messages l ON l.email_id = b.email_id WHERE length(b.raw) > 0`]),
      ['large messages in both files', 'SELECT COUNT(*) FROM large.raw_messages a JOIN large2.raw_messages b ON a.email_id = b.email_id'],
      // A large message is committed before its email: a kill in between leaves one above
      // the highest id (dropped at the next open), never one below it.
      ...LARGE_SCHEMAS.map((schema): [string, string] => [`large messages without an email (${schema})`,
        `SELECT COUNT(*) FROM ${schema}.raw_messages l WHERE l.email_id <= (SELECT MAX(id) FROM emails) AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = l.email_id)`]),
      // Search rows are written behind ingest, oldest first: a kill can leave a tail of
      // emails unindexed (caught up at the next search), never a gap or an orphan.
      ['search rows without an email', 'SELECT COUNT(*) FROM email_search s WHERE NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = s.rowid)'],
      ['unindexed emails below the indexed ones', 'SELECT COUNT(*) FROM emails e WHERE e.id < (SELECT MAX(rowid) FROM email_search) AND NOT EXISTS (SELECT 1 FROM email_search s WHERE s.rowid = e.id)'],
      ['counter total that differs from emails', 'SELECT ABS(COALESCE((SELECT SUM(n) FROM email_counts), 0) - (SELECT COUNT(*) FROM emails))'],
      [
        'counter groups that differ from emails',
        `SELECT COUNT(*) FROM (SELECT team_id, api_key_id, status, is_read, COUNT(*) AS n FROM emails GROUP BY 1, 2, 3, 4) a
           LEFT JOIN (SELECT team_id, api_key_id, status, is_read, SUM(n) AS n FROM email_counts GROUP BY 1, 2, 3, 4) c USING (team_id, api_key_id, status, is_read)
          WHERE c.n IS NOT a.n`,
      ],
    ];
    for (const [what, sql] of checks) {
      const count = Number(one(sql));
      if (count !== 0) problems.push(`${what}: ${count}`);
    }
    for (const schema of ['main', ...LARGE_SCHEMAS]) {
      const integrity = one(`PRAGMA ${schema}.integrity_check`);
      if (integrity !== 'ok') problems.push(`${schema} integrity_check: ${integrity}`);
    }
    return problems;
  } finally {
    db.close();
  }
}

/** Emails still on their way (processing or queued). */
export function unfinished(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT COUNT(*) FROM emails WHERE status IN ('processing', 'queued')").pluck().get() as number;
  } finally {
    db.close();
  }
}
