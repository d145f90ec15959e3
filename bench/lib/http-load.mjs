// HTTP load: autocannon for throughput runs, a sequential keep-alive loop for
// per-request latency (sub-millisecond resolution, which autocannon's histogram lacks).
import autocannon from 'autocannon';
import http from 'node:http';

/**
 * POSTs `body` to `url` with `connections` concurrent keep-alive connections for
 * `durationS` seconds, or until `amount` requests, whichever comes first. Only 127.0.0.1.
 */
export async function blast({ url, body, headers = {}, connections, durationS, amount }) {
  assertLoopback(url);
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
      connections,
      duration: durationS,
      ...(amount ? { amount } : {}),
      timeout: 30,
      // The run ends on a sample tick: 100 ms ticks keep the measured duration honest.
      sampleInt: 100,
    }, (error, res) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(res);
    });
    // autocannon ignores the duration once an amount is set: bound the time ourselves.
    const timer = amount ? setTimeout(() => instance.stop(), durationS * 1000) : undefined;
  });
  const seconds = result.duration || durationS;
  return {
    ok: result['2xx'],
    sent: result.requests.sent,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
    rps: result['2xx'] / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, resolving with status, body text and elapsed ms. */
export function get(url, headers = {}) {
  assertLoopback(url);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString(), ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${url} timed out`)));
  });
}

/** Sequential GETs (after `warmup` unmeasured ones); p50/p99 in ms. Fails on a non-200. */
export async function latency(url, { n, warmup = 3, headers = {}, check } = {}) {
  for (let i = 0; i < warmup; i++) await get(url, headers);
  const samples = [];
  let last;
  for (let i = 0; i < n; i++) {
    last = await get(url, headers);
    if (last.status !== 200) throw new Error(`GET ${url} answered ${last.status}: ${last.text.slice(0, 200)}`);
    samples.push(last.ms);
  }
  if (check) check(last.text);
  samples.sort((a, b) => a - b);
  const pick = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { n, p50: pick(0.5), p99: pick(0.99), bytes: Buffer.byteLength(last.text) };
}

/** JSON helper for control calls (reset, health, counts). */
export async function json(url, { method = 'GET', headers = {}, body } = {}) {
  assertLoopback(url);
  const res = await fetch(url, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return parsed;
}

function assertLoopback(url) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`bench load goes only to 127.0.0.1, not ${url}`);
}
