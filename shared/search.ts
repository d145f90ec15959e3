/**
 * The search language of `GET /sandbox/emails?q=` and of the inbox's search box: one parser
 * for both, so the inbox explains exactly what the server will do. No runtime imports (the
 * inbox bundle must not pull zod in through shared/email.ts).
 *
 *   from:alice  to:bob  cc:carol  subject:"password reset"  tag:signup  status:bounced,failed
 *   is:read | is:unread  has:attachment | has:inline  after:2026-01-31  before:2026-02-01T12:00Z
 *   larger:100KB  smaller:1MB  header:X-Env=ci  header:List-Unsubscribe  "quoted phrase"  free text
 *
 * Any term can be negated with a leading `-`. Terms are AND-ed.
 */
import type { EmailStatus } from './email.js';

export const SEARCH_STATUSES = ['processing', 'queued', 'delivered', 'bounced', 'failed', 'complaint'] as const satisfies readonly EmailStatus[];
// Fails to compile when shared/email.ts gains a status this list does not have.
const statusesComplete: Exclude<EmailStatus, (typeof SEARCH_STATUSES)[number]> extends never ? true : never = true;
void statusesComplete;

/** Keys whose value is text matched as a case-insensitive substring (tag: exactly, case-insensitively). */
export const TEXT_KEYS = ['from', 'to', 'cc', 'subject', 'tag'] as const;
export type TextKey = (typeof TEXT_KEYS)[number];
export const SEARCH_KEYS = [...TEXT_KEYS, 'status', 'is', 'has', 'before', 'after', 'larger', 'smaller', 'header'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** One parsed term. `raw` is its text as written (without the `-`), for chips and error messages. */
export type SearchTerm = { negated: boolean; raw: string } & (
  | { kind: 'text'; value: string }
  | { kind: TextKey; value: string }
  | { kind: 'status'; statuses: EmailStatus[] }
  | { kind: 'is'; read: boolean }
  | { kind: 'has'; part: 'attachment' | 'inline' }
  /** A UTC instant in ms: after: keeps mail created at or after it, before: mail created before it. */
  | { kind: 'before' | 'after'; ms: number }
  /** Bytes of the raw message: larger: keeps size > bytes, smaller: size < bytes. */
  | { kind: 'larger' | 'smaller'; bytes: number }
  /** value null: the header is present (any value); otherwise a case-insensitive substring of its value. */
  | { kind: 'header'; name: string; value: string | null }
);

export interface SearchProblem {
  /** The term as written, e.g. `status:lost`. */
  term: string;
  message: string;
}

export interface ParsedSearch {
  terms: SearchTerm[];
  /** Terms that could not be parsed; the server answers 400 naming the first, the inbox lists them all. */
  problems: SearchProblem[];
}

/** A term as tokenized: optional `-`, optional `key:`, the value (quotes removed). */
export interface SearchToken {
  negated: boolean;
  key: string | null;
  value: string;
  /** The value was quoted: `"a:b"` is free text, never a filter. */
  quoted: boolean;
  /** The text as written, including `-`. */
  source: string;
  unterminated: boolean;
}

/** The longest query accepted: longer ones are refused rather than parsed slowly. */
export const MAX_QUERY_LENGTH = 2000;
export const MAX_TERMS = 30;

/** Splits on whitespace, keeping `"quoted phrases"` and `key:"quoted value"` together. */
export function tokenizeSearch(input: string): SearchToken[] {
  const tokens: SearchToken[] = [];
  let i = 0;
  while (i < input.length) {
    if (/\s/.test(input[i])) {
      i += 1;
      continue;
    }
    const start = i;
    let negated = false;
    if (input[i] === '-' && i + 1 < input.length && !/\s/.test(input[i + 1])) {
      negated = true;
      i += 1;
    }
    let key: string | null = null;
    const keyMatch = /^([A-Za-z]+):/.exec(input.slice(i, i + 40));
    if (keyMatch) {
      key = keyMatch[1].toLowerCase();
      i += keyMatch[0].length;
    }
    let value = '';
    let quoted = false;
    let unterminated = false;
    if (input[i] === '"') {
      quoted = true;
      const end = input.indexOf('"', i + 1);
      if (end === -1) {
        unterminated = true;
        value = input.slice(i + 1);
        i = input.length;
      } else {
        value = input.slice(i + 1, end);
        i = end + 1;
      }
    } else {
      const match = /^\S*/.exec(input.slice(i))!;
      value = match[0];
      i += value.length;
    }
    tokens.push({ negated, key, value, quoted, source: input.slice(start, i), unterminated });
  }
  return tokens;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** `100KB`, `1.5MB`, `2048` → bytes (1 KB = 1024 bytes); null when not a size. */
export function parseSize(value: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  if (!match) return null;
  const unit = UNITS[match[2].toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isFinite(bytes) ? bytes : null;
}

const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A bare date (a UTC day, its start) or an ISO 8601 date-time (UTC without a zone) → ms; null when not a real date. */
export function parseSearchDate(value: string): number | null {
  const match = BARE_DATE.exec(value) ?? DATE_TIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = match;
  const daysInMonth = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > daysInMonth || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const ms = Date.parse(BARE_DATE.test(value) ? `${value}T00:00:00.000Z` : zone ? value : `${value}Z`);
  return Number.isNaN(ms) ? null : ms;
}

// RFC 5322 §2.2: a field name is printable ASCII except colon.
const HEADER_NAME = /^[\x21-\x39\x3B-\x7E]{1,200}$/;

/** Each token with what it parsed to (a term, a problem, or neither for a lone `-`): the inbox's chips. */
export interface ParsedToken {
  index: number;
  source: string;
  term: SearchTerm | null;
  problem: string | null;
}

export function parseSearchTokens(input: string): ParsedToken[] {
  return tokenizeSearch(input).map((token, index) => {
    const result = parseToken(token);
    return { index, source: token.source, term: typeof result === 'string' ? null : result, problem: typeof result === 'string' ? result : null };
  });
}

/** Parses a query; never throws. Terms that cannot be parsed are reported, the others kept. */
export function parseSearch(input: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  const problems: SearchProblem[] = [];
  if (input.length > MAX_QUERY_LENGTH) {
    return { terms, problems: [{ term: `${input.slice(0, 40)}…`, message: `the search is longer than ${MAX_QUERY_LENGTH} characters` }] };
  }
  for (const { source, term, problem } of parseSearchTokens(input)) {
    if (problem !== null) problems.push({ term: source, message: problem });
    else if (term) terms.push(term);
  }
  if (terms.length > MAX_TERMS) problems.push({ term: terms[MAX_TERMS].raw, message: `a search takes at most ${MAX_TERMS} terms` });
  return { terms, problems };
}

/** A term, a problem (string) or null for nothing (a lone `-` or empty quotes). */
function parseToken(token: SearchToken): SearchTerm | string | null {
  const { negated, key, value } = token;
  const raw = negated ? token.source.slice(1) : token.source;
  if (token.unterminated) return 'the quote is not closed';
  if (key === null) {
    if (value === '') return null;
    return { kind: 'text', value, negated, raw };
  }
  if (!(SEARCH_KEYS as readonly string[]).includes(key)) {
    return `unknown filter ${key}: (filters: ${SEARCH_KEYS.map((k) => `${k}:`).join(' ')}); put the words in quotes to search for the text itself`;
  }
  if (value === '') return `${key}: needs a value`;
  const lower = value.toLowerCase();
  switch (key as SearchKey) {
    case 'from':
    case 'to':
    case 'cc':
    case 'subject':
    case 'tag':
      if (value.length > 500) return `${key}: takes at most 500 characters`;
      return { kind: key as TextKey, value, negated, raw };
    case 'status': {
      const names = [...new Set(lower.split(',').map((s) => s.trim()).filter(Boolean))];
      const unknown = names.find((s) => !(SEARCH_STATUSES as readonly string[]).includes(s));
      if (unknown !== undefined || names.length === 0) return `unknown status "${unknown ?? value}": use ${SEARCH_STATUSES.join(', ')} (a comma list for several)`;
      return { kind: 'status', statuses: names as EmailStatus[], negated, raw };
    }
    case 'is':
      if (lower !== 'read' && lower !== 'unread') return 'use is:read or is:unread';
      return { kind: 'is', read: lower === 'read', negated, raw };
    case 'has':
      if (['attachment', 'attachments'].includes(lower)) return { kind: 'has', part: 'attachment', negated, raw };
      if (lower === 'inline') return { kind: 'has', part: 'inline', negated, raw };
      return 'use has:attachment or has:inline';
    case 'before':
    case 'after': {
      const ms = parseSearchDate(value);
      if (ms === null) return `${key}: takes a date such as 2026-01-31 or 2026-01-31T12:00:00Z`;
      return { kind: key as 'before' | 'after', ms, negated, raw };
    }
    case 'larger':
    case 'smaller': {
      const bytes = parseSize(value);
      if (bytes === null) return `${key}: takes a size such as 500, 100KB or 2MB`;
      return { kind: key as 'larger' | 'smaller', bytes, negated, raw };
    }
    case 'header': {
      const eq = value.indexOf('=');
      const name = eq === -1 ? value : value.slice(0, eq);
      if (!HEADER_NAME.test(name)) return 'header: takes Name=value (or just Name), e.g. header:X-Env=ci';
      const headerValue = eq === -1 ? null : value.slice(eq + 1);
      return { kind: 'header', name, value: headerValue === '' ? null : headerValue, negated, raw };
    }
  }
  return null;
}

/** The term written back as query text (quoting what needs it), e.g. for the chips' removal. */
export function formatTerm(term: SearchTerm): string {
  return `${term.negated ? '-' : ''}${term.raw}`;
}

/** The query with the given terms only: what the inbox sends once it dropped the unparseable ones. */
export function formatSearch(terms: SearchTerm[]): string {
  return terms.map(formatTerm).join(' ');
}

/** A one-line description of a term for a chip: `from contains "alice"`, `not tagged "spam"`. */
export function describeTerm(term: SearchTerm): string {
  const not = term.negated ? 'not ' : '';
  switch (term.kind) {
    case 'text':
      return `${term.negated ? 'without' : 'contains'} "${term.value}"`;
    case 'tag':
      return `${not}tagged "${term.value}"`;
    case 'from':
    case 'to':
    case 'cc':
    case 'subject':
      return `${term.kind} ${term.negated ? 'does not contain' : 'contains'} "${term.value}"`;
    case 'status':
      return `status ${term.negated ? 'is not' : 'is'} ${term.statuses.join(' or ')}`;
    case 'is':
      return (term.read !== term.negated) ? 'read' : 'unread';
    case 'has':
      return `${term.negated ? 'without' : 'with'} ${term.part === 'attachment' ? 'attachments' : 'inline images'}`;
    case 'before':
    case 'after':
      return `${not}${term.kind} ${new Date(term.ms).toISOString().replace('T00:00:00.000Z', '').replace('.000Z', 'Z')}`;
    case 'larger':
    case 'smaller':
      return `${not}${term.kind} than ${formatBytes(term.bytes)}`;
    case 'header':
      return term.value === null ? `${term.negated ? 'without' : 'with'} header ${term.name}` : `header ${term.name} ${term.negated ? 'does not contain' : 'contains'} "${term.value}"`;
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** Replaces every term of `key` (negated or not) by `key:value`, or removes them when value is null; other text kept as written. */
export function setSearchKey(input: string, key: SearchKey, value: string | null): string {
  const kept = tokenizeSearch(input).filter((token) => token.key !== key).map((token) => token.source);
  if (value !== null && value !== '') kept.unshift(`${key}:${quoteValue(value)}`);
  return kept.join(' ');
}

/** Removes the token at `index` (as tokenizeSearch counts them), keeping the rest as written. */
export function removeSearchToken(input: string, index: number): string {
  return tokenizeSearch(input).filter((_, i) => i !== index).map((token) => token.source).join(' ');
}

/** A value quoted when it holds spaces (or is empty), so it stays one term. */
export function quoteValue(value: string): string {
  return /\s/.test(value) || value === '' ? `"${value.replace(/"/g, '')}"` : value;
}
