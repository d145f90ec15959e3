import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ZodError } from 'zod';
import type { ErrorBody, FieldError } from '../../../shared/errors.js';
import type { Logger } from '../logger.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { DomainError, Refused, invalidFromZod, type Refusal } from '../errors.js';

/** The one error type: throw it anywhere, the middleware writes the contract's JSON. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422 from a zod failure, with dotted field paths (`to.1`, `attachments.0.content`). */
export function validationError(error: ZodError, prefix = ''): ApiError {
  return fromDomain(invalidFromZod(error, prefix));
}

const DOMAIN_STATUS: Record<DomainError['kind'], number> = { invalid: 422, bad_query: 400, not_found: 404, conflict: 409, too_large: 413 };

/** A domain error as the contract's status (CONTRACT §3): the one place domain values meet HTTP codes. */
function fromDomain(error: DomainError): ApiError {
  return new ApiError(DOMAIN_STATUS[error.kind], error.message, error.fields);
}

/** A refused send: a rule's own status and Retry-After, or 403 for strict sender mode. */
function fromRefusal(refusal: Refusal): ApiError {
  const headers = refusal.retryAfter === null ? undefined : { 'Retry-After': String(refusal.retryAfter) };
  return new ApiError(refusal.reason === 'unverified_sender' ? 403 : (refusal.code ?? 403), refusal.message, undefined, headers);
}

/** Errors that body-parser raises, mapped to the contract's codes. */
function fromBodyParser(error: { type?: string; status?: number; message?: string }): ApiError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'Malformed JSON body');
    case 'entity.too.large':
      return new ApiError(413, 'Request body is larger than the 25 MiB limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'Unsupported body encoding or charset');
    case 'request.aborted':
      return new ApiError(400, 'Request aborted by the client');
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ApiError(400, 'Invalid request body');
    default:
      return null;
  }
}

export function errorBody(error: ApiError, isSend: boolean): ErrorBody {
  const body: ErrorBody = { status: error.status, message: error.message };
  if (error.errors) body.errors = error.errors;
  if (isSend) {
    body.success = false;
    body.timestamp = new Date().toISOString();
  }
  return body;
}

/** Anything thrown while answering, as the ApiError to answer with; unexpected ones are logged as 500s. */
export function toApiError(err: unknown, logger: Logger, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return fromDomain(err);
  if (err instanceof Refused) return fromRefusal(err.refusal);
  if (err && typeof err === 'object') {
    const known = fromBodyParser(err);
    if (known) return known;
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError(status, 'Bad request');
  }
  logger.error(`${what} failed`, err);
  return new ApiError(500, 'Internal error; it has been logged');
}

/** JSON with the headers every answer carries (security-headers.ts), as res.json would write it. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

/** The one way a failure is answered, by Express and by the /v1/send fast path alike. */
export function answerError(res: ServerResponse, err: unknown, logger: Logger, what: string, sendEnvelope: boolean): void {
  const apiError = toApiError(err, logger, what);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeJson(res, apiError.status, errorBody(apiError, sendEnvelope), apiError.headers);
}

const sendResponses = new WeakSet<ServerResponse>();

/** Marks a request to POST /v1/send: its errors carry `success: false` and `timestamp` (CONTRACT §3). */
export const sendEnvelope: RequestHandler = (req, res, next) => {
  if (req.path === '/') sendResponses.add(res);
  next();
};

/** Registered last: Express only runs error middleware added after the routes. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    answerError(res, err, logger, `${req.method} ${req.originalUrl}`, sendResponses.has(res));
  };
}

/** 404 for routes nobody serves. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, `No route for ${req.method} ${req.path}`));
};

/** 405 with Allow, for a known path with the wrong method. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, _res, next) => {
    next(new ApiError(405, `Method ${req.method} not allowed here; use ${allowed.join(' or ')}`, undefined, { Allow: allowed.join(', ') }));
  };
}
