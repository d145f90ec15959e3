// Summaries of V8 .cpuprofile files: top functions by self and inclusive time, sendbox's
// own functions, and self time per package. Used by the profile-* scripts.
import { relative } from 'node:path';
import { ROOT } from './servers.mjs';

/** Self, inclusive and per-package time from a V8 .cpuprofile. */
export function summarize(profile, top, skipMs) {
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
