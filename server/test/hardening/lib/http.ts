import { Agent, request } from 'node:http';

/**
 * A raw HTTP client for hostile requests: any method token, any header (Host,
 * Content-Length, Content-Encoding included), any body bytes. fetch refuses most of
 * these, so the fuzzers and the HTTP-level security checks go through node:http.
 */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export type Outcome = { ok: true; res: RawResponse } | { ok: false; error: string; code?: string };

/** One keep-alive agent per target: thousands of requests without thousands of sockets. */
export function httpClient(baseUrl: string, { timeoutMs = 15_000, maxSockets = 8 } = {}) {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send(req: RawRequest): Promise<Outcome> {
      return new Promise((resolve) => {
        let settled = false;
        const done = (outcome: Outcome) => {
          if (settled) return;
          settled = true;
          resolve(outcome);
        };
        let r: ReturnType<typeof request>;
        const headers = { ...req.headers };
        // Frame every body: node:http sends a GET or DELETE body unframed otherwise, and the
        // server would read it as the next request.
        if (req.body !== undefined && !hasHeader(headers, 'content-length') && !hasHeader(headers, 'transfer-encoding')) headers['Content-Length'] = String(Buffer.byteLength(req.body));
        try {
          r = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, setHost: !hasHeader(req.headers, 'host') });
        } catch (error) {
          // Node refused to build it (invalid token or header): nothing reached the server.
          return done({ ok: false, error: (error as Error).message, code: 'CLIENT_REFUSED' });
        }
        const timer = setTimeout(() => {
          r.destroy();
          done({ ok: false, error: `no answer within ${timeoutMs} ms`, code: 'HANG' });
        }, timeoutMs);
        r.on('response', (res) => {
          const chunks: Buffer[] = [];
          const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            // An SSE stream never ends: its first chunk is the answer.
            if (streaming) res.destroy();
          });
          const finish = () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            done({ ok: true, res: { status: res.statusCode ?? 0, headers: res.headers, text, json } });
          };
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', () => finish());
        });
        r.on('error', (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          const code = error.code && /^ERR_(INVALID|HTTP_INVALID)/.test(error.code) ? 'CLIENT_REFUSED' : error.code;
          done({ ok: false, error: error.message, code });
        });
        if (req.body !== undefined) r.end(req.body);
        else r.end();
      });
    },
    close() {
      agent.destroy();
    },
  };
}

function hasHeader(headers: Record<string, unknown> | undefined, name: string): boolean {
  return Object.keys(headers ?? {}).some((k) => k.toLowerCase() === name);
}
