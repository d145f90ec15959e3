import type { Request } from 'express';
import { ApiError } from './errors.js';

/** The JSON object body of a request: 415 when it is not JSON, 400 when it is not an object. */
export function requireJsonObject(req: Request): Record<string, unknown> {
  if (!req.is('application/json')) {
    throw new ApiError(415, 'Body must be JSON: send Content-Type: application/json');
  }
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'Body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
