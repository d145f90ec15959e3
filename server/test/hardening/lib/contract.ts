import type { RawResponse } from './http.js';

/**
 * The invariants of CONTRACT §3 every answer must keep, whatever was sent:
 * never a 5xx; a 4xx is JSON `{status, message, errors?}` with the HTTP status
 * mirrored (plus `success: false` and `timestamp` on /v1/send); no internals leak.
 * Returns the problems found (empty when the answer is fine).
 */
export function contractProblems(method: string, path: string, res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  if (res.status < 400 || method === 'HEAD') return problems.concat(leaks(res.text));

  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) problems.push(`error without a JSON Content-Type (${type || 'none'})`);
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return problems.concat(`error body is not a JSON object: ${res.text.slice(0, 120)}`);
  if (body.status !== res.status) problems.push(`body status ${String(body.status)} does not mirror HTTP ${res.status}`);
  if (typeof body.message !== 'string' || body.message.trim() === '') problems.push('error without a message');
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors)) problems.push('errors is not an array');
    else if (!body.errors.every((e) => e && typeof e === 'object' && typeof e.field === 'string' && typeof e.message === 'string')) problems.push('errors entries are not {field, message}');
  }
  // The wait endpoint's 408 and 409 say what it searched for, or which email arrived (CONTRACT §6).
  const allowed = new Set(['status', 'message', 'errors', 'success', 'timestamp', ...(isWaitPath(path) && (res.status === 408 || res.status === 409) ? ['data'] : [])]);
  const extra = Object.keys(body).filter((k) => !allowed.has(k));
  if (extra.length) problems.push(`error body has extra keys ${extra.join(', ')}`);
  if (isSendPath(path)) {
    if (body.success !== false) problems.push('/v1/send error without success: false');
    if (typeof body.timestamp !== 'string' || Number.isNaN(Date.parse(body.timestamp))) problems.push('/v1/send error without an ISO timestamp');
  }
  return problems.concat(leaks(res.text));
}

/** The path Express routes to the send handler (case-insensitive, optional trailing slash). */
export function isSendPath(path: string): boolean {
  const pathname = path.split('?')[0];
  return /^\/v1\/send\/?$/i.test(pathname);
}

const isWaitPath = (path: string) => /^\/sandbox\/emails\/wait\/?$/i.test(path.split('?')[0]);

/** Stack traces, file paths and SQL errors must never reach a client. */
function leaks(text: string): string[] {
  const problems: string[] = [];
  if (/\n\s+at .+\(.+:\d+:\d+\)/.test(text) || /node_modules|\/server\/src\/|\.ts:\d+/.test(text)) problems.push('response leaks a stack trace or a source path');
  if (/SQLITE_|sqlite3?\b.*error|no such (table|column)/i.test(text)) problems.push('response leaks a database error');
  return problems;
}

/** The success envelope of /v1 (except send) and /sandbox JSON answers. */
export function envelopeProblems(res: RawResponse): string[] {
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return [`2xx body is not JSON: ${res.text.slice(0, 80)}`];
  const problems: string[] = [];
  if (body.status !== res.status) problems.push(`2xx body status ${String(body.status)} does not mirror HTTP ${res.status}`);
  if (typeof body.message !== 'string') problems.push('2xx body without a message');
  if (!('data' in body)) problems.push('2xx body without data');
  return problems;
}
