// Section 4 (start-up half): time from spawn to the ready line on an empty database,
// median of three starts, beside the same measure for the peers and the Express ceiling.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { startSendbox, startExpressCeiling } from '../lib/servers.mjs';
import { rssMb } from '../lib/proc.mjs';

export async function startupSection(ctx) {
  const { tmp } = ctx;
  const sendboxMs = [];
  const ceilingMs = [];
  let idleRss = null;
  for (let i = 0; i < 3; i++) {
    const dbPath = join(tmp, `startup-${i}.db`);
    const sendbox = await startSendbox(dbPath);
    sendboxMs.push(sendbox.readyMs);
    // Idle: ready, nothing sent, a moment to settle.
    await new Promise((r) => setTimeout(r, 500));
    idleRss = rssMb(sendbox.pid);
    await sendbox.stop();
    for (const suffix of ['', '-wal', '-shm', '-large', '-large-wal', '-large-shm']) rmSync(dbPath + suffix, { force: true });
    const ceiling = await startExpressCeiling();
    ceilingMs.push(ceiling.readyMs);
    await ceiling.stop();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { sendboxEmptyMs: median(sendboxMs), ceilingMs: median(ceilingMs), samples: { sendbox: sendboxMs, ceiling: ceilingMs }, sendboxIdleRssMb: idleRss };
}
