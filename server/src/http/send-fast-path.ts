import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Services } from '../context.js';
import { sendFromApi } from '../ingest/api-send.js';
import { bearerKey } from './auth.js';
import { asJsonObject } from './body.js';
import { ApiError, errorBody, toApiError } from './errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * POST /v1/send without Express. Express's router, body-parser and response helpers
 * cost about a third of a send; a plain request (exact path, a JSON content type in UTF-8,
 * a declared length under the limit, a known key) is answered here with the same rules
 * (ingest/api-send.ts), the same headers and the same error bodies. Anything else is
 * left untouched for Express, which answers it as before: the fast path may only ever
 * say "not mine" before it has read a byte of the body.
 */
export function withSendFastPath(services: Services, limitBytes: number, app: RequestListener): RequestListener {
  const logger = services.logger.child('http');
  return (req, res) => {
    const principal = isPlainSend(req, limitBytes) ? services.keys.resolve(bearerKey(req.headers.authorization!) ?? '') : null;
    if (!principal) return app(req, res);
    readBody(req, (body) => {
      const send = async () => {
        let parsed: unknown;
        try {
          parsed = parseJson(body);
        } catch {
          throw new ApiError(400, 'Malformed JSON body');
        }
        return sendFromApi(services, principal, asJsonObject(parsed));
      };
      send().then(
        (response) => answer(res, 200, response),
        (error: unknown) => {
          const apiError = toApiError(error, logger, 'POST /v1/send');
          answer(res, apiError.status, errorBody(apiError, true), apiError.headers);
        },
      );
    });
  };
}

const JSON_TYPE = /^application\/json[ \t]*(?:;[ \t]*charset=(?:utf-8|"utf-8")[ \t]*)?$/i;

function isPlainSend(req: IncomingMessage, limitBytes: number): boolean {
  if (req.method !== 'POST' || req.url !== '/v1/send') return false;
  const { headers } = req;
  if (headers.authorization === undefined || headers.host === undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined || headers.expect !== undefined) return false;
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) return false;
  const length = headers['content-length'];
  return length !== undefined && /^\d{1,9}$/.test(length) && Number(length) <= limitBytes;
}

/** Collects the body; a client that goes away mid-body is simply dropped (no answer can reach it). */
function readBody(req: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  req.on('error', () => req.destroy());
}

/** As body-parser's strict JSON: empty is {}, a UTF-8 BOM is dropped, only an object or array at the top. */
function parseJson(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.length === 0) return {};
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw new SyntaxError('not an object or array');
  return JSON.parse(text);
}

/** JSON with the headers every answer carries (security-headers.ts), as res.json would write it. */
function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}
