import type { IncomingMessage, RequestListener } from 'node:http';
import type { Services } from '../context.js';
import { sendFromApi } from '../ingest/api-send.js';
import { bearerKey } from './auth.js';
import { asJsonObject, isUtf8Json, parseJsonText, utf8Text } from './body.js';
import { liftBase64Contents, liftedAsAttachments } from './lifted-base64.js';
import { answerError, writeJson } from './errors.js';
import type { SendResponse } from '../../../shared/email.js';
import type { Submitter } from '../ingest/submit.js';

/**
 * POST /v1/send without Express. Express's router, body-parser and response helpers
 * cost about a third of a send; a plain request (exact path, a JSON content type in UTF-8,
 * a declared length under the limit, a known key) is answered here with the same edge
 * functions the Express route uses (body.ts for the body, errors.ts for answers and the
 * error envelope, security-headers.ts for headers) and the same send (ingest/api-send.ts).
 * Anything else is left untouched for Express: the fast path may only ever say "not mine"
 * before it has read a byte of the body.
 */
export function withSendFastPath(services: Services, limitBytes: number, app: RequestListener): RequestListener {
  const logger = services.logger.child('http');
  return (req, res) => {
    const principal = isPlainSend(req, limitBytes) ? services.keys.resolve(bearerKey(req.headers.authorization!) ?? '') : null;
    if (!principal) return app(req, res);
    readBody(req, (body) => {
      const fail = (error: unknown) => answerError(res, error, logger, 'POST /v1/send', true);
      // Parsed here, outside any closure: the body and its strings are garbage as soon as
      // the email is composed, not kept alive until its commit (see ingest/api-send.ts).
      let sent: Promise<SendResponse>;
      try {
        sent = send(principal, body);
      } catch (error) {
        return fail(error);
      }
      sent.then((response) => writeJson(res, 200, response), fail);
    });
  };

  /** Long attachment contents stay bytes (lifted-base64.ts) unless they turn out not to be attachments. */
  function send(principal: Submitter, body: Buffer): Promise<SendResponse> {
    const lifted = liftBase64Contents(body);
    if (lifted) {
      let value: unknown;
      try {
        value = parseJsonText(lifted.text);
      } catch {
        value = undefined;
      }
      if (liftedAsAttachments(value, lifted)) return sendFromApi(services, principal, asJsonObject(value), lifted.contents);
    }
    return sendFromApi(services, principal, asJsonObject(parseJsonText(utf8Text(body))));
  }
}

function isPlainSend(req: IncomingMessage, limitBytes: number): boolean {
  if (req.method !== 'POST' || req.url !== '/v1/send') return false;
  const { headers } = req;
  if (headers.authorization === undefined || headers.host === undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined || headers.expect !== undefined) return false;
  if (!isUtf8Json(headers['content-type'])) return false;
  // Over the limit: Express answers the 413 (body.ts), so there is one place for it.
  const length = headers['content-length'];
  return length !== undefined && /^\d{1,9}$/.test(length) && Number(length) <= limitBytes;
}

/**
 * Collects the body; a client that goes away mid-body is simply dropped (no answer can reach
 * it). The chunks are let go of before `done`: this closure lives as long as the request,
 * which under load is until its batch commits, and held that long the chunks outlived two
 * young-generation collections and were only freed by full ones. (Reading into one buffer of
 * the declared length measured no better, and would let a client reserve the whole limit with
 * a header and a byte.)
 */
function readBody(req: IncomingMessage, done: (body: Buffer) => void): void {
  let chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    chunks = [];
    done(body);
  });
  req.on('error', () => req.destroy());
}
