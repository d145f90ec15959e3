// Cost of the write path per email, statement by statement, on a real database file
// with the real schema (migrations from dist/). Explains the storage share of a
// /v1/send profile.   node bench/micro-storage.mjs [--emails 20000] [--batch 64]
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', 'server', 'src', p)).href;
const { openDatabase } = await import(dist('storage/db.js'));
const { EmailStore } = await import(dist('storage/emails.js'));

const { values } = parseArgs({ options: { emails: { type: 'string', default: '20000' }, batch: { type: 'string', default: '64' } } });
const N = Number(values.emails);
const BATCH = Number(values.batch);
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-micro-'));
const RAW = Buffer.alloc(1500, 'x');
const TEXT = 'hello world '.repeat(85);

const email = (id) => ({
  id,
  teamId: 'team_bench',
  apiKeyId: 1,
  source: 'api',
  messageId: `${id}@sendbox.local`,
  fromAddress: 'bench@acme.test',
  fromName: 'Bench Sender',
  toAddresses: ['recipient@example.com'],
  subject: 'Bench 1 KB text',
  size: RAW.length,
  inline: 0,
  attachments: 0,
  snippet: TEXT.slice(0, 100),
  createdAt: Date.now(),
  metadata: { from: 'Bench Sender <bench@acme.test>', to: ['recipient@example.com'], cc: null, bcc: null, reply_to: 'bench@acme.test' },
  creditsUsed: 1,
  flags: {},
  text: TEXT,
  html: '',
  raw: RAW,
  recipients: [{ address: 'recipient@example.com', type: 'to', outcome: 'delivered', code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: Date.now() + 100 }],
});

function time(label, fn) {
  const t0 = performance.now();
  fn();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(58)} ${((ms * 1000) / N).toFixed(1).padStart(7)} µs/email`);
  return ms;
}

try {
  // 1. The real insertMany, batched as the write batcher would under load.
  {
    const db = openDatabase(join(tmp, 'a.db'));
    const store = new EmailStore(db);
    time(`EmailStore.insertMany, batches of ${BATCH}`, () => {
      for (let i = 0; i < N; i += BATCH) store.insertMany(Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => email(i + k + 1)));
    });
    time('EmailStore.indexSearch, behind ingest (up to 2000 per transaction)', () => store.indexSearch());
    time('EmailStore.insertMany, one email per transaction', () => {
      for (let i = 0; i < N; i++) store.insertMany([email(N + i + 1)]);
    });
    db.close();
  }
  // 2. Statement by statement, same schema, same batching, one table at a time.
  const db = openDatabase(join(tmp, 'b.db'));
  const stmts = {
    'emails row (with the email_counts trigger)': db.prepare(`INSERT INTO emails (id, team_id, api_key_id, source, message_id, from_address, from_name, to_addresses, subject, size, inline, attachments, snippet, created_at, metadata, status, credits_used, flags)
      VALUES (?, 'team_bench', 1, 'api', ?, 'bench@acme.test', 'Bench Sender', '["recipient@example.com"]', 'Bench 1 KB text', 1500, 0, 0, ?, ?, '{}', 'processing', 1, '{}')`),
    'email_bodies row (text + raw)': db.prepare('INSERT INTO email_bodies (email_id, text, html, raw) VALUES (?, ?, ?, ?)'),
    'recipients row': db.prepare(`INSERT INTO recipients (email_id, idx, address, type, state, outcome, outcome_code, outcome_response, outcome_delay_ms, decided_by, due_at) VALUES (?, 0, 'recipient@example.com', 'to', 'processing', 'delivered', NULL, NULL, 0, 'default', ?)`),
    'email_logs row (processing)': db.prepare(`INSERT INTO email_logs (email_id, recipient, recipient_type, status, code, response, mx_hostname, time, queued_at) VALUES (?, 'recipient@example.com', 'to', 'processing', '', '', '', ?, NULL)`),
    'email_search row (FTS5 trigram)': db.prepare('INSERT INTO email_search (rowid, subject, recipients, sender) VALUES (?, ?, ?, ?)'),
  };
  const args = {
    'emails row (with the email_counts trigger)': (id) => [id, `${id}@sendbox.local`, TEXT.slice(0, 100), Date.now()],
    'email_bodies row (text + raw)': (id) => [id, TEXT, '', RAW],
    'recipients row': (id) => [id, Date.now() + 100],
    'email_logs row (processing)': (id) => [id, Math.floor(Date.now() / 1000)],
    'email_search row (FTS5 trigram)': (id) => [id, 'Bench 1 KB text', 'recipient@example.com recipient@example.com', 'Bench Sender bench@acme.test'],
  };
  for (const [label, stmt] of Object.entries(stmts)) {
    time(`  ${label}`, () => {
      for (let i = 0; i < N; i += BATCH) {
        db.transaction(() => {
          for (let id = i + 1; id <= Math.min(N, i + BATCH); id++) stmt.run(...args[label](id));
        })();
      }
    });
  }
  time(`  empty transactions (commit cost alone, per batch of ${BATCH})`, () => {
    for (let i = 0; i < N; i += BATCH) db.transaction(() => {})();
  });
  db.close();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
