import type { RequestHandler, Request } from 'express';
import { ApiError } from './errors.js';
import type { KeyRegistry, Principal } from '../auth/keys.js';

const principals = new WeakMap<Request, Principal>();

/** `Authorization: Bearer <key>` → the key's team; anything else answers 401. */
export function requireApiKey(keys: KeyRegistry): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.authorization;
    if (!header) return next(new ApiError(401, 'Missing Authorization header; send "Authorization: Bearer <API key>"'));
    const key = bearerKey(header);
    if (key === null) return next(new ApiError(401, 'Authorization must be "Bearer <API key>"'));
    const principal = keys.resolve(key);
    if (!principal) return next(new ApiError(401, keys.mode === 'configured' ? 'Unknown API key' : 'Malformed API key'));
    principals.set(req, principal);
    next();
  };
}

/** The key of an `Authorization: Bearer <key>` header, or null when it has another shape. */
export function bearerKey(header: string): string | null {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null;
}

/** The principal `requireApiKey` attached to this request. */
export function principalOf(req: Request): Principal {
  const principal = principals.get(req);
  if (!principal) throw new ApiError(401, 'Not authenticated');
  return principal;
}
