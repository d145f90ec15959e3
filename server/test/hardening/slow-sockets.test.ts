import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createSendbox, type Sendbox } from '../../src/sendbox.js';
import { silentLogger } from '../../src/logger.js';
import { HTTP_TIMEOUTS } from '../../src/http/client-errors.js';
import { closesWithin, firstResponse, receivedMatch, trickle, watch } from './lib/sockets.js';

/**
 * Slow and idle clients are cut, oversized bodies are refused before they are read
 * whole. HTTP runs with short timeouts here (the same code paths as the defaults,
 * which `node scripts/load.mjs` checks against the built server); SMTP with short
 * --smtp-timeout-ms and --smtp-data-timeout-ms.
 */
const SHORT = { headersTimeout: 400, requestTimeout: 1_200, keepAliveTimeout: 300, connectionsCheckingInterval: 50 };
// Generous bounds: they only prove the socket is closed at all, the timeouts are far shorter.
const DEADLINE = 8_000;
const KEY = 'slow-socket-key-0001';

let dir: string;
let sendbox: Sendbox;
let httpPort: number;
let smtpPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sendbox-slow-'));
  const config = loadConfig(['--port', '0', '--smtp-port', '0', '--db', join(dir, 'db.sqlite'), '--delay-ms', '0', '--smtp-timeout-ms', '300', '--smtp-data-timeout-ms', '600'], {});
  sendbox = createSendbox(config, { logger: silentLogger, httpTimeouts: SHORT });
  ({ httpPort, smtpPort } = await sendbox.listen());
});

afterAll(async () => {
  await sendbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP slow and idle clients', () => {
  it('sweeps its connections often enough for the default timeouts to hold', () => {
    // Node checks header/request timeouts only on its sweep (30 s by default).
    expect(HTTP_TIMEOUTS.connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
    expect(HTTP_TIMEOUTS.headersTimeout).toBeLessThan(HTTP_TIMEOUTS.requestTimeout);
  });

  it('cuts a slowloris client that sends its headers a byte at a time, with a JSON 408', async () => {
    const w = await watch(httpPort);
    const request = `GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'s'.repeat(2000)}`;
    void trickle(w, request, 20);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    const res = firstResponse(w.received());
    expect(res?.status).toBe(408);
    expect(res?.json).toEqual({ status: 408, message: expect.any(String) });
    // It was cut long before it could finish its headers.
    expect(w.written()).toBeLessThan(request.length);
  });

  it('cuts a client that connects and says nothing', async () => {
    const w = await watch(httpPort);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
  });

  it('cuts a client that trickles a request body', async () => {
    const w = await watch(httpPort);
    w.socket.write(`POST /v1/send HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"to":"`);
    void trickle(w, Array.from({ length: 100_000 }, () => 'a'), 20);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(firstResponse(w.received())?.status).toBe(408);
  });

  it('closes an idle keep-alive connection after a request', async () => {
    const w = await watch(httpPort);
    w.socket.write('GET /sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(firstResponse(w.received())?.status).toBe(200);
  });

  it('answers a bare malformed request line with a JSON 400 and closes', async () => {
    const w = await watch(httpPort);
    w.socket.write('HELLO THERE\r\n\r\n');
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(firstResponse(w.received())).toEqual({ status: 400, json: { status: 400, message: expect.any(String) } });
  });

  it('answers headers over 16 KiB with a JSON 431', async () => {
    const w = await watch(httpPort);
    w.socket.write(`GET /sandbox/health?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(firstResponse(w.received())).toEqual({ status: 431, json: { status: 431, message: expect.any(String) } });
  });
});

describe('HTTP bodies over the limit', () => {
  for (const path of ['/v1/send', '/sandbox/rules', '/v1/domains']) {
    it(`refuses a declared 100 MiB body to ${path} with 413 before reading it`, async () => {
      const w = await watch(httpPort);
      const auth = path.startsWith('/v1') ? `Authorization: Bearer ${KEY}\r\n` : '';
      w.socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"to":"`);
      // Stream slowly: the answer must come without the server waiting for the body.
      void trickle(w, (function* () { for (;;) yield Buffer.alloc(16 * 1024, 0x61); })(), 20);
      expect(await receivedMatch(w, /^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n\{[\s\S]*\}/)).toBe(true);
      const res = firstResponse(w.received());
      expect(res?.status).toBe(413);
      expect(res?.json).toMatchObject({ status: 413, message: expect.any(String), ...(path === '/v1/send' ? { success: false } : {}) });
      // Only a sliver of the 100 MiB was on the wire when the answer came.
      expect(w.written()).toBeLessThan(10 * 1024 * 1024);
      w.socket.destroy();
    });
  }

  it('keeps no more than the limit of a chunked body without a length, and answers 413', async () => {
    const w = await watch(httpPort);
    w.socket.write(`POST /v1/send HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    // 40 MiB, past the 36 MiB limit: the parser stops keeping it there and discards the rest.
    for (let i = 0; i < 40 && !w.socket.destroyed; i++) await new Promise<void>((r) => w.socket.write(frame, () => r()));
    w.socket.write('0\r\n\r\n');
    expect(await receivedMatch(w, /^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n\{[\s\S]*\}/)).toBe(true);
    expect(firstResponse(w.received())).toMatchObject({ status: 413, json: { status: 413, success: false } });
    w.socket.destroy();
  });
});

describe('SMTP slow and idle clients', () => {
  it('disconnects a client that stays silent after the greeting, with a 421', async () => {
    const w = await watch(smtpPort);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(w.received()).toMatch(/^220 /);
    expect(w.received()).toMatch(/\r\n421 /);
  });

  it('disconnects a client that trickles a message after DATA, storing nothing', async () => {
    const before = sendbox.services.emails.count();
    const w = await watch(smtpPort);
    // After the greeting: smtp-server cuts a client that talks first, which is not what this tests.
    expect(await receivedMatch(w, /^220 /)).toBe(true);
    w.socket.write('EHLO slow.test\r\nMAIL FROM:<slow@x.test>\r\nRCPT TO:<r@x.test>\r\nDATA\r\n');
    expect(await receivedMatch(w, /\r\n354 /)).toBe(true);
    void trickle(w, (function* () { for (;;) yield 'x'; })(), 20);
    expect(await closesWithin(w, DEADLINE)).toBe(true);
    expect(w.received()).toMatch(/\r\n421 /);
    expect(sendbox.services.emails.count()).toBe(before);
  });
});
