#!/usr/bin/env node
// Load and endurance run against the BUILT server (npm run build:server first):
// 200 concurrent clients for 60 s — API sends, SMTP sends (nodemailer), inbox reads
// (/sandbox/emails and /v1/emails) and SSE listeners on /sandbox/events — with
// --max-emails pruning active the whole time, while hostile clients misbehave beside
// them: slowloris HTTP headers, silent SMTP sessions, idle keep-alive sockets and
// 100 MiB uploads. Checks: 0 errors, 0 SQLITE_BUSY, RSS flat, every SSE listener got
// every event, slow sockets closed at their timeouts, oversized bodies refused before
// they are read, the newest N emails all present in order, the database file bounded.
//
//   node scripts/load.mjs [--duration 60] [--clients 200] [--think-ms 200] [--max-emails 2000] [--json report.json]
import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    clients: { type: 'string', default: '200' },
    'max-emails': { type: 'string', default: '2000' },
    'smtp-timeout-ms': { type: 'string', default: '15000' },
    'think-ms': { type: 'string', default: '200' },
    json: { type: 'string' },
    main: { type: 'string' },
    'node-flags': { type: 'string', default: '' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('usage: node scripts/load.mjs [--duration 60] [--clients 200] [--think-ms 200] [--max-emails 2000] [--smtp-timeout-ms 15000] [--json report.json] [--main dist/sendbox.mjs]');
  process.exit(0);
}
const DURATION_MS = Number(values.duration) * 1000;
const CLIENTS = Number(values.clients);
const MAX_EMAILS = Number(values['max-emails']);
const SMTP_TIMEOUT_MS = Number(values['smtp-timeout-ms']);
// Each client pauses this long between requests: heavy load that still leaves the server
// able to answer (--think-ms 0 saturates it, and then nothing, timeouts included, is on time).
const THINK_MS = Number(values['think-ms']);
// What the built server uses (server/src/http/client-errors.ts HTTP_TIMEOUTS).
const HEADERS_TIMEOUT_MS = 20_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
// The WAL's checkpoint interval (server/src/storage/db.ts), plus one batch past it.
const WAL_CAP_BYTES = 10_000 * 4096 + 8 * 1024 * 1024;
const MAIN = values.main ?? join(root, 'dist', 'sendbox.mjs');
if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: run npm run build:server first`);
  process.exit(2);
}

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

// --- the server ------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'sendbox-load-'));
const db = join(dir, 'sendbox.db');
// On a machine with taskset, the server gets core 0 and this load generator core 1, so
// the server never competes with its own load (as bench/ does).
let pinned = false;
try {
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  pinned = true;
} catch {
  // no taskset: unpinned
}
const serverArgs = [...values['node-flags'].split(' ').filter(Boolean), MAIN, '--port', '0', '--smtp-port', '0', '--db', db, '--max-emails', String(MAX_EMAILS), '--smtp-timeout-ms', String(SMTP_TIMEOUT_MS), '--smtp-max-clients', '1000'];
const child = pinned ? spawn('taskset', ['-c', '0', process.execPath, ...serverArgs], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, serverArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const { url, smtpPort } = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /sendbox ready {2}(http:\/\/\S+) {2}smtp:\/\/\S+:(\d+)/.exec(out);
    if (m) resolve({ url: m[1], smtpPort: Number(m[2]) });
  });
  child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
});
const { port: httpPort, hostname } = new URL(url);
const started = Date.now();
const since = () => Date.now() - started;

// RSS and file size, sampled every second.
const samples = [];
const sampler = setInterval(() => {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024;
    const bytes = [db, `${db}-wal`, `${db}-shm`, `${db}-large`, `${db}-large-wal`, `${db}-large-shm`, `${db}-large-2`, `${db}-large-2-wal`, `${db}-large-2-shm`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
    const wal = existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0;
    samples.push({ t: since(), rss, bytes, wal });
  } catch {
    // the process is gone
  }
}, 1000);

// --- clients ---------------------------------------------------------------------------

const share = { api: 0.45, smtp: 0.2, read: 0.2, sse: 0.15 };
const counts = { api: Math.round(CLIENTS * share.api), smtp: Math.round(CLIENTS * share.smtp), read: Math.round(CLIENTS * share.read) };
counts.sse = CLIENTS - counts.api - counts.smtp - counts.read;
const KEYS = Array.from({ length: 10 }, (_, i) => `load-key-${String(i).padStart(4, '0')}`);
const stats = Object.fromEntries(['api', 'smtp', 'read'].map((k) => [k, { ok: 0, errors: 0, examples: [], latencies: [] }]));
const record = (kind, t0, error) => {
  const s = stats[kind];
  if (error) {
    s.errors++;
    if (s.examples.length < 5) s.examples.push(String(error).slice(0, 200));
  } else {
    s.ok++;
    s.latencies.push(Date.now() - t0);
  }
};
let running = true;
// Jittered, so the clients do not march in step.
const think = () => (THINK_MS > 0 ? sleep(THINK_MS * (0.5 + Math.random())) : Promise.resolve());

/** SSE listener: counts email.created events and keeps listener 0's ids in order. */
function sseListener(index) {
  const controller = new AbortController();
  const listener = { created: 0, deleted: 0, ids: index === 0 ? [] : null, deletedIds: index === 0 ? new Set() : null, broken: null, ready: null, done: null };
  let markReady;
  listener.ready = new Promise((r) => (markReady = r));
  listener.done = (async () => {
    try {
      const res = await fetch(`${url}/sandbox/events`, { signal: controller.signal });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        markReady();
        buffer += decoder.decode(value, { stream: true });
        let split;
        while ((split = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const type = /^event: (.+)$/m.exec(block)?.[1];
          if (type === 'email.created') {
            listener.created++;
            if (listener.ids) listener.ids.push(JSON.parse(/^data: (.+)$/m.exec(block)[1]).data.id);
          } else if (type === 'email.deleted') {
            listener.deleted++;
            if (listener.deletedIds) listener.deletedIds.add(JSON.parse(/^data: (.+)$/m.exec(block)[1]).data.id);
          }
        }
      }
      if (running) listener.broken = 'stream ended during the run';
    } catch (error) {
      if (running) listener.broken = String(error);
    } finally {
      markReady();
    }
  })();
  listener.close = () => controller.abort();
  return listener;
}

async function apiWorker(w) {
  let i = 0;
  while (running) {
    const n = i++;
    const t0 = Date.now();
    try {
      const attachments = n % 10 === 0 ? [{ filename: 'report.pdf', content: Buffer.alloc(4000 + (n % 50) * 100, n % 256).toString('base64'), contentType: 'application/pdf' }] : undefined;
      const res = await fetch(`${url}/v1/send`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS[w % KEYS.length]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ to: [`user${w}-${n}@load.test`, ...(n % 3 === 0 ? [`cc${n}@load.test`] : [])], subject: `load ${w}-${n}`, body: n % 2 ? `<p>Hello ${n}, your code is ${100000 + n}</p><a href="https://example.com/r/${n}">reset</a>` : `plain ${n} `.repeat(20 + (n % 30)), attachments }),
      });
      await res.arrayBuffer();
      record('api', t0, res.status === 200 ? null : `HTTP ${res.status}`);
    } catch (error) {
      record('api', t0, error);
    }
    await think();
  }
}

async function smtpWorker(w) {
  const transport = nodemailer.createTransport({ host: hostname, port: smtpPort, secure: false, auth: { user: 'load', pass: KEYS[w % KEYS.length] }, pool: true, maxConnections: 1, maxMessages: Infinity });
  let i = 0;
  while (running) {
    const n = i++;
    const t0 = Date.now();
    try {
      const info = await transport.sendMail({ from: `app${w}@load.test`, to: `smtp${w}-${n}@load.test`, subject: `smtp load ${w}-${n}`, text: `message ${n}\n`.repeat(10 + (n % 40)), html: n % 2 ? `<p>message <b>${n}</b></p>` : undefined });
      record('smtp', t0, /^250 /.test(info.response) ? null : info.response);
    } catch (error) {
      record('smtp', t0, error);
    }
    await think();
  }
  transport.close();
}

async function readWorker(w) {
  const key = KEYS[w % KEYS.length];
  let i = 0;
  while (running) {
    const op = i++ % 4;
    const t0 = Date.now();
    try {
      if (op === 0 || op === 1) {
        const list = await (await fetch(`${url}/sandbox/emails?limit=20${op === 1 ? '&search=load' : ''}`)).json();
        const first = list.data.data[0];
        if (first) {
          const res = await fetch(`${url}/sandbox/emails/${first.id}`);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`sandbox read ${res.status}`);
        }
      } else if (op === 2) {
        const list = await fetch(`${url}/v1/emails?limit=20&status=delivered,processing,queued`, { headers: { Authorization: `Bearer ${key}` } });
        const body = await list.json();
        if (list.status !== 200) throw new Error(`v1 list ${list.status}`);
        const first = body.data.data[0];
        if (first) {
          const res = await fetch(`${url}/v1/emails/${first.id}/logs`, { headers: { Authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`v1 logs ${res.status}`);
        }
      } else {
        const res = await fetch(`${url}/sandbox/teams`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`teams ${res.status}`);
      }
      record('read', t0, null);
    } catch (error) {
      record('read', t0, error);
    }
    await think();
  }
}

// --- hostile clients -------------------------------------------------------------------

/** Opens a raw socket; resolves with when it closed and what the server wrote. */
function rawSocket(port, onOpen) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = connect(port, hostname);
    let text = '';
    let written = 0;
    let firstDataMs = null;
    let connectedMs = null;
    socket.on('connect', () => { connectedMs = Date.now() - t0; });
    socket.on('data', (d) => {
      firstDataMs ??= Date.now() - t0;
      text += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - t0, firstDataMs, connectedMs, text, written }));
    socket.on('connect', () => onOpen(socket, (chunk) => {
      if (socket.destroyed) return false;
      written += chunk.length;
      socket.write(chunk);
      return true;
    }, () => text));
  });
}

const slowloris = () =>
  rawSocket(httpPort, async (socket, write) => {
    const request = `GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'s'.repeat(1000)}\r\n\r\n`;
    for (const ch of request) {
      if (!write(ch)) return;
      await sleep(500);
    }
  });

const silentSmtp = () => rawSocket(smtpPort, () => {});

const idleKeepAlive = () =>
  rawSocket(httpPort, (socket, write) => {
    write('GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });

const oversized = () =>
  new Promise((resolve) => {
    const t0 = Date.now();
    let answeredAfter = null;
    let sentWhenAnswered = null;
    rawSocket(httpPort, async (socket, write, text) => {
      write(`POST /v1/send HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEYS[0]}\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"to":"`);
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      while (running && !socket.destroyed) {
        if (answeredAfter === null && /\r\n\r\n\{/.test(text())) {
          answeredAfter = Date.now() - t0;
          sentWhenAnswered = sent;
        }
        if (!write(chunk)) break;
        sent += chunk.length;
        await sleep(100);
      }
    }).then((r) => resolve({ ...r, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(r.text)?.[1] ?? 0), answeredAfter: answeredAfter ?? r.closedAfterMs, sentWhenAnswered: sentWhenAnswered ?? r.written }));
  });

// --- the run ---------------------------------------------------------------------------

const listeners = Array.from({ length: counts.sse }, (_, i) => sseListener(i));
await Promise.all(listeners.map((l) => l.ready));
console.log(`load: ${CLIENTS} clients (${counts.api} API senders, ${counts.smtp} SMTP senders, ${counts.read} inbox readers, ${counts.sse} SSE listeners) for ${DURATION_MS / 1000} s against ${url}, --max-emails ${MAX_EMAILS}`);

const workers = [
  ...Array.from({ length: counts.api }, (_, w) => apiWorker(w)),
  ...Array.from({ length: counts.smtp }, (_, w) => smtpWorker(w)),
  ...Array.from({ length: counts.read }, (_, w) => readWorker(w)),
];
// The hostile ones start once the load is up.
await sleep(Math.min(5000, DURATION_MS / 6));
const rssBeforeOversized = samples.at(-1)?.rss ?? 0;
const hostile = {
  slowloris: Promise.all(Array.from({ length: 10 }, slowloris)),
  silentSmtp: Promise.all(Array.from({ length: 10 }, silentSmtp)),
  idle: Promise.all(Array.from({ length: 20 }, idleKeepAlive)),
  oversized: Promise.all(Array.from({ length: 3 }, oversized)),
};
// How long the server takes to answer a trivial request under this load: the slack
// allowed on top of each timeout before a socket counts as not closed on time.
const probes = [];
const prober = setInterval(async () => {
  const t0 = Date.now();
  try {
    await (await fetch(`${url}/sandbox/health`)).arrayBuffer();
    probes.push(Date.now() - t0);
  } catch {
    probes.push(Infinity);
  }
}, 500);
const progress = setInterval(() => {
  const s = samples.at(-1);
  console.log(`  ${(since() / 1000).toFixed(0)} s: ${stats.api.ok} API + ${stats.smtp.ok} SMTP sends, ${stats.read.ok} reads, errors ${stats.api.errors + stats.smtp.errors + stats.read.errors}, RSS ${s ? mib(s.rss) : '?'} MiB, db ${s ? mib(s.bytes) : '?'} MiB`);
}, 10_000);
await sleep(Math.max(0, DURATION_MS - since()));
running = false;
clearInterval(progress);
clearInterval(prober);
await Promise.all(workers);
const loadEnded = since();

// Quiet: let the last lifecycles finish, then the listeners catch up.
const ro = new Database(db, { readonly: true, fileMustExist: true });
const pending = () => ro.prepare("SELECT COUNT(*) FROM emails WHERE status IN ('processing', 'queued')").pluck().get();
for (let i = 0; i < 600 && pending() > 0; i++) await sleep(100);
check(pending() === 0, 'lifecycles still pending 60 s after the load');
const acked = stats.api.ok + stats.smtp.ok;
for (let i = 0; i < 300 && listeners.some((l) => l.created < acked); i++) await sleep(100);
const hostileResults = {
  slowloris: await hostile.slowloris,
  silentSmtp: await hostile.silentSmtp,
  idle: await hostile.idle,
  oversized: await hostile.oversized,
};
for (const l of listeners) l.close();
await Promise.all(listeners.map((l) => l.done));
clearInterval(sampler);

// --- checks ----------------------------------------------------------------------------

const pct = (arr, p) => {
  if (arr.length === 0) return 0;
  const sorted = [...arr].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const errors = stats.api.errors + stats.smtp.errors + stats.read.errors;
check(errors === 0, `${errors} client errors`);
const busy = (stderr.match(/SQLITE_BUSY|database is locked/g) ?? []).length;
check(busy === 0, `${busy} SQLITE_BUSY in the server log`);
const errorLines = stderr.split('\n').filter((l) => / ERROR /.test(l));
check(errorLines.length === 0, `${errorLines.length} ERROR lines in the server log`);
check(listeners.every((l) => !l.broken), `SSE streams broken: ${listeners.filter((l) => l.broken).map((l) => l.broken).join('; ')}`);
check(listeners.every((l) => l.created === acked), `SSE listeners saw ${[...new Set(listeners.map((l) => l.created))].join('/')} email.created events for ${acked} acknowledged sends`);

// Memory flat: the last fifth of the run against the second fifth (after warm-up).
const during = samples.filter((s) => s.t <= loadEnded);
const fifth = (k) => during.slice(Math.floor((k * during.length) / 5), Math.floor(((k + 1) * during.length) / 5));
const mean = (xs) => xs.reduce((n, s) => n + s.rss, 0) / Math.max(1, xs.length);
const rssEarly = mean(fifth(1));
const rssLate = mean(fifth(4));
const rssPeak = Math.max(...during.map((s) => s.rss));
check(rssLate <= rssEarly * 1.25 + 32 * 1024 * 1024, `RSS grew from ${mib(rssEarly)} to ${mib(rssLate)} MiB`);

// Retention: the newest N, in order, and everything older pruned and announced.
const created = listeners[0].ids;
const newest = created.slice(-MAX_EMAILS);
const listed = [];
for (let page = 1; ; page++) {
  const res = await (await fetch(`${url}/sandbox/emails?limit=100&page=${page}`)).json();
  listed.push(...res.data.data.map((e) => e.id));
  if (res.data.data.length < 100) break;
}
check(JSON.stringify(listed) === JSON.stringify([...newest].reverse()), `the inbox does not hold exactly the newest ${MAX_EMAILS} in order (${listed.length} listed)`);
const prunedNewest = newest.filter((id) => listeners[0].deletedIds.has(id)).length;
check(prunedNewest === 0, `${prunedNewest} of the newest ${MAX_EMAILS} were pruned`);
const pruned = Math.max(0, created.length - MAX_EMAILS);
check(listeners[0].deleted === pruned, `${listeners[0].deleted} email.deleted events for ${pruned} pruned`);
const integrity = ro.prepare('PRAGMA integrity_check').pluck().get();
check(integrity === 'ok', `integrity_check: ${integrity}`);
const stored = ro.prepare('SELECT COUNT(*) FROM emails').pluck().get();
check(stored === Math.min(MAX_EMAILS, created.length), `${stored} emails stored`);
ro.close();
// The file stops growing once retention prunes: from a third of the run on, it stays within 1.5×.
const third = during.find((s) => s.t >= loadEnded / 3) ?? during[0];
const bytesAtThird = third?.bytes ?? 0;
const bytesPeak = Math.max(...samples.filter((s) => s.t >= (third?.t ?? 0)).map((s) => s.bytes));
// The WAL grows to its checkpoint interval under load (10 000 pages, server/src/storage/db.ts)
// whatever retention does; the database it is checkpointed into must stay bounded.
const walPeak = Math.max(...samples.map((s) => s.wal));
check(walPeak <= WAL_CAP_BYTES, `WAL reached ${mib(walPeak)} MiB (cap ${mib(WAL_CAP_BYTES)} MiB)`);

// Slow and idle sockets closed at their timeouts (+ Node's 1 s sweep + what answering takes under load).
const slack = 1000 + 2000 + pct(probes, 99);
const range = (xs) => `${(Math.min(...xs) / 1000).toFixed(1)}–${(Math.max(...xs) / 1000).toFixed(1)} s`;
const lorisClose = hostileResults.slowloris.map((r) => r.closedAfterMs);
check(hostileResults.slowloris.every((r) => r.closedAfterMs <= HEADERS_TIMEOUT_MS + slack && /^HTTP\/1\.1 408/.test(r.text) && /"status":408/.test(r.text)), `slowloris sockets closed after ${range(lorisClose)} (allowed ${((HEADERS_TIMEOUT_MS + slack) / 1000).toFixed(1)} s): ${hostileResults.slowloris.map((r) => JSON.stringify(r.text.slice(-60))).join(' | ')}`);
// Silent SMTP: from the greeting; idle keep-alive: from the answer to its one request.
const smtpClose = hostileResults.silentSmtp.map((r) => r.closedAfterMs - (r.firstDataMs ?? 0));
check(hostileResults.silentSmtp.every((r, i) => smtpClose[i] <= SMTP_TIMEOUT_MS + slack && /\r\n421 /.test(r.text)), `silent SMTP sockets closed ${range(smtpClose)} after the greeting (allowed ${((SMTP_TIMEOUT_MS + slack) / 1000).toFixed(1)} s)`);
const idleClose = hostileResults.idle.map((r) => r.closedAfterMs - (r.firstDataMs ?? 0));
check(idleClose.every((ms) => ms <= KEEP_ALIVE_TIMEOUT_MS + slack), `idle keep-alive sockets closed ${range(idleClose)} after their answer (allowed ${((KEEP_ALIVE_TIMEOUT_MS + slack) / 1000).toFixed(1)} s)`);
// Refused as soon as the server gets to the request, not after reading the 100 MiB.
check(hostileResults.oversized.every((r) => r.status === 413 && r.answeredAfter <= slack), `oversized uploads: ${hostileResults.oversized.map((r) => `${r.status} after ${r.answeredAfter} ms with ${mib(r.sentWhenAnswered)} MiB sent`).join('; ')} (allowed ${(slack / 1000).toFixed(1)} s)`);
const rssAfterOversized = Math.max(...samples.filter((s) => s.t > 5000 && s.t < 15000).map((s) => s.rss));

// Graceful stop after all that.
child.kill('SIGTERM');
const exitCode = await new Promise((r) => child.on('exit', (code) => r(code)));
check(exitCode === 0, `server exited with ${exitCode} on SIGTERM`);
// Closing checkpointed the WAL into the file: what the retained emails need, not what was sent.
const finalBytes = existsSync(db) ? statSync(db).size : 0;
check(created.length < MAX_EMAILS * 2 || finalBytes <= bytesAtThird * 1.5, `database file ${mib(finalBytes)} MiB after the run, ${mib(bytesAtThird)} MiB (with its WAL) at a third of it`);

// --- report ----------------------------------------------------------------------------

const seconds = loadEnded / 1000;
const line = (name, kind, n) => `  ${name.padEnd(14)} ${String(n).padStart(3)} clients  ${String(stats[kind].ok).padStart(7)} ok (${(stats[kind].ok / seconds).toFixed(0)}/s)  ${stats[kind].errors} errors  p50 ${pct(stats[kind].latencies, 50)} ms  p99 ${pct(stats[kind].latencies, 99)} ms`;
const report = [
  '',
  `load: ${CLIENTS} concurrent clients for ${seconds.toFixed(0)} s, ${THINK_MS} ms think time (built server, ${url}; ${pinned ? 'server on core 0, load on core 1' : 'not pinned'})`,
  line('API sends', 'api', counts.api),
  line('SMTP sends', 'smtp', counts.smtp),
  line('inbox reads', 'read', counts.read),
  `  SSE listeners  ${String(counts.sse).padStart(3)} clients  each received ${[...new Set(listeners.map((l) => l.created))].join('/')} email.created + ${[...new Set(listeners.map((l) => l.deleted))].join('/')} email.deleted events (of ${acked} sends)`,
  `  server log: ${busy} SQLITE_BUSY, ${errorLines.length} ERROR lines`,
  `  RSS: ${mib(during[0]?.rss ?? 0)} MiB at start, ${mib(rssEarly)} MiB (2nd fifth) → ${mib(rssLate)} MiB (last fifth), peak ${mib(rssPeak)} MiB`,
  `  retention (--max-emails ${MAX_EMAILS}): ${created.length} created, newest ${Math.min(MAX_EMAILS, created.length)} all present in order, ${pruned} older pruned and announced; database files ${mib(bytesAtThird)} MiB at a third of the run, peak ${mib(bytesPeak)} MiB (WAL peak ${mib(walPeak)} MiB), ${mib(finalBytes)} MiB checkpointed after the run`,
  `  responsiveness: /sandbox/health answered in p50 ${pct(probes, 50)} ms, p99 ${pct(probes, 99)} ms during the load`,
  `  slowloris HTTP (1 header byte / 500 ms): 10 closed after ${range(lorisClose)} with a JSON 408 (headersTimeout ${HEADERS_TIMEOUT_MS / 1000} s)`,
  `  silent SMTP: 10 closed ${range(smtpClose)} after the greeting, with 421 (--smtp-timeout-ms ${SMTP_TIMEOUT_MS})`,
  `  idle HTTP keep-alive: 20 closed ${range(idleClose)} after their answer (keepAliveTimeout ${KEEP_ALIVE_TIMEOUT_MS / 1000} s)`,
  `  100 MiB uploads streamed at 640 KiB/s: ${hostileResults.oversized.map((r) => `${r.status} after ${r.answeredAfter} ms (connected after ${r.connectedMs} ms, ${mib(r.sentWhenAnswered)} MiB sent)`).join(', ')}; RSS before ${mib(rssBeforeOversized)} MiB, max while they ran ${mib(rssAfterOversized)} MiB`,
  `  SIGTERM after the run: exit ${exitCode}`,
  failures.length ? `FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}` : 'all checks passed',
];
console.log(report.join('\n'));
for (const kind of ['api', 'smtp', 'read']) for (const e of stats[kind].examples) console.log(`  ${kind} error example: ${e}`);
if (values.json) writeFileSync(values.json, JSON.stringify({ counts, stats: Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, { ok: v.ok, errors: v.errors, p50: pct(v.latencies, 50), p99: pct(v.latencies, 99), examples: v.examples }])), samples, hostile: hostileResults, failures }, null, 2));
rmSync(dir, { recursive: true, force: true });
process.exit(failures.length ? 1 : 0);
