import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type TestServer } from '../../test/harness.js';
import { startReceiver } from '../../test/webhook-receiver.js';
import { listen } from '../../test/hardening/lib/sse.js';
import { sendWithNodemailer } from '../../test/smtp/client.js';
import { openTeamId } from '../auth/keys.js';

/** One sample of the Prometheus text format: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*",?)*)\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|[+-]?Inf|NaN))$`, 'i');

/**
 * Parses the exposition format strictly (Prometheus reads NaN and Inf in any case, and
 * prom-client writes `Nan` for a summary with no observations yet) (text format 0.0.4): every family has HELP and
 * TYPE before its samples, every sample line is well formed, and belongs to a declared family.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'HELP') helps.add(meta[2]);
      else {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped'], line).toContain(meta[3]);
        types.set(meta[2], meta[3]);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    const family = [...types.keys()].find((f) => match[1] === f || match[1].startsWith(`${f}_`));
    expect(family, `sample ${match[1]} has no TYPE`).toBeDefined();
    expect(helps.has(family!), `family ${family} has no HELP`).toBe(true);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, types };
}

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<{ samples: Sample[]; types: Map<string, string>; contentType: string }> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  return { ...parseExposition(await res.text()), contentType: res.headers.get('content-type') ?? '' };
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

const KEY = 'metrics-key-0001';

describe('/metrics', () => {
  let server: TestServer;
  let other: TestServer;
  let hooks: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    hooks = await startReceiver();
    server = await startServer(['--webhook-url', hooks.url]);
    other = await startServer();
  });
  afterAll(async () => {
    await Promise.all([server?.close(), other?.close()]);
    await hooks?.close();
  });

  it('counts received emails by source and team, outcomes, refusals, waits, webhook attempts and SSE clients', async () => {
    const http = (await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'limited@example.com' }, action: { http_status: 429, retry_after: 1 } } })).body.data.id;
    const smtp = (await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'nobody@example.com' }, action: { smtp_stage: 'rcpt', code: 550, message: '5.1.1 unknown' } } })).body.data.id;
    for (const to of ['a@example.com', 'b+bounced@example.com']) {
      expect((await server.api('/v1/send', { method: 'POST', key: KEY, json: { to, subject: 'm', body: 'x' } })).status).toBe(200);
    }
    expect((await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'limited@example.com', subject: 'm', body: 'x' } })).status).toBe(429);
    await sendWithNodemailer(server.smtpPort, { from: 'a@acme.test', to: 'c@example.com', subject: 'smtp', text: 'x' });
    await expect(sendWithNodemailer(server.smtpPort, { from: 'a@acme.test', to: 'nobody@example.com', subject: 'smtp', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
    expect((await server.api('/sandbox/emails/wait?to=c@example.com')).status).toBe(200);
    expect((await server.api('/sandbox/emails/wait?to=never@example.com&timeout_ms=1')).status).toBe(408);
    const stream = listen(server.url);
    await stream.ready;

    const { samples, types, contentType } = await scrape(server);
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(types.get('sendbox_emails_received_total')).toBe('counter');
    expect(value(samples, 'sendbox_emails_received_total', { source: 'api', team: openTeamId(KEY) })).toBe(2);
    expect(value(samples, 'sendbox_emails_received_total', { source: 'smtp', team: 'team_smtp' })).toBe(1);
    expect(value(samples, 'sendbox_refusals_total', { source: 'api', stage: 'send', code: '429' })).toBe(1);
    expect(value(samples, 'sendbox_refusals_total', { source: 'smtp', stage: 'rcpt', code: '550' })).toBe(1);
    expect(value(samples, 'sendbox_rule_uses', { rule: String(http), action: 'http:429' })).toBe(1);
    expect(value(samples, 'sendbox_rule_uses', { rule: String(smtp), action: 'smtp:rcpt:550' })).toBe(1);
    expect(value(samples, 'sendbox_wait_requests_total', { result: 'matched' })).toBe(1);
    expect(value(samples, 'sendbox_wait_requests_total', { result: 'timeout' })).toBe(1);
    expect(value(samples, 'sendbox_sse_clients')).toBe(1);
    expect(value(samples, 'sendbox_database_bytes')).toBeGreaterThan(4096);
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');

    // Delivery and webhooks run on their own: their counters are read once they happened.
    await hooks.received(3);
    await eventually(async () => {
      const s = (await scrape(server)).samples;
      return value(s, 'sendbox_recipient_outcomes_total', { state: 'delivered' }) === 2 && value(s, 'sendbox_recipient_outcomes_total', { state: 'bounced' }) === 1 && value(s, 'sendbox_webhook_attempts_total', { result: 'delivered' }) >= 3;
    }, 5000, 'delivery outcomes and webhook attempts');
    await stream.close();
    await eventually(async () => value((await scrape(server)).samples, 'sendbox_sse_clients') === 0, 5000, 'the SSE gauge to drop');
  });

  it('keeps each instance\'s counters apart (no global registry)', async () => {
    const { samples } = await scrape(other);
    expect(value(samples, 'sendbox_emails_received_total')).toBe(0);
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
  });

  it('answers 403 for a foreign Host and 405 for a POST', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/metrics`, { headers: { Host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('/metrics with --ui-auth', () => {
  it('needs the inbox password', async () => {
    const server = await startServer(['--ui-auth', 'ops:s3cret-pass']);
    try {
      const denied = await fetch(`${server.url}/metrics`);
      expect(denied.status).toBe(401);
      expect(denied.headers.get('www-authenticate')).toContain('Basic');
      await scrape(server, { Authorization: `Basic ${Buffer.from('ops:s3cret-pass').toString('base64')}` });
    } finally {
      await server.close();
    }
  });
});
