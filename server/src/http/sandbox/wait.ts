import type { Request, RequestHandler } from 'express';
import type { WaitTimeout } from '../../../../shared/sandbox.js';
import type { Services } from '../../context.js';
import type { EmailFilter, EmailRow } from '../../storage/emails.js';
import { ApiError } from '../errors.js';
import { parseDateBound } from '../v1/list-query.js';
import { compileGlob, globProblem, longestLiteral, type GlobMatcher } from '../../simulation/glob.js';
import { buildView } from '../../emails/view.js';
import { queryBoolean, queryInt, queryString, queryTeam } from './query.js';

/**
 * `GET /sandbox/emails/wait` (CONTRACT §6, §8): a long poll that answers as soon as
 * `count` matching emails exist. It looks once when it starts, then only when the event
 * bus announces a new email — never on a timer — and ends at its timeout or at shutdown.
 */
export const DEFAULT_WAIT_MS = 10_000;
export const MAX_WAIT_MS = 300_000;
const MAX_COUNT = 100;
const SCAN_PAGE = 200;

interface WaitQuery {
  to: string | null;
  toPattern: GlobMatcher | null;
  subject: string | null;
  teamId: string | null;
  since: string | null;
  afterId?: number;
  sinceMs?: number;
  count: number;
  none: boolean;
  timeoutMs: number;
}

function parseQuery(req: Request, services: Pick<Services, 'ids'>): WaitQuery {
  const to = queryString(req, 'to', 320)?.trim() || null;
  if (to !== null) {
    const problem = globProblem(to);
    if (problem) throw new ApiError(400, `Query parameter to ${problem}`, [{ field: 'to', message: problem }]);
  }
  const subject = queryString(req, 'subject')?.trim() || null;
  const since = queryString(req, 'since', 64)?.trim() || null;
  const none = queryBoolean(req, 'none') ?? false;
  const count = queryInt(req, 'count', 1, MAX_COUNT);
  if (none && count !== undefined) throw new ApiError(400, 'count does not go with none=true: none waits for no matching email at all', [{ field: 'count', message: 'not with none' }]);
  const query: WaitQuery = {
    to,
    toPattern: to === null ? null : compileGlob(to),
    subject,
    teamId: queryTeam(req) ?? null,
    since,
    count: count ?? 1,
    none,
    timeoutMs: queryInt(req, 'timeout_ms', 0, MAX_WAIT_MS) ?? DEFAULT_WAIT_MS,
  };
  if (since !== null) {
    if (/^[0-9a-f]{16}$/.test(since)) {
      const id = services.ids.decode(since);
      if (id === null) throw new ApiError(400, `since ${since} is not an email id of this sendbox`, [{ field: 'since', message: 'unknown email id' }]);
      query.afterId = id;
    } else {
      try {
        query.sinceMs = parseDateBound(since, 'since', 'start');
      } catch {
        throw new ApiError(400, 'since must be an email id or an ISO 8601 time such as 2026-01-31T12:00:00Z', [{ field: 'since', message: 'neither an email id nor an ISO time' }]);
      }
    }
  }
  return query;
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/** Storage does the coarse filtering (team, since, substrings); the exact glob and subject test run here. */
function scope(query: WaitQuery, afterId: number | undefined): EmailFilter {
  const filter: EmailFilter = { teamId: query.teamId };
  if (afterId !== undefined) filter.afterId = afterId;
  if (query.sinceMs !== undefined) filter.startMs = query.sinceMs;
  return filter;
}

function findMatches(services: Pick<Services, 'emails'>, query: WaitQuery, afterId: number | undefined, limit: number): EmailRow[] {
  const { emails } = services;
  const filter = scope(query, afterId);
  // FTS trigram prefilters need 3 characters; non-ASCII case folding is left to the exact test below.
  if (query.subject && query.subject.length >= 3 && isAscii(query.subject)) filter.subject = query.subject;
  const literal = query.to ? longestLiteral(query.to) : '';
  if (literal.length >= 3 && isAscii(literal)) filter.to = literal;
  const subject = query.subject?.toLowerCase() ?? null;
  const found: EmailRow[] = [];
  for (;;) {
    const rows = emails.listAscending(filter, SCAN_PAGE);
    for (const row of rows) {
      if (subject !== null && !row.subject.toLowerCase().includes(subject)) continue;
      if (query.toPattern && !emails.recipients(row.id).some((r) => query.toPattern!.test(r.address))) continue;
      found.push(row);
      if (found.length === limit) return found;
    }
    if (rows.length < SCAN_PAGE) return found;
    filter.afterId = rows[rows.length - 1].id;
  }
}

function describe(query: WaitQuery): string {
  const parts = [
    query.to ? `to ${query.to}` : 'to anyone',
    query.subject ? `with a subject containing ${JSON.stringify(query.subject)}` : null,
    query.teamId ? `in ${query.teamId}` : null,
    query.since ? `created since ${query.since}` : null,
  ].filter(Boolean);
  return parts.join(' ');
}

export function waitHandler(services: Services): RequestHandler {
  const { emails, events, clock, stopping } = services;
  return (req, res, next) => {
    const query = parseQuery(req, services);
    // none=true only watches what arrives after the request (CONTRACT §8).
    const baseline = query.none ? Math.max(emails.maxId(), query.afterId ?? 0) : query.afterId;
    // Set once an answer is chosen (or the client left); the answer may still be rendering.
    let settled = false;
    let pending = false;

    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      unsubscribe();
      timer.clear();
      stopping.removeEventListener('abort', onStop);
      return true;
    };
    const send = (status: number, body: unknown) => {
      if (res.writableEnded || res.destroyed) return;
      if (status === 408) res.set('Connection', 'close');
      res.status(status).json(body);
    };

    const check = () => {
      pending = false;
      if (settled) return;
      const limit = query.none ? 1 : query.count;
      const rows = findMatches(services, query, baseline, limit);
      if (rows.length < limit || !settle()) return;
      Promise.all(rows.map((row) => buildView(services, row))).then((data) => {
        if (query.none) {
          const email = data[0];
          send(409, { status: 409, message: `An email ${describe(query)} arrived: ${JSON.stringify(email.subject)} to ${email.to_addresses.join(', ')} (${email.id})`, data: email });
        } else {
          send(200, { status: 200, message: `Found ${limit} matching email${limit === 1 ? '' : 's'}`, data });
        }
      }, next);
    };

    const unsubscribe = events.subscribe((event) => {
      if (settled || event.type !== 'email.created') return;
      if (query.teamId !== null && event.data.team_id !== query.teamId) return;
      // A burst of sends is looked at once, after the burst's batch is announced.
      if (!pending) {
        pending = true;
        setImmediate(check);
      }
    });

    const onTimeout = () => {
      if (!settle()) return;
      if (query.none) {
        send(200, { status: 200, message: `No email ${describe(query)} arrived within ${query.timeoutMs} ms`, data: [] });
        return;
      }
      send(408, timeoutBody(services, query, baseline));
    };
    const timer = clock.setTimeout(onTimeout, query.timeoutMs);
    const onStop = () => {
      if (settle()) send(503, { status: 503, message: 'sendbox is shutting down; the wait ended without an answer' });
    };
    stopping.addEventListener('abort', onStop);
    // The client went away: stop listening.
    res.on('close', settle);
    if (stopping.aborted) return onStop();
    if (!query.none) check();
  };
}

/** The 408: what was searched for, how many matched, how many were seen, and the near misses. */
function timeoutBody(services: Pick<Services, 'emails' | 'ids'>, query: WaitQuery, baseline: number | undefined): { status: 408; message: string; data: WaitTimeout } {
  const { emails, ids } = services;
  const matched = findMatches(services, query, baseline, query.count).length;
  const inScope = scope(query, baseline);
  const seen = emails.countMatching(inScope);
  const recent = emails.list(inScope, { offset: 0, limit: 5 }).rows.map((row) => ({ id: ids.encode(row.id), to: emails.recipients(row.id).map((r) => r.address), subject: row.subject }));
  const nearMiss = recent.length ? ` Most recent: ${recent.slice(0, 3).map((r) => `${JSON.stringify(r.subject)} to ${r.to.join(', ') || '(nobody)'}`).join('; ')}.` : '';
  return {
    status: 408,
    message: `Waited ${query.timeoutMs} ms for ${query.count} email${query.count === 1 ? '' : 's'} ${describe(query)}: ${matched} matched among ${seen} email${seen === 1 ? '' : 's'} seen.${nearMiss}`,
    data: {
      searched: { to: query.to, subject: query.subject, team_id: query.teamId, since: query.since, count: query.count, timeout_ms: query.timeoutMs },
      matched,
      seen,
      recent,
    },
  };
}
