// Seeds a sendbox database in bulk through the storage layer (EmailStore.insertMany from
// the built code), much faster than sending through the API. Run it while no server has
// the file open:  node bench/seed.mjs --db <file> --count 10000 [--key bench-key] [--teams 20]
// Appends after the highest existing id, so 10 000 then 90 000 more makes 100 000.
// With --teams N, the key's team gets every other email (half the mail) and N - 1 other
// teams share the rest in turn, as in a shared test environment.
import { parseArgs } from 'node:util';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(root, 'dist', 'server', 'src', p)).href;
const { openDatabase } = await import(dist('storage/db.js'));
const { EmailStore } = await import(dist('storage/emails.js'));
const { openTeamId } = await import(dist('auth/keys.js'));

const { values } = parseArgs({ options: { db: { type: 'string' }, count: { type: 'string' }, key: { type: 'string', default: 'bench-key' }, days: { type: 'string', default: '30' }, teams: { type: 'string', default: '1' } } });
if (!values.db || !values.count) {
  process.stderr.write('usage: node bench/seed.mjs --db <file> --count <n> [--key <api key>] [--days 30]\n');
  process.exit(2);
}
const count = Number(values.count);
const days = Number(values.days);
const teamId = openTeamId(values.key);
const teams = Math.max(1, Number(values.teams));
const otherTeams = Array.from({ length: teams - 1 }, (_, i) => openTeamId(`${values.key}-team-${i + 1}`));
const teamOf = (id) => (otherTeams.length === 0 || id % 2 === 0 ? teamId : otherTeams[Math.floor(id / 2) % otherTeams.length]);

const db = openDatabase(values.db);
const store = new EmailStore(db);
const firstId = store.maxId() + 1;

// Final states in realistic proportions, so the status filter selects a minority.
const STATES = [
  ...Array(80).fill('delivered'),
  ...Array(8).fill('bounced'),
  ...Array(6).fill('failed'),
  ...Array(4).fill('complaint'),
  ...Array(2).fill('queued'),
];
const SUBJECTS = ['Reset your password', 'Your order #{n} has shipped', 'Invoice {n} is ready', 'Welcome to Acme, {name}', 'Weekly digest {n}', 'Your verification code is {n}', 'Meeting notes for {name}', 'Receipt for payment {n}'];
const NAMES = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan', 'Judy'];
const RAW = Buffer.from('From: a@acme.test\r\nTo: b@example.com\r\nSubject: seeded\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\n' + 'seeded body text '.repeat(60) + '\r\n');

const now = Date.now();
const span = days * 86_400_000;
const total = firstId - 1 + count;
const t0 = performance.now();
const BATCH = 2000;
for (let start = 0; start < count; start += BATCH) {
  const batch = [];
  const finals = [];
  for (let i = start; i < Math.min(count, start + BATCH); i++) {
    const id = firstId + i;
    const name = NAMES[id % NAMES.length];
    const subject = SUBJECTS[id % SUBJECTS.length].replace('{n}', String(100000 + id)).replace('{name}', name);
    const to = `${name.toLowerCase()}.${id % 5000}@customer${id % 97}.example`;
    const state = STATES[(id * 7919) % STATES.length];
    // Spread evenly over the last `days` days, oldest first, so ids and times agree.
    const createdAt = now - span + Math.floor((span * id) / total);
    batch.push({
      id,
      teamId: teamOf(id),
      // Two keys of the one team, so the api_key_id filter has something to select.
      apiKeyId: id % 10 === 0 ? 2 : 1,
      source: id % 4 === 0 ? 'smtp' : 'api',
      messageId: `seed-${id}@sendbox.local`,
      fromAddress: `noreply@shop${id % 13}.acme.test`,
      fromName: `Acme Shop ${id % 13}`,
      toAddresses: [to],
      subject,
      size: RAW.length,
      inline: 0,
      attachments: id % 9 === 0 ? 1 : 0,
      snippet: `Hello ${name}, this is seeded email ${id}.`,
      createdAt,
      metadata: { from: `Acme Shop ${id % 13} <noreply@shop${id % 13}.acme.test>`, to: [to], cc: null, bcc: null, reply_to: null },
      creditsUsed: 1,
      flags: {},
      text: `Hello ${name}, this is seeded email ${id}.`,
      html: '',
      raw: RAW,
      // Tags for the tag: lines of the search bench: one email in 20 a newsletter, one in 7 vip.
      tags: id % 20 === 0 ? ['newsletter'] : id % 7 === 0 ? ['vip'] : [],
      recipients: [{ address: to, type: 'to', outcome: state === 'queued' ? 'delivered' : state === 'complaint' ? 'complaint' : state, code: null, response: null, delayMs: 0, decidedBy: 'default', dueAt: null }],
    });
    finals.push({ id, state, deliveredAt: state === 'delivered' || state === 'complaint' ? createdAt + 200 : null });
  }
  // Insert and settle in one transaction: the seeded emails are finished, so the
  // server's lifecycle finds nothing due when it starts.
  store.transaction(() => {
    store.insertMany(batch);
    for (const f of finals) {
      store.setStatus(f.id, f.state, f.deliveredAt);
      store.updateRecipient({ email_id: f.id, idx: 0, state: f.state, attempts: 1, due_at: null, queued_at: null });
    }
  });
}
// Search rows are written behind ingest (EmailStore.indexSearch); a seeded database is
// handed over fully indexed, as a running server would leave it.
store.indexSearch();
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const seconds = (performance.now() - t0) / 1000;
const inTeam = Array.from({ length: total }, (_, i) => teamOf(i + 1) === teamId).filter(Boolean).length;
process.stdout.write(JSON.stringify({ seeded: count, total, seconds, perSecond: count / seconds, teamId, teams, inTeam }) + '\n');
