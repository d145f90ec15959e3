import type { EmailStatus } from '../../../../shared/email';
import type { EmailListParams } from '../../lib/query-keys';
import { EMAIL_STATUS_LIST } from '../../lib/statuses';

/** What the search box asks for, after parsing `from:alice subject:"password reset" is:unread invoice`. */
export interface SearchFilters {
  /** Free text: a substring of subject, any recipient or the sender. */
  text: string;
  from?: string;
  to?: string;
  subject?: string;
  status?: EmailStatus[];
  hasAttachment?: boolean;
  isRead?: boolean;
}

export interface ParsedSearch {
  filters: SearchFilters;
  /** Plain-language problems (an unknown status…); the rest of the query still applies. */
  problems: string[];
}

interface Token {
  key: string | null;
  value: string;
}

const KEYS = ['from', 'to', 'subject', 'status', 'has', 'is'] as const;
type Key = (typeof KEYS)[number];
const isKey = (key: string): key is Key => (KEYS as readonly string[]).includes(key);

/** Splits on spaces, keeping `"quoted phrases"` and `key:"quoted value"` together. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S*))/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(input)) !== null) {
    const [whole, rawKey, quoted, bare] = match;
    if (whole === '') {
      pattern.lastIndex += 1;
      continue;
    }
    const key = rawKey?.toLowerCase() ?? null;
    const value = quoted ?? bare ?? '';
    if (key !== null && !isKey(key)) tokens.push({ key: null, value: whole });
    else tokens.push({ key, value });
  }
  return tokens;
}

/** Parses the inbox's search vocabulary: from:, to:, subject:, status:, has:attachment, is:unread / is:read, free text. */
export function parseSearch(input: string): ParsedSearch {
  const filters: SearchFilters = { text: '' };
  const problems: string[] = [];
  const words: string[] = [];
  for (const { key, value } of tokenize(input)) {
    const lower = value.toLowerCase();
    switch (key) {
      case null:
        if (value) words.push(value);
        break;
      case 'from':
      case 'to':
      case 'subject':
        if (value) filters[key] = value;
        break;
      case 'status': {
        const statuses = lower.split(',').map((s) => s.trim()).filter(Boolean);
        const known = statuses.filter((s): s is EmailStatus => (EMAIL_STATUS_LIST as readonly string[]).includes(s));
        for (const s of statuses) if (!known.includes(s as EmailStatus)) problems.push(`Unknown status "${s}": use ${EMAIL_STATUS_LIST.join(', ')}.`);
        if (known.length) filters.status = [...new Set(known)];
        break;
      }
      case 'has':
        if (lower === 'attachment' || lower === 'attachments') filters.hasAttachment = true;
        else if (lower) problems.push(`Unknown "has:${value}": use has:attachment.`);
        break;
      case 'is':
        if (lower === 'unread') filters.isRead = false;
        else if (lower === 'read') filters.isRead = true;
        else if (lower) problems.push(`Unknown "is:${value}": use is:unread or is:read.`);
        break;
    }
  }
  filters.text = words.join(' ');
  return { filters, problems };
}

/** The filters as `GET /sandbox/emails` query parameters. */
export function toListParams(filters: SearchFilters): Omit<EmailListParams, 'page' | 'limit' | 'team_id'> {
  const params: Omit<EmailListParams, 'page' | 'limit' | 'team_id'> = {};
  if (filters.text) params.search = filters.text;
  if (filters.from) params.from = filters.from;
  if (filters.to) params.to = filters.to;
  if (filters.subject) params.subject = filters.subject;
  if (filters.status?.length) params.status = filters.status.join(',');
  if (filters.hasAttachment !== undefined) params.has_attachment = filters.hasAttachment;
  if (filters.isRead !== undefined) params.is_read = filters.isRead;
  return params;
}

/** The query with every `key:` token replaced by `key:value` (or removed when value is null), the rest untouched. */
export function setToken(input: string, key: Key, value: string | null): string {
  const kept = tokenize(input)
    .filter((token) => token.key !== key)
    .map(({ key: k, value: v }) => (k === null ? (/\s/.test(v) ? `"${v}"` : v) : `${k}:${quote(v)}`));
  if (value !== null && value !== '') kept.unshift(`${key}:${quote(value)}`);
  return kept.join(' ');
}

const quote = (value: string) => (/\s/.test(value) || value === '' ? `"${value}"` : value);
