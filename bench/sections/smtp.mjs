// Section 2: SMTP ingest over 1, 4, 16 and 64 connections of a lean raw-socket client
// (lib/smtp-raw.mjs: a nodemailer pool could not keep a server's core busy), 2 KB messages
// and 1 MB attachments; beside MailDev and a bare smtp-server that only drains.
// "Ingested" means readable through the target's API: the clock stops when the count
// there reaches what was acknowledged (a drain has no API: its acknowledgement is all).
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { json } from '../lib/http-load.mjs';
import { smtpBlast } from '../lib/smtp-raw.mjs';
import { rawMessage, ENVELOPE } from '../lib/payloads.mjs';
import { startSendbox, startMaildev, startSmtpDrain } from '../lib/servers.mjs';
import { rssMb, waitIdle, cpuMeter } from '../lib/proc.mjs';

const CONNECTIONS = [1, 4, 16, 64];

export async function smtpSection(ctx) {
  const { opts, tmp, log, peers } = ctx;
  const maildev = await startMaildev(peers.maildev, tmp);
  const drain = await startSmtpDrain();
  const maildevIdleRss = rssMb(maildev.pid);
  const rows = [];
  let sendbox = null;
  try {
    for (const kind of ['2kb', '1mb']) {
      const dbPath = join(tmp, `smtp-${kind}.db`);
      // Retention off (its default keeps the newest 50 000): the 2 KB rows send more than that,
      // and pruning would hold the API's count below what was acknowledged.
      sendbox = await startSendbox(dbPath, { extraArgs: ['--max-emails', '1000000'] });
      const raw = rawMessage(kind);
      // Bounded twice: a message count, and a window after which no new message starts.
      // Counts large enough for ~10 s at sendbox's pace, so the start and the wait for the
      // API's count weigh little in the busy figure.
      const count = kind === '2kb' ? (opts.quick ? 400 : 60000) : opts.quick ? 20 : 1000;
      const sendWindowMs = opts.quick ? 3_000 : 10_000;
      const timeoutMs = opts.quick ? 15_000 : 60_000;
      const targets = [
        { key: 'sendbox', port: sendbox.smtpPort, pid: sendbox.pid, count: () => sendboxCount(sendbox) },
        { key: 'maildev', port: maildev.smtpPort, pid: maildev.pid, count: async () => (await json(`${maildev.url}/email`)).length },
        { key: 'ceiling', port: drain.smtpPort, pid: drain.pid, count: null },
      ];
      for (const t of targets) {
        // Warm-up, unmeasured.
        await smtpBlast({ port: t.port, connections: 4, count: kind === '2kb' ? 500 : 8, raw, envelope: ENVELOPE, ingested: async () => Infinity, timeoutMs: 10_000 }).catch(() => undefined);
        await waitIdle(t.pid);
      }
      for (const connections of CONNECTIONS) {
        const row = { kind, label: kind === '2kb' ? '2 KB' : '1 MB attachment', connections, messageBytes: raw.length };
        for (const t of targets) {
          if (t.key === 'maildev') await fetch(`${maildev.url}/email/all`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
          let baseline = 0;
          try {
            baseline = t.count ? await t.count() : 0;
          } catch (error) {
            row[t.key] = { error: `cannot read the count: ${error.message}` };
            continue;
          }
          const cpu = cpuMeter(t.pid);
          const result = await smtpBlast({
            port: t.port,
            connections,
            count,
            raw,
            envelope: ENVELOPE,
            ingested: t.count ? async () => (await t.count()) - baseline : async () => Infinity,
            timeoutMs,
            sendWindowMs,
          }).catch((error) => ({ error: error.message }));
          if (!result.error && result.sent === 0) result.error = `no message accepted: ${result.firstError}`;
          result.utilization = cpu.stop().utilization;
          await waitIdle(t.pid);
          // Server CPU per message, delivery simulation and leftovers included.
          const cpuMs = cpu.stop().cpuMs;
          if (!result.error && cpuMs !== null) result.cpuMsPerMessage = cpuMs / result.sent;
          row[t.key] = result;
          log(`  smtp ${row.label} c=${connections} ${t.key}: ${result.error ? `ERROR ${result.error}` : `${result.perSecond.toFixed(1)} msg/s (sent ${result.sent}, ingested ${result.ingested}${result.failed ? `, failed ${result.failed}: ${result.firstError}` : ''})`}`);
        }
        rows.push(row);
      }
      await sendbox.stop();
      sendbox = null;
      for (const suffix of ['', '-wal', '-shm', '-large', '-large-wal', '-large-shm']) rmSync(dbPath + suffix, { force: true });
    }
  } finally {
    await Promise.all([sendbox?.stop(), maildev.stop(), drain.stop()]);
  }
  return { rows, readyMs: { maildev: maildev.readyMs }, maildevIdleRss };
}

async function sendboxCount(sendbox) {
  return (await json(`${sendbox.url}/sandbox/health`)).data.emails;
}
