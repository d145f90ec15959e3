// `npm run bench [-- --quick] [-- --sections send,smtp,list,startup]`
// Benchmarks the built sendbox side by side with the peers it replaces (MailDev,
// aws-ses-v2-local) and with library ceilings (Express JSON-only, smtp-server drain),
// all measured in this one run; prints markdown tables and writes bench/results/latest.json.
// Load goes only to 127.0.0.1, bounded in count and time.
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinSelfToLoadCore, killAll } from './lib/proc.mjs';
import { installPeer, PEERS } from './lib/peers.mjs';
import { ROOT } from './lib/servers.mjs';
import { renderReport, evaluateTargets } from './lib/report.mjs';
import { sendSection } from './sections/send.mjs';
import { smtpSection } from './sections/smtp.mjs';
import { listSection } from './sections/list.mjs';
import { startupSection } from './sections/startup.mjs';

const ALL = ['send', 'smtp', 'list', 'startup'];
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sections: { type: 'string', default: ALL.join(',') },
    out: { type: 'string', default: join(ROOT, 'bench', 'results', 'latest.json') },
    help: { type: 'boolean', default: false },
    // Re-render the tables of an existing results file (after a change to the report) without measuring.
    render: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write('usage: npm run bench [-- --quick] [-- --sections send,smtp,list,startup] [-- --out file.json] [-- --render]\n');
  process.exit(0);
}
if (values.render) {
  const saved = JSON.parse(readFileSync(values.out, 'utf8'));
  saved.targets = evaluateTargets(saved);
  const text = renderReport(saved);
  writeFileSync(values.out, JSON.stringify(saved, null, 2) + '\n');
  writeFileSync(values.out.replace(/\.json$/, '.md'), text);
  process.stdout.write(text);
  process.exit(0);
}
const sections = values.sections.split(',').map((s) => s.trim()).filter(Boolean);
for (const s of sections) if (!ALL.includes(s)) throw new Error(`unknown section ${s}; choose from ${ALL.join(', ')}`);
if (!existsSync(join(ROOT, 'dist', 'sendbox.mjs'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');

const t0 = performance.now();
const log = (line) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
const pinning = pinSelfToLoadCore();
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-bench-'));
const cleanup = () => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

const git = (...args) => {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};
const results = {
  meta: {
    mode: values.quick ? 'quick' : 'full',
    command: ['npm run bench', ...(values.quick || values.sections !== ALL.join(',') ? ['--'] : []), ...(values.quick ? ['--quick'] : []), ...(values.sections !== ALL.join(',') ? ['--sections', values.sections] : [])].join(' '),
    date: new Date().toISOString(),
    commit: git('rev-parse', 'HEAD'),
    dirty: git('status', '--porcelain', '--', 'server', 'shared') !== '',
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    pinning,
    loadBefore: loadavg(),
    peers: Object.fromEntries(Object.values(PEERS).map((p) => [p.pkg, p.version])),
  },
  errors: [],
};

let failed = false;
try {
  log(pinning);
  const peers = {};
  if (sections.includes('send')) peers.ses = installPeer(PEERS.ses, log);
  if (sections.includes('smtp') || sections.includes('list')) peers.maildev = installPeer(PEERS.maildev, log);
  const ctx = { opts: { quick: values.quick }, tmp, log, peers };
  const run = async (name, fn) => {
    if (!sections.includes(name)) return;
    log(`section ${name}`);
    try {
      results[name] = await fn(ctx);
    } catch (error) {
      failed = true;
      results.errors.push({ section: name, error: error.stack ?? String(error) });
      log(`section ${name} FAILED: ${error.stack ?? error}`);
    }
  };
  await run('startup', startupSection);
  await run('send', sendSection);
  await run('smtp', smtpSection);
  await run('list', listSection);

  results.memory = {
    sendboxIdle: results.startup?.sendboxIdleRssMb ?? results.send?.memory.sendboxIdle,
    sesIdle: results.send?.memory.sesIdle,
    maildevIdle: results.smtp?.maildevIdleRss,
    ceilingIdle: results.send?.memory.ceilingIdle,
    sendboxUnderLoad: results.send?.memory.sendboxUnderLoad,
    sesUnderLoad: results.send?.memory.sesUnderLoad,
    ceilingUnderLoad: results.send?.memory.ceilingUnderLoad,
    sendboxStored: results.list?.memory.stored,
    sendboxStoredRss: results.list?.memory.rssAfterMb,
    maildevStored: results.list?.maildev?.stored,
    maildevStoredRss: results.list?.maildev?.rssMb,
    readyEmptyMs: results.startup?.sendboxEmptyMs,
    readyStoredMs: results.list?.memory.readyMs,
    ceilingReadyMs: results.startup?.ceilingMs,
    sesReadyMs: results.send?.readyMs.ses,
    maildevReadyMs: results.smtp?.readyMs.maildev ?? results.list?.maildev?.readyMs,
  };
  // Errors the tables would otherwise only show as "error": any target that did not answer.
  for (const row of results.smtp?.rows ?? []) {
    for (const key of ['sendbox', 'maildev', 'ceiling']) {
      if (row[key]?.error) results.errors.push({ section: 'smtp', error: `${key} ${row.label} c=${row.connections}: ${row[key].error}` });
    }
  }
  for (const row of results.send?.rows ?? []) {
    if (row.sendbox.durable === false) results.errors.push({ section: 'send', error: `${row.label} c=${row.connections}: ${row.sendbox.acknowledged} acknowledged, ${row.sendbox.stored} stored` });
    for (const key of ['sendbox', 'ses', 'ceiling']) {
      if (row[key].error) results.errors.push({ section: 'send', error: `${key} ${row.label} c=${row.connections}: ${row[key].error}` });
    }
    // A send sendbox refused or dropped is a bug; a slow one is only slow.
    if (row.sendbox.non2xx || row.sendbox.errors) results.errors.push({ section: 'send', error: `sendbox ${row.label} c=${row.connections}: ${row.sendbox.non2xx} non-2xx answers, ${row.sendbox.errors} connection errors or timeouts` });
  }
} catch (error) {
  failed = true;
  results.errors.push({ section: 'setup', error: error.stack ?? String(error) });
  log(`FAILED: ${error.stack ?? error}`);
} finally {
  cleanup();
}

results.meta.loadAfter = loadavg();
results.meta.seconds = (performance.now() - t0) / 1000;
results.targets = evaluateTargets(results);
const report = renderReport(results);
mkdirSync(join(values.out, '..'), { recursive: true });
writeFileSync(values.out, JSON.stringify(results, null, 2) + '\n');
writeFileSync(values.out.replace(/\.json$/, '.md'), report);
process.stdout.write(`\n${report}`);
if (results.errors.length) {
  process.stdout.write(`\nErrors (${results.errors.length}):\n${results.errors.map((e) => `- [${e.section}] ${e.error.split('\n')[0]}`).join('\n')}\n`);
}
log(`done in ${results.meta.seconds.toFixed(0)} s; wrote ${values.out}`);
// Speed never fails the run; errors (a target that did not answer, a lost email) do.
process.exit(failed || results.errors.length ? 1 : 0);
