// Where does a /v1/send spend its time? Runs the built sendbox under `node --cpu-prof`
// (pinned to core 0), drives POST /v1/send with autocannon from core 1, stops it, and
// summarises the profile: top functions by self time, by inclusive time, and by package.
//   node bench/profile-send.mjs [--case 1kb-text|100kb-html|1mb-attachment] [--connections 64] [--duration 10]
import { parseArgs } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blast } from './lib/http-load.mjs';
import { SEND_CASES } from './lib/payloads.mjs';
import { startSendbox } from './lib/servers.mjs';
import { pinSelfToLoadCore, killAll } from './lib/proc.mjs';
import { summarize } from './lib/cpuprofile.mjs';

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

