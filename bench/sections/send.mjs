// Section 1: POST /v1/send throughput and latency at 1, 16 and 64 connections for
// 1 KB text, 100 KB HTML and a 1 MB attachment; beside aws-ses-v2-local (SES v2
// SendEmail, same email) and an Express 5 handler that only parses the same JSON.
import { join } from 'node:path';
import { rmSync, statSync } from 'node:fs';
import { blast, json } from '../lib/http-load.mjs';
import { SEND_CASES, sesBody } from '../lib/payloads.mjs';
import { startSendbox, startSes, startExpressCeiling } from '../lib/servers.mjs';
import { sampleRss, rssMb, waitIdle, cpuMeter } from '../lib/proc.mjs';

const KEY = 'bench-send-key';
const AUTH = { authorization: `Bearer ${KEY}` };
const CONNECTIONS = [1, 16, 64];

export async function sendSection(ctx) {
  const { opts, tmp, log, peers } = ctx;
  const ses = await startSes(peers.ses);
  const ceiling = await startExpressCeiling();
  const rows = [];
  const dbBytes = [];
  const memory = { sesIdle: rssMb(ses.pid), ceilingIdle: rssMb(ceiling.pid) };
  let sendbox = null;
  try {
    for (const testCase of SEND_CASES) {
      // A fresh database per payload keeps the file (and the disk) bounded: 1 MB sends add up.
      const dbPath = join(tmp, `send-${testCase.id}.db`);
      // Retention off (its default keeps the newest 50 000): the 1 KB runs send more than that,
      // and aws-ses-v2-local keeps every email too. Pruning would otherwise land in one row.
      sendbox = await startSendbox(dbPath, { extraArgs: ['--max-emails', '1000000'] });
      memory.sendboxIdle ??= rssMb(sendbox.pid);
      const big = testCase.id === '1mb-attachment';
      // 1 MB runs are shorter and capped in count: every acknowledged one is a MB on disk
      // (sendbox) or in memory (aws-ses-v2-local).
      const durationS = opts.quick ? (testCase.id === '1kb-text' ? 1 : 2) : big ? 5 : 10;
      const amount = big ? (opts.quick ? 60 : 1500) : undefined;
      const targets = [
        { key: 'sendbox', url: `${sendbox.url}/v1/send`, body: testCase.sendbox, headers: AUTH, pid: sendbox.pid },
        { key: 'ses', url: `${ses.url}/v2/email/outbound-emails`, body: sesBody(testCase.sendbox), headers: { authorization: 'AWS4-HMAC-SHA256 Credential=bench' }, pid: ses.pid },
        { key: 'ceiling', url: `${ceiling.url}/v1/send`, body: testCase.sendbox, headers: {}, pid: ceiling.pid },
      ];
      for (const t of targets) {
        t.bodyBytes = Buffer.byteLength(JSON.stringify(t.body));
        // Warm the JIT and the connection paths; not measured.
        await blast({ ...t, connections: 16, durationS: opts.quick ? 0.3 : 2, amount: big ? (opts.quick ? 20 : 100) : undefined });
        await waitIdle(t.pid);
      }
      await json(`${ses.url}/clear-store`, { method: 'POST' });
      for (const connections of CONNECTIONS) {
        const row = { case: testCase.id, label: testCase.label, connections, bodyBytes: {} };
        for (const t of targets) {
          row.bodyBytes[t.key] = t.bodyBytes;
          try {
            row[t.key] = await measure(t, connections, durationS, amount, sendbox);
          } catch (error) {
            // One failed run is reported in its cell; the rest of the section still runs.
            row[t.key] = { error: error.message };
          }
          // aws-ses-v2-local keeps every email in memory: at 100 KB × ~1 000 req/s, two rows in a
          // row exhaust its heap (it crashed on a faster machine). Each row starts it empty.
          if (t.key === 'ses') await json(`${ses.url}/clear-store`, { method: 'POST' }).catch(() => undefined);
          const r = row[t.key];
          log(`  send ${testCase.label} c=${connections} ${t.key}: ${r.error ? `ERROR ${r.error}` : `${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms${r.non2xx || r.errors ? ` (non-2xx ${r.non2xx}, errors ${r.errors})` : ''}`}`);
        }
        rows.push(row);
        if (testCase.id === '1kb-text' && connections === 64) {
          memory.sendboxUnderLoad = row.sendbox.peakRssMb;
          memory.sesUnderLoad = row.ses.peakRssMb;
          memory.ceilingUnderLoad = row.ceiling.peakRssMb;
        }
      }
      await json(`${ses.url}/clear-store`, { method: 'POST' });
      const stored = await storedCount(sendbox);
      await sendbox.stop();
      sendbox = null;
      // The file a user would keep: database plus WAL after a clean stop, per stored email.
      const bytes = ['', '-wal', '-large', '-large-wal', '-large-2', '-large-2-wal'].reduce((sum, suffix) => sum + (statSync(dbPath + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
      dbBytes.push({ case: testCase.id, stored, bytes, bytesPerEmail: bytes / stored });
      log(`  send ${testCase.label}: ${stored} stored, database ${(bytes / 1e6).toFixed(1)} MB (${(bytes / stored / 1024).toFixed(1)} KB per email)`);
      for (const suffix of ['', '-wal', '-shm', '-large', '-large-wal', '-large-shm', '-large-2', '-large-2-wal', '-large-2-shm']) rmSync(dbPath + suffix, { force: true });
    }
  } finally {
    await Promise.all([sendbox?.stop(), ses.stop(), ceiling.stop()]);
  }
  return { rows, memory, dbBytes, readyMs: { ses: ses.readyMs, ceiling: ceiling.readyMs } };
}

async function measure(t, connections, durationS, amount, sendbox) {
  const before = t.key === 'sendbox' ? await storedCount(sendbox) : 0;
  const rss = sampleRss(t.pid);
  const cpu = cpuMeter(t.pid);
  // autocannon needs at least one request per connection.
  const result = await blast({ ...t, connections, durationS, amount: amount && Math.max(amount, connections * 2) }).finally(() => {
    rss.peak = rss.stop();
    cpu.during = cpu.stop();
  });
  result.peakRssMb = rss.peak;
  // Requests still in flight when the clock stopped finish here, not in the next target's run;
  // their CPU is counted, so CPU per request covers every request the server received.
  result.settleMs = await waitIdle(t.pid);
  result.cpuMs = cpu.stop().cpuMs;
  result.utilization = cpu.during.utilization;
  if (t.key === 'sendbox') Object.assign(result, await checkDurable(sendbox, before + result.ok));
  // Server CPU per request, every request it received (the ones in flight at the end included).
  const handled = t.key === 'sendbox' ? result.stored - before : result.sent;
  result.cpuMsPerRequest = result.cpuMs === null || !handled ? null : result.cpuMs / handled;
  return result;
}

/** Every acknowledged send must be stored (durable in SQLite), and the simulated delivery must drain. */
async function checkDurable(sendbox, expected) {
  const total = await storedCount(sendbox);
  const t0 = performance.now();
  let pending = Infinity;
  while (performance.now() - t0 < 60_000) {
    pending = (await json(`${sendbox.url}/v1/emails?limit=1&status=processing,queued`, { headers: AUTH })).data.pagination.total_records;
    if (pending === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The load generator counts only answers received before its clock stopped; requests
  // still in flight then were stored too, so more stored than acknowledged is expected.
  return { stored: total, acknowledged: expected, durable: total >= expected, deliveryDrainMs: performance.now() - t0, undelivered: pending };
}

async function storedCount(sendbox) {
  return (await json(`${sendbox.url}/v1/emails?limit=1`, { headers: AUTH })).data.pagination.total_records;
}
