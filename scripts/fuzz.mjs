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
import { spawnSync } from 'node:child_process';
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
    seed: { type: 'string', default: '20260101' },
    only: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('usage: node scripts/fuzz.mjs [--runs N] [--smtp-runs N] [--raw-runs N] [--seed N] [--only name,name] [--json report.json]');
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'sendbox-fuzz-'));
const report = join(work, 'http.json');
const smtpReport = join(work, 'smtp.json');
const rawReport = join(work, 'raw.json');
const smtpRuns = Number(values['smtp-runs']);
const rawRuns = Number(values['raw-runs']);
const files = [
  'server/test/hardening/fuzz.test.ts',
  ...(smtpRuns > 0 && !values.only ? ['server/test/hardening/smtp-fuzz.test.ts'] : []),
  ...(rawRuns > 0 && !values.only ? ['server/test/hardening/http-raw-fuzz.test.ts'] : []),
];
const started = Date.now();
const child = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...files, '--reporter=dot'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SMTP_RUNS: String(smtpRuns), FUZZ_HTTP_RAW_RUNS: String(rawRuns), FUZZ_SEED: values.seed, FUZZ_REPORT: report, FUZZ_SMTP_REPORT: smtpReport, FUZZ_HTTP_RAW_REPORT: rawReport, ...(values.only ? { FUZZ_ONLY: values.only } : {}) },
});

let data;
try {
  data = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  console.error(`no report was written (${report}); vitest exited with ${child.status}`);
  process.exit(child.status || 1);
}

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
