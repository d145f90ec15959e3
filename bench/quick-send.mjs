// One /v1/send case against sendbox (and optionally aws-ses-v2-local) at the given connection
// counts: req/s and server CPU per request, the way section 1 measures them. For trying a
// change in a minute instead of the whole bench's eight.
//   node bench/quick-send.mjs [--case 100kb-html] [--connections 16,64] [--duration 10] [--peer]
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blast } from './lib/http-load.mjs';
import { SEND_CASES, sesBody } from './lib/payloads.mjs';
import { startSendbox, startSes } from './lib/servers.mjs';
import { installPeer, PEERS } from './lib/peers.mjs';
import { pinSelfToLoadCore, killAll, cpuMeter, waitIdle } from './lib/proc.mjs';

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: '100kb-html' },
    connections: { type: 'string', default: '16,64' },
    duration: { type: 'string', default: '10' },
    peer: { type: 'boolean', default: false },
  },
});
const testCase = SEND_CASES.find((c) => c.id === values.case);
if (!testCase) throw new Error(`unknown case ${values.case}; one of ${SEND_CASES.map((c) => c.id).join(', ')}`);

pinSelfToLoadCore();
const tmp = mkdtempSync(join(tmpdir(), 'sendbox-quick-'));
try {
  const sendbox = await startSendbox(join(tmp, 'quick.db'), { extraArgs: ['--max-emails', '1000000'] });
  const targets = [{ key: 'sendbox', url: `${sendbox.url}/v1/send`, body: testCase.sendbox, headers: { authorization: 'Bearer bench-quick-key' }, pid: sendbox.pid }];
  if (values.peer) {
    const ses = await startSes(installPeer(PEERS.ses, () => {}));
    targets.push({ key: 'ses', url: `${ses.url}/v2/email/outbound-emails`, body: sesBody(testCase.sendbox), headers: { authorization: 'AWS4-HMAC-SHA256 Credential=bench' }, pid: ses.pid, clear: `${ses.url}/clear-store` });
  }
  for (const t of targets) await blast({ ...t, connections: 16, durationS: 2 });
  for (const connections of values.connections.split(',').map(Number)) {
    for (const t of targets) {
      await waitIdle(t.pid);
      const cpu = cpuMeter(t.pid);
      const result = await blast({ ...t, connections, durationS: Number(values.duration) });
      const busy = cpu.stop().utilization;
      await waitIdle(t.pid);
      const cpuMs = cpu.stop().cpuMs;
      process.stdout.write(`${t.key.padEnd(8)} c=${String(connections).padEnd(3)} ${result.rps.toFixed(0).padStart(5)} req/s  p50 ${result.p50} ms  CPU ${(cpuMs / result.ok).toFixed(3)} ms/req  core ${(busy * 100).toFixed(0)}% busy\n`);
      if (t.clear) await fetch(t.clear, { method: 'POST' });
    }
  }
} finally {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
}
