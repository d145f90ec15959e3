import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver for tests on 127.0.0.1 (port 0). It records every request and
 * answers from a script: `respond` is consumed one entry per request (a status code, or
 * 'hang' to never answer), then `fallback`. `next(n)` resolves when n requests arrived,
 * from the request itself rather than from polling.
 */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** What the receiver answered (null: it hung). */
  answered: number | null;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  respond: (number | 'hang')[];
  fallback: number | 'hang';
  /** Resolves with the first `count` requests once that many arrived. */
  received(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    requests: [],
    respond: [],
    fallback: 200,
    received(count, timeoutMs = 10_000) {
      if (receiver.requests.length >= count) return Promise.resolve(receiver.requests.slice(0, count));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${receiver.requests.length} of ${count} requests within ${timeoutMs} ms: ${receiver.requests.map((r) => r.json?.type).join(', ')}`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(receiver.requests.slice(0, count))) });
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // keep null: the assertion on json shows it
      }
      const answer = receiver.respond.length ? receiver.respond.shift()! : receiver.fallback;
      receiver.requests.push({ headers: req.headers, body, json, answered: answer === 'hang' ? null : answer });
      if (answer === 'hang') hanging.push(res);
      else res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : `error ${answer}`);
      for (const waiter of [...waiters]) {
        if (receiver.requests.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
