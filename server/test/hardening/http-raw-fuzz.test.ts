import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import fc from 'fast-check';
import { startServer, type TestServer } from '../harness.js';

/**
 * HTTP below the routes: malformed request lines, bad versions, smuggling-shaped
 * headers (two Content-Lengths, Content-Length with Transfer-Encoding), broken chunked
 * bodies, NULs, bare LFs, oversized heads, pipelining, absolute-form targets. Over raw
 * sockets, each session half-closed by the client: every answer is HTTP with a status
 * under 500 and a JSON error body, the server closes the socket itself, and keeps serving.
 * FUZZ_HTTP_RAW_RUNS sets the number of sessions (scripts/fuzz.mjs uses it for the long run).
 */
const RUNS = Number(process.env.FUZZ_HTTP_RAW_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const REPORT = process.env.FUZZ_HTTP_RAW_REPORT;
const CLOSE_DEADLINE_MS = 10_000;
const KEY = 'raw-http-fuzz-key';

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startServer();
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
});

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'get', 'FOO', 'G E T', 'CONNECT', 'PRI', '', 'GET\x00', 'TRACE');
const targets = fc.constantFrom('/', '/sandbox/health', '/v1/send', '/sandbox/emails?limit=1', '/sandbox/reset', '*', 'http://evil.example/sandbox/health', '//', '/%', '/%zz', '/\x00', '/a b', `/${'x'.repeat(9000)}`, '/sandbox/../v1/send', '/v1/emails/%E0%A4%A', 'sandbox/health', '/?' + '&'.repeat(3000));
const versions = fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', '', 'HTTP/1.1 extra', 'HTTP/1');
const eol = fc.constantFrom('\r\n', '\n', '\r');

const headerSets = fc.constantFrom<string[]>(
  ['Host: localhost'],
  [],
  ['Host: localhost', 'Host: evil.example'],
  ['Host: localhost', 'Content-Length: 5', 'Content-Length: 6'],
  ['Host: localhost', 'Content-Length: 5', 'Transfer-Encoding: chunked'],
  ['Host: localhost', 'Transfer-Encoding: chunked', 'Transfer-Encoding: identity'],
  ['Host: localhost', 'Transfer-Encoding: xchunked'],
  ['Host: localhost', 'Transfer-Encoding: gzip, chunked'],
  ['Host: localhost', 'Content-Length: -1'],
  ['Host: localhost', 'Content-Length: 1e3'],
  ['Host: localhost', 'Content-Length: 99999999999999999999'],
  ['Host: localhost', 'Content-Length:  12 '],
  ['Host : localhost'],
  ['Host: localhost', 'No-Colon-Header'],
  ['Host: localhost', 'X-Folded: a', ' continued'],
  ['Host: localhost', 'X-Nul: a\x00b'],
  ['Host: localhost', `X-Huge: ${'h'.repeat(17_000)}`],
  ['Host: localhost', ...Array.from({ length: 300 }, (_, i) => `X-H${i}: v`)],
  ['Host: localhost', `Authorization: Bearer ${KEY}`, 'Content-Type: application/json'],
  ['Host: localhost', 'Content-Type: application/json', 'Content-Encoding: gzip'],
  ['Host: localhost', 'Expect: 100-continue', 'Content-Length: 10'],
  ['Host: localhost', 'Connection: close'],
  ['Host: localhost', 'Connection: Upgrade', 'Upgrade: websocket'],
  ['Host: localhost', 'Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAARAAAAA', 'Connection: Upgrade, HTTP2-Settings'],
);

const bodies = fc.oneof(
  fc.constantFrom('', '{}', '{"to":"a@b.test","subject":"s","body":"b"}', 'abc', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\nhello\r\n0\r\n\r\n', '5\r\nhel', '5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n', `${'f'.repeat(20)}\r\n`, '0\r\n\r\nGET /sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n', '-1\r\nx\r\n0\r\n\r\n'),
  fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b).toString('latin1')),
);

const request = fc.tuple(methods, targets, versions, eol, headerSets, bodies).map(([m, t, v, nl, headers, body]) => `${m} ${t} ${v}${nl}${headers.join(nl)}${nl}${nl}${body}`);
const session = fc.oneof(
  { weight: 4, arbitrary: request.map((r) => [r]) },
  // Pipelined: a broken request between good ones.
  { weight: 2, arbitrary: request.map((r) => ['GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n', r, 'GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n']) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3000 }).map((b) => [Buffer.from(b).toString('latin1')]) },
  { weight: 1, arbitrary: fc.constant<string[]>(['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x12\x04\x00\x00\x00\x00\x00']) },
  { weight: 1, arbitrary: fc.constant<string[]>(['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03']) },
);

/** Sends the session, half-closes, collects the answers until the server closes. */
function play(parts: string[]): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), CLOSE_DEADLINE_MS);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      for (const part of parts) socket.write(Buffer.from(part, 'latin1'));
      socket.end();
    });
  });
}

/** Splits what came back into responses: status, headers, body. */
function responses(text: string): { status: number; type: string; body: string }[] {
  const out: { status: number; type: string; body: string }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const head = rest.indexOf('\r\n\r\n');
    if (head === -1) break;
    const lines = rest.slice(0, head).split('\r\n');
    const status = Number(lines[0].slice(9, 12));
    const get = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? '';
    const length = Number(get('content-length') || 0);
    const chunked = /chunked/i.test(get('transfer-encoding'));
    let body = '';
    let next = head + 4;
    if (chunked) {
      const end = rest.indexOf('\r\n0\r\n\r\n', next);
      body = end === -1 ? rest.slice(next) : rest.slice(next, end);
      next = end === -1 ? rest.length : end + 7;
    } else {
      body = rest.slice(next, next + length);
      next += length;
    }
    out.push({ status, type: get('content-type'), body });
    rest = rest.slice(next);
  }
  if (rest.trim() !== '') out.push({ status: 0, type: '', body: rest.slice(0, 80) });
  return out;
}

const stats = { sessions: 0, responses: {} as Record<string, number>, problems: [] as string[] };

describe('raw HTTP below the routes', () => {
  // Node answers these with an empty 400 of its own unless told not to (found by the long run).
  it('answers an HTTP/1.1 request without Host with the contract\'s JSON 400', async () => {
    for (const start of ['GET /sandbox/health', 'TRACE /sandbox/reset', 'POST /v1/send', 'GET /', 'DELETE /sandbox/emails']) {
      const { text, closed } = await play([`${start} HTTP/1.1\r\n\r\n`]);
      expect(closed, start).toBe(true);
      const [first] = responses(text);
      expect(first, start).toMatchObject({ status: 400, type: expect.stringMatching(/^application\/json/) });
      expect(JSON.parse(first.body), start).toMatchObject({ status: 400, message: 'HTTP/1.1 requests must carry a Host header' });
    }
    // HTTP/1.0 has no Host requirement: the route answers.
    const { text } = await play(['GET /sandbox/health HTTP/1.0\r\n\r\n']);
    expect(responses(text)[0]?.status).not.toBe(400);
  });

  it('answers malformed HTTP in HTTP with JSON errors, never 5xx, closes on its own and keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(session, async (parts) => {
        stats.sessions++;
        const label = JSON.stringify(parts.join('').slice(0, 140));
        const { text, closed } = await play(parts);
        if (!closed) stats.problems.push(`not closed by the server within ${CLOSE_DEADLINE_MS} ms after the client finished: ${label}`);
        for (const r of responses(text)) {
          stats.responses[String(r.status)] = (stats.responses[String(r.status)] ?? 0) + 1;
          if (r.status === 0) stats.problems.push(`bytes that are not an HTTP response: ${JSON.stringify(r.body)} for ${label}`);
          else if (r.status >= 500) stats.problems.push(`${r.status} for ${label}`);
          else if (r.status >= 400 && r.body !== '') {
            let json: { status?: number } | undefined;
            try {
              json = JSON.parse(r.body);
            } catch {
              json = undefined;
            }
            if (!r.type.startsWith('application/json') || json?.status !== r.status) stats.problems.push(`${r.status} without the contract's JSON (${r.type}: ${r.body.slice(0, 60)}) for ${label}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const health = await fetch(`${server.url}/sandbox/health`);
    expect(health.status).toBe(200);
    if (REPORT) writeFileSync(REPORT, JSON.stringify({ runs: RUNS, seed: SEED, ...stats }, null, 2));
    expect([...new Set(stats.problems)]).toEqual([]);
  }, Math.max(60_000, RUNS * 500));
});
