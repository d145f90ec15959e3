import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import fc from 'fast-check';
import { startServer, type TestServer } from '../harness.js';
import { dataBlock, queuedId, RawSmtp, sendWithNodemailer } from '../smtp/client.js';
import { brokenMessage, garbageSession, type SessionEnd } from './smtp/generators.js';

/**
 * SMTP fuzzing over raw sockets. Each run is two connections:
 *  1. a garbage session — random bytes, broken and out-of-order commands, overlong lines,
 *     bare LFs, NULs — ended by QUIT, a half-close or a reset: every reply is a well-formed
 *     SMTP reply, and the server closes the connection by itself once the client is done;
 *  2. a well-framed transaction carrying a broken MIME message: answered 250, and the
 *     stored raw source is byte for byte what was sent.
 * After every run a normal nodemailer message still lands.
 * FUZZ_SMTP_RUNS sets the number of runs (scripts/fuzz.mjs uses it for the long run).
 */
const RUNS = Number(process.env.FUZZ_SMTP_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const REPORT = process.env.FUZZ_SMTP_REPORT;
const KEY = 'smtp-fuzz-key-0001';
const CLOSE_DEADLINE_MS = 10_000;

let server: TestServer;
beforeAll(async () => {
  // A short idle timeout: a session the fuzzer leaves half-way is cut quickly.
  server = await startServer(['--smtp-timeout-ms', '1500', '--smtp-data-timeout-ms', '5000']);
});
afterAll(async () => {
  await server?.close();
});

interface SessionResult {
  replies: string[];
  closedByServer: boolean;
}

/** Plays a garbage session on a raw socket and collects every line the server wrote. */
function playGarbage(steps: Buffer[], end: SessionEnd, early: boolean): Promise<SessionResult> {
  return new Promise((resolve) => {
    const socket = connect(server.smtpPort, '127.0.0.1');
    let text = '';
    let finished = false;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ replies: text.split('\r\n').filter(Boolean), closedByServer });
    };
    const timer = setTimeout(() => finish(false), CLOSE_DEADLINE_MS);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    // smtp-server refuses a client that talks before the greeting (421): wait for it, except
    // in the sessions that test exactly that.
    const greeted = new Promise<void>((r) => socket.once('data', () => r()));
    socket.once('connect', async () => {
      if (!early) await greeted;
      for (const step of steps) {
        if (socket.destroyed) break;
        await new Promise<void>((r) => socket.write(step, () => r()));
      }
      if (end === 'reset') {
        socket.resetAndDestroy();
        finish(true);
      } else {
        if (end === 'quit' && !socket.destroyed) socket.write('\r\nQUIT\r\n');
        socket.end();
      }
    });
  });
}

const stats = { sessions: 0, transactions: 0, accepted: 0, replyCodes: {} as Record<string, number>, dataReplies: {} as Record<string, number>, bytesSent: 0, problems: [] as string[] };
const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

async function stillServes(label: string): Promise<string | null> {
  const sent = await sendWithNodemailer(server.smtpPort, { from: 'ok@fuzz.test', to: 'ok@fuzz.test', subject: `alive after ${label}`, text: 'fine' }, { auth: { user: 'u', pass: KEY } });
  const id = queuedId(sent.info.response);
  const res = await server.api(`/v1/emails/${id}`, { key: KEY });
  return res.status === 200 && res.body.data.subject === `alive after ${label}` ? null : `a well-formed message after ${label} did not land: ${res.status}`;
}

describe('SMTP under random bytes, broken commands and broken MIME', () => {
  it('keeps replying in SMTP, closes finished sessions, stores broken MIME intact, keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(garbageSession, brokenMessage, async ({ steps, end, early, label }, message) => {
        stats.sessions++;
        stats.bytesSent += steps.reduce((n, s) => n + s.length, 0) + message.bytes.length;
        const session = await playGarbage(steps, end, early);
        for (const line of session.replies) {
          const code = /^(\d{3})[ -]/.exec(line)?.[1];
          if (!code) stats.problems.push(`${label}: a reply line is not SMTP: ${JSON.stringify(line.slice(0, 120))}`);
          else {
            count(stats.replyCodes, code);
            if (Number(code) >= 600 || code === '451') stats.problems.push(`${label}: reply ${line.slice(0, 120)}`);
          }
        }
        if (!session.closedByServer) stats.problems.push(`${label}: the server did not close the session within ${CLOSE_DEADLINE_MS} ms after the client finished`);

        // A well-framed transaction whose message is broken MIME.
        stats.transactions++;
        const { client, greeting } = await RawSmtp.open(server.smtpPort);
        expect(greeting.code).toBe(220);
        await client.command('EHLO fuzz.test');
        await client.command(`AUTH PLAIN ${Buffer.from(`\0u\0${KEY}`).toString('base64')}`);
        const mail = await client.command('MAIL FROM:<fuzz@fuzz.test>');
        const rcpt = await client.command('RCPT TO:<rcpt@fuzz.test>');
        const data = await client.command('DATA');
        if (mail.code !== 250 || rcpt.code !== 250 || data.code !== 354) {
          stats.problems.push(`${message.label}: transaction refused before the message: ${mail.code} ${rcpt.code} ${data.code}`);
          client.destroy();
          return;
        }
        client.write(dataBlock(message.bytes));
        const reply = await client.reply();
        count(stats.dataReplies, String(reply.code));
        await client.quit();
        if (reply.code !== 250) {
          stats.problems.push(`${message.label}: a complete message was answered ${reply.lines.join(' | ')}`);
          return;
        }
        stats.accepted++;
        const id = queuedId(reply);
        const raw = await fetch(`${server.url}/sandbox/emails/${id}/raw`);
        const stored = Buffer.from(await raw.arrayBuffer());
        const expected = message.bytes.subarray(-2).toString('latin1') === '\r\n' ? message.bytes : Buffer.concat([message.bytes, Buffer.from('\r\n')]);
        if (raw.status !== 200 || !stored.equals(expected)) stats.problems.push(`${message.label}: stored raw differs from what was sent (${stored.length} vs ${expected.length} bytes)`);
        const view = await server.api(`/sandbox/emails/${id}`);
        if (view.status !== 200) stats.problems.push(`${message.label}: the sandbox view answers ${view.status}: ${JSON.stringify(view.body).slice(0, 200)}`);
        if (stats.sessions % 10 === 0) {
          const alive = await stillServes(`session ${stats.sessions}`);
          if (alive) stats.problems.push(alive);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const alive = await stillServes(`${RUNS} fuzzed sessions`);
    if (alive) stats.problems.push(alive);
    if (REPORT) writeFileSync(REPORT, JSON.stringify({ runs: RUNS, seed: SEED, ...stats }, null, 2));
    expect([...new Set(stats.problems)]).toEqual([]);
    expect(stats.accepted).toBe(RUNS);
  }, Math.max(120_000, RUNS * 1_500));
});
