import type { Request } from 'express';
import type { Services } from '../../context.js';
import type { EmailRow } from '../../storage/emails.js';
import { ApiError } from '../errors.js';

/** Query and path helpers shared by the /sandbox routers: one clear 400/404 each. */

/** A query parameter given at most once, as a string. */
export function queryString(req: Request, name: string, max = 500): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, `Query parameter ${name} must be given once, as a string`, [{ field: name, message: 'given more than once' }]);
  if (value.length > max) throw new ApiError(400, `Query parameter ${name} must be at most ${max} characters`, [{ field: name, message: 'too long' }]);
  return value;
}

export function queryBoolean(req: Request, name: string): boolean | undefined {
  const value = queryString(req, name);
  if (value === undefined || value === '') return undefined;
  const parsed = ({ true: true, '1': true, yes: true, false: false, '0': false, no: false } as Record<string, boolean>)[value.toLowerCase()];
  if (parsed === undefined) throw new ApiError(400, `Query parameter ${name} must be true or false`, [{ field: name, message: 'not a boolean' }]);
  return parsed;
}

export function queryInt(req: Request, name: string, min: number, max: number): number | undefined {
  const value = queryString(req, name);
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ApiError(400, `Query parameter ${name} must be a whole number from ${min} to ${max}`, [{ field: name, message: 'out of range' }]);
  }
  return Number(value);
}

/** A team id filter: the format of team ids, else 400. */
export function queryTeam(req: Request): string | undefined {
  const team = queryString(req, 'team_id', 64);
  if (team === undefined || team === '') return undefined;
  if (!/^[A-Za-z0-9_.-]+$/.test(team)) throw new ApiError(400, 'Query parameter team_id must be a team id such as team_0123456789ab', [{ field: 'team_id', message: 'invalid team id' }]);
  return team;
}

/** The email named by `:id` in any team, or 404. */
export function emailParam(services: Pick<Services, 'emails' | 'ids'>, req: Request): EmailRow {
  const internalId = services.ids.decode(String(req.params.id));
  const row = internalId === null ? undefined : services.emails.get(internalId);
  if (!row) throw new ApiError(404, `Email ${String(req.params.id).slice(0, 40)} not found`);
  return row;
}

/**
 * The JSON object body of a /sandbox request (the guard already checked its Content-Type).
 * `optional`: an empty body counts as `{}` (reset, delete).
 */
export function jsonBody(req: Request, optional = false): Record<string, unknown> {
  const body: unknown = req.body;
  // Express 5 leaves req.body undefined when the request had no body.
  if (body === undefined) {
    if (optional) return {};
    throw new ApiError(400, 'Body must be a JSON object');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'Body must be a JSON object');
  return body as Record<string, unknown>;
}
