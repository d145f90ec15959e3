import type { ParsedQs } from 'qs';
import { listQuerySchema, EMAIL_STATUSES, type EmailStatus } from '../../../../shared/email.js';
import type { EmailFilter, Page } from '../../storage/emails.js';
import { ApiError } from '../errors.js';

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** True when the date and time fields name a real moment (Date.parse rolls 2026-02-30 into March). */
function realCalendarFields(value: string): boolean {
  const [, y, mo, d, h = '0', mi = '0', sec = '0'] = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/i.exec(value) ?? [];
  if (!y) return false;
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  return Number(mo) >= 1 && Number(mo) <= 12 && Number(d) >= 1 && Number(d) <= daysInMonth && Number(h) <= 23 && Number(mi) <= 59 && Number(sec) <= 59;
}

/**
 * An ISO 8601 bound in ms. A bare date is a whole UTC day: its start for
 * `start_date`, its last millisecond for `end_date`. A time without zone is UTC.
 */
export function parseDateBound(value: string, name: string, edge: 'start' | 'end'): number {
  const trimmed = value.trim();
  let ms: number;
  if (BARE_DATE.test(trimmed)) {
    ms = Date.parse(`${trimmed}T00:00:00.000Z`);
    if (!Number.isNaN(ms) && edge === 'end') ms += 86_400_000 - 1;
  } else if (ISO_DATE_TIME.test(trimmed)) {
    ms = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? trimmed : `${trimmed}Z`);
  } else {
    ms = NaN;
  }
  if (!realCalendarFields(trimmed)) ms = NaN;
  if (Number.isNaN(ms)) throw new ApiError(400, `${name} must be an ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z`, [{ field: name, message: 'invalid date' }]);
  return ms;
}

/** `/v1/emails` query → storage filter and page; 400 naming the parameter on a bad value. */
export function parseListQuery(query: ParsedQs | Record<string, unknown>, teamId: string | null): { filter: EmailFilter; page: Page; pageNumber: number; limit: number } {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.') || 'query';
    const message = issue.code === 'invalid_type' ? `${field} must be given once, as a string` : issue.message;
    throw new ApiError(400, `Invalid query parameter ${field}: ${message}`, parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })));
  }
  const q = parsed.data;
  const pageNumber = q.page ?? 1;
  const limit = q.limit ?? 10;
  const filter: EmailFilter = { teamId };
  if (q.search !== undefined && q.search.trim() !== '') filter.search = q.search.trim();
  if (q.start_date !== undefined) filter.startMs = parseDateBound(q.start_date, 'start_date', 'start');
  if (q.end_date !== undefined) filter.endMs = parseDateBound(q.end_date, 'end_date', 'end');
  if (filter.startMs !== undefined && filter.endMs !== undefined && filter.startMs > filter.endMs) {
    throw new ApiError(400, 'start_date is after end_date', [{ field: 'start_date', message: 'after end_date' }]);
  }
  if (q.status !== undefined) filter.statuses = [...new Set(q.status.split(',').map((s) => s.trim()))].filter((s): s is EmailStatus => (EMAIL_STATUSES as readonly string[]).includes(s));
  if (q.api_key_id !== undefined) filter.apiKeyId = q.api_key_id;
  return { filter, page: { offset: (pageNumber - 1) * limit, limit }, pageNumber, limit };
}
