// Where does SMTP ingest spend its time? Runs the built sendbox under `node --cpu-prof`
// (pinned to core 0), sends raw messages over `--connections` sockets of the lean client
// the bench uses (lib/smtp-raw.mjs) from core 1, waits until the API shows them all, stops
// it and summarises the profile.
//   node bench/profile-smtp.mjs [--kind 2kb|1mb] [--connections 16] [--count 3000]
import { parseArgs } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json } from './lib/http-load.mjs';
import { smtpBlast } from './lib/smtp-raw.mjs';
import { rawMessage, ENVELOPE } from './lib/payloads.mjs';
import { startSendbox } from './lib/servers.mjs';
import { pinSelfToLoadCore, killAll } from './lib/proc.mjs';
import { summarize } from './lib/cpuprofile.mjs';

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: '2kb' },
    connections: { type: 'string', default: '16' },
    count: { type: 'string' },
    top: { type: 'string', default: '25' },
    keep: { type: 'string' },
  },
});
const count = Number(values.count ?? (values.kind === '1mb' ? 200 : 3000));

pinSelfToLoadCore();
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-profile-'));
try {
  const profDir = join(tmp, 'prof');
  const sendbox = await startSendbox(join(tmp, 'profile.db'), { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] });
  const stored = async () => (await json(`${sendbox.url}/sandbox/health`)).data.emails;
  const result = await smtpBlast({ port: sendbox.smtpPort, connections: Number(values.connections), count, raw: rawMessage(values.kind), envelope: ENVELOPE, ingested: stored, timeoutMs: 120_000 });
  await sendbox.stop();
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  if (values.keep) {
    mkdirSync(join(values.keep, '..'), { recursive: true });
    copyFileSync(join(profDir, file), values.keep);
  }
  const summary = summarize(JSON.parse(readFileSync(join(profDir, file), 'utf8')), Number(values.top), sendbox.readyMs);
  process.stdout.write(`SMTP ${values.kind}, ${values.connections} connections: ${result.ingested} ingested, ${result.perSecond.toFixed(1)} msg/s (profiled, so slower than unprofiled)${result.failed ? `; ${result.failed} failed: ${result.firstError}` : ''}\n`);
  process.stdout.write(`profile: ${summary.totalMs.toFixed(0)} ms sampled after the ready line, ${summary.idlePct.toFixed(1)}% idle, ${summary.gcPct.toFixed(1)}% GC; ${(summary.busyMs / Math.max(1, result.ingested)).toFixed(3)} ms of busy CPU per message\n\n`);
  process.stdout.write(summary.text);
} finally {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
}
