// Where does a /v1/send spend its time? Runs the built sendbox under `node --cpu-prof`
// (pinned to core 0), drives POST /v1/send with autocannon from core 1, stops it, and
// summarises the profile: top functions by self time, by inclusive time, and by package.
//   node bench/profile-send.mjs [--case 1kb-text|100kb-html|1mb-attachment] [--connections 64] [--duration 10]
import { parseArgs } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { blast } from './lib/http-load.mjs';
import { SEND_CASES } from './lib/payloads.mjs';
import { startSendbox, ROOT } from './lib/servers.mjs';
import { pinSelfToLoadCore, killAll } from './lib/proc.mjs';

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: '1kb-text' },
    connections: { type: 'string', default: '64' },
    duration: { type: 'string', default: '10' },
    top: { type: 'string', default: '25' },
    keep: { type: 'string' },
    args: { type: 'string', default: '' },
  },
});
const testCase = SEND_CASES.find((c) => c.id === values.case);
if (!testCase) throw new Error(`unknown case ${values.case}; one of ${SEND_CASES.map((c) => c.id).join(', ')}`);

pinSelfToLoadCore();
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-profile-'));
try {
  const profDir = join(tmp, 'prof');
  const sendbox = await startSendbox(join(tmp, 'profile.db'), { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profDir}`], extraArgs: values.args ? values.args.split(' ') : [] });
  const target = { url: `${sendbox.url}/v1/send`, body: testCase.sendbox, headers: { authorization: 'Bearer bench-profile-key' } };
  await blast({ ...target, connections: 16, durationS: 2 });
  const result = await blast({ ...target, connections: Number(values.connections), durationS: Number(values.duration) });
  await sendbox.stop();
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  if (values.keep) {
    mkdirSync(join(values.keep, '..'), { recursive: true });
    copyFileSync(join(profDir, file), values.keep);
  }
  // Samples before the ready line are start-up (module loading), not sending.
  const summary = summarize(JSON.parse(readFileSync(join(profDir, file), 'utf8')), Number(values.top), sendbox.readyMs);
  process.stdout.write(`POST /v1/send ${testCase.label}, ${values.connections} connections, ${values.duration} s: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms (profiled, so slower than unprofiled)\n`);
  process.stdout.write(`profile: ${summary.totalMs.toFixed(0)} ms sampled after the ready line (warm-up included), ${summary.idlePct.toFixed(1)}% idle, ${summary.gcPct.toFixed(1)}% GC; ${(summary.busyMs / Math.max(1, result.ok)).toFixed(3)} ms of busy CPU per acknowledged send\n\n`);
  process.stdout.write(summary.text);
} finally {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
}

/** Self, inclusive and per-package time from a V8 .cpuprofile. */
function summarize(profile, top, skipMs) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfByNode = new Map();
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    clock += ms;
    if (clock >= skipMs) selfByNode.set(id, (selfByNode.get(id) ?? 0) + ms);
  });
  const key = (n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'} ${shortUrl(url)}${url ? `:${lineNumber + 1}` : ''}`;
  };
  const self = new Map();
  const inclusive = new Map();
  const pkg = new Map();
  let total = 0;
  let idle = 0;
  let gc = 0;
  for (const [id, ms] of selfByNode) {
    const n = nodes.get(id);
    total += ms;
    const name = n.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') idle += name === '(idle)' ? ms : 0;
    if (name === '(garbage collector)') gc += ms;
    self.set(key(n), (self.get(key(n)) ?? 0) + ms);
    pkg.set(packageOf(n.callFrame.url, name), (pkg.get(packageOf(n.callFrame.url, name)) ?? 0) + ms);
    // Inclusive: every distinct function on this sample's stack.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(nodes.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
    }
  }
  const busy = total - idle;
  const pct = (ms) => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
  const rows = (map, n, filter = () => true) => [...map].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `${pct(ms)} ${ms.toFixed(0).padStart(7)} ms  ${k}`).join('\n');
  const notRoot = (k) => !/^\((root|idle|program)\)/.test(k);
  const text = [
    `Top ${top} by self time (share of busy CPU, ${busy.toFixed(0)} ms):`,
    rows(self, top, (k) => !k.startsWith('(idle)')),
    '',
    `Top ${top} by inclusive time (function and everything it calls):`,
    rows(inclusive, top, notRoot),
    '',
    `Top ${top} sendbox functions by inclusive time:`,
    rows(inclusive, top, (k) => / dist\/(server|shared)\//.test(k)),
    '',
    'By package (self time):',
    rows(pkg, 20, (k) => k !== '(idle)'),
    '',
  ].join('\n');
  return { text, totalMs: total, busyMs: busy, idlePct: (idle / total) * 100, gcPct: (gc / busy) * 100 };
}

function shortUrl(url) {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith('/') ? relative(ROOT, path) : path;
}

function packageOf(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native/builtin)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (path.startsWith('node:')) return 'node (core)';
  const rel = relative(ROOT, path);
  return rel.startsWith('dist/') ? `sendbox ${rel.split('/').slice(1, -1).join('/')}` : rel;
}
