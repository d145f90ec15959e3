// SMTP load: a nodemailer pool of `pool` connections sending `count` raw messages
// (bounded by `timeoutMs`), then waiting until the target says they are ingested.
import nodemailer from 'nodemailer';

/**
 * Sends up to `count` messages, starting no new one after `sendWindowMs`, then waits
 * until `ingested()` (how many of this run's messages the target's API shows) reaches
 * what was acknowledged; the clock stops there. `timeoutMs` bounds the whole run.
 */
export async function smtpRun({ port, pool, count, raw, envelope, ingested, timeoutMs, sendWindowMs = timeoutMs }) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: pool,
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    socketTimeout: 60_000,
  });
  const t0 = performance.now();
  const deadline = t0 + timeoutMs;
  const sendUntil = t0 + Math.min(sendWindowMs, timeoutMs);
  let sent = 0;
  let failed = 0;
  let firstError = null;
  let next = 0;
  // Keep exactly `pool` messages in flight: the pool's own queue would hold every message at once.
  const worker = async () => {
    while (next < count && performance.now() < sendUntil) {
      next++;
      try {
        await transport.sendMail({ envelope, raw });
        sent++;
      } catch (error) {
        failed++;
        firstError ??= error.message;
        if (failed > 20) break;
      }
    }
  };
  await Promise.all(Array.from({ length: pool }, worker));
  const ackMs = performance.now() - t0;
  transport.close();
  let seen = 0;
  for (;;) {
    seen = await ingested();
    if (seen >= sent || performance.now() > deadline + 10_000) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - t0;
  return { sent, failed, firstError, ingested: seen, ackMs, ms, perSecond: (Math.min(seen, sent) / ms) * 1000 };
}
