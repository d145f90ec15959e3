import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from './errors.js';

/**
 * express.json, except that a body whose declared Content-Length is over the limit is
 * refused at once: body-parser would first read the whole upload (discarding it) and
 * only then answer 413, so a client streaming 100 MiB slowly held the request open.
 * The connection is not closed after the answer: closing a socket with unread data in
 * it makes the kernel send a reset, which can destroy the 413 still on its way (seen
 * under load). Node discards the rest of the body as it comes, without keeping it,
 * and requestTimeout cuts a client that keeps trickling it.
 */
export function jsonParser(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limitBytes) {
      return next(new ApiError(413, `Request body is ${declared} bytes, over the ${Math.round(limitBytes / 1024 / 1024)} MiB limit`));
    }
    parse(req, res, next);
  };
}

/** The JSON object body of a request: 415 when it is not JSON, 400 when it is not an object. */
export function requireJsonObject(req: Request): Record<string, unknown> {
  if (!req.is('application/json')) {
    throw new ApiError(415, 'Body must be JSON: send Content-Type: application/json');
  }
  return asJsonObject(req.body);
}

/** A parsed JSON body as an object; 400 for arrays, null and primitives. */
export function asJsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'Body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
