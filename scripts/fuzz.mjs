#!/usr/bin/env node
// Long fuzzing run: every /v1 and /sandbox endpoint gets --runs generated requests
// (valid, broken fields, broken transports) against a real in-process server, then the
// per-endpoint counts and outcome histograms are printed. The properties live in
// server/test/hardening/fuzz.test.ts; this script runs that file with a larger budget.
//
// SMTP gets --smtp-runs sessions of garbage plus a broken-MIME transaction each
// (server/test/hardening/smtp-fuzz.test.ts), raw HTTP --raw-runs sessions of malformed
// HTTP below the routes (http-raw-fuzz.test.ts); 0 skips either.
//
//   node scripts/fuzz.mjs --runs 10000 [--smtp-runs 2000] [--raw-runs 5000] [--seed 20260101] [--only send,wait] [--json out.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    'smtp-runs': { type: 'string', default: '2000' },
    'raw-runs': { type: 'string', default: '5000' },
    parallel: { type: 'string', default: '2' },
    seed: { type: 'string', default: '20260101' },
    only: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('usage: node scripts/fuzz.mjs [--runs N] [--smtp-runs N] [--raw-runs N] [--seed N] [--parallel 2] [--only name,name] [--json report.json]');
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'sendbox-fuzz-'));
const smtpReport = join(work, 'smtp.json');
const rawReport = join(work, 'raw.json');
const smtpRuns = Number(values['smtp-runs']);
const rawRuns = Number(values['raw-runs']);
const common = { FUZZ_RUNS: values.runs, FUZZ_SMTP_RUNS: String(smtpRuns), FUZZ_HTTP_RAW_RUNS: String(rawRuns), FUZZ_SEED: values.seed, ...(values.only ? { FUZZ_ONLY: values.only } : {}) };
// Each server group (and SMTP, and raw HTTP) runs in its own process, two at a time: a
// run cut short keeps the reports of what finished, and the two cores are both used.
const GROUPS = ['mail', 'domains', 'control', 'destructive'];
const jobs = [
  ...GROUPS.map((group) => ({ name: `http ${group}`, file: 'server/test/hardening/fuzz.test.ts', report: join(work, `http-${group}.json`), env: { FUZZ_GROUP: group, FUZZ_REPORT: join(work, `http-${group}.json`) } })),
  ...(smtpRuns > 0 && !values.only ? [{ name: 'smtp', file: 'server/test/hardening/smtp-fuzz.test.ts', env: { FUZZ_SMTP_REPORT: smtpReport } }] : []),
  ...(rawRuns > 0 && !values.only ? [{ name: 'raw http', file: 'server/test/hardening/http-raw-fuzz.test.ts', env: { FUZZ_HTTP_RAW_REPORT: rawReport } }] : []),
];
const started = Date.now();
console.log(`fuzz: reports in ${work}`);
const exitCodes = [];
const runJob = (job) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', job.file, '--reporter=dot'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...common, ...job.env } });
    child.on('exit', (code) => {
      console.log(`  ${job.name}: done in ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${code})`);
      exitCodes.push(code);
      resolve();
    });
  });
const queue = [...jobs];
await Promise.all(Array.from({ length: Number(values.parallel) }, async () => {
  while (queue.length) await runJob(queue.shift());
}));
const child = { status: exitCodes.every((c) => c === 0) ? 0 : 1 };

const reports = [];
for (const group of GROUPS) {
  try {
    reports.push(...JSON.parse(readFileSync(join(work, `http-${group}.json`), 'utf8')).reports);
  } catch {
    console.error(`no report for the ${group} endpoints`);
  }
}
const data = { runs: values.runs, seed: values.seed, reports };

const pad = (s, n) => String(s).padEnd(n);
const histogram = (counts) => Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}:${v}`).join(' ');
let total = 0;
let problems = 0;
console.log(`\nfuzz: ${data.runs} runs per endpoint, seed ${data.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
console.log(`${pad('endpoint', 52)} ${pad('sent', 7)} ${pad('5xx', 4)} ${pad('problems', 9)} statuses`);
for (const r of data.reports) {
  const fivexx = Object.entries(r.statuses).filter(([s]) => s.startsWith('5')).reduce((n, [, c]) => n + c, 0);
  const found = r.problems.reduce((n, p) => n + p.count, 0);
  total += r.sent;
  problems += found;
  console.log(`${pad(r.endpoint, 52)} ${pad(r.sent, 7)} ${pad(fivexx, 4)} ${pad(found, 9)} ${histogram(r.statuses)}`);
}
console.log(`\n${total} requests in all, ${problems} problems\n`);
console.log('outcomes by input class (class → status:count):');
for (const r of data.reports) {
  console.log(`  ${r.endpoint}`);
  for (const [kind, counts] of Object.entries(r.kinds).sort(([a], [b]) => a.localeCompare(b))) console.log(`    ${pad(kind, 16)} ${histogram(counts)}`);
}
for (const r of data.reports.filter((x) => x.problems.length)) {
  console.log(`\nproblems at ${r.endpoint}:`);
  for (const p of r.problems) console.log(`  ${p.count}× ${p.problem}\n     e.g. ${p.example}`);
}
let smtp = null;
try {
  smtp = JSON.parse(readFileSync(smtpReport, 'utf8'));
} catch {
  // not run (--smtp-runs 0 or --only)
}
if (smtp) {
  const unique = [...new Set(smtp.problems)];
  problems += unique.length;
  console.log(`\nSMTP: ${smtp.sessions} garbage sessions + ${smtp.transactions} broken-MIME transactions, ${(smtp.bytesSent / 1024 / 1024).toFixed(1)} MiB sent`);
  console.log(`  replies during garbage sessions: ${histogram(smtp.replyCodes)}`);
  console.log(`  DATA replies to broken MIME:     ${histogram(smtp.dataReplies)}  (${smtp.accepted} stored byte-exact)`);
  for (const p of unique) console.log(`  problem: ${p}`);
}
let raw = null;
try {
  raw = JSON.parse(readFileSync(rawReport, 'utf8'));
} catch {
  // not run
}
if (raw) {
  const unique = [...new Set(raw.problems)];
  problems += unique.length;
  console.log(`\nraw HTTP: ${raw.sessions} sessions of malformed HTTP; answers ${histogram(raw.responses)}`);
  for (const p of unique) console.log(`  problem: ${p}`);
}
if (values.json) writeFileSync(values.json, JSON.stringify({ http: data, smtp, raw }, null, 2));
process.exit(problems === 0 && child.status === 0 ? 0 : 1);
