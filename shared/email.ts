import { z } from 'zod';
import { parseAddress } from './address.js';

export const EMAIL_STATUSES = ['processing', 'queued', 'delivered', 'failed', 'bounced', 'complaint'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type RecipientType = 'to' | 'cc' | 'bcc';

export const LIMITS = {
  recipients: 50,
  attachments: 5,
  attachmentBytes: 5 * 1024 * 1024,
  messageBytes: 25 * 1024 * 1024,
  pageSize: 100,
} as const;

const noLineBreaks = (value: string) => !/[\r\n]/.test(value);

/** One address or `Name <address>`. */
export const addressString = z.string().check((ctx) => {
  if (!parseAddress(ctx.value)) {
    ctx.issues.push({ code: 'custom', message: `invalid email address: ${JSON.stringify(ctx.value.slice(0, 100))}`, input: ctx.value });
  }
});

const invalidAddress = (value: string) => `invalid email address: ${JSON.stringify(value.slice(0, 100))}`;

/** A string or an array of strings, each an address; errors name the entry (`to.1`). */
const recipientList = z.union([z.string(), z.array(z.string())], {
  error: 'must be an address string or an array of address strings',
}).check((ctx) => {
  const entries = Array.isArray(ctx.value) ? ctx.value : [ctx.value];
  entries.forEach((entry, index) => {
    if (!parseAddress(entry)) {
      ctx.issues.push({ code: 'custom', path: Array.isArray(ctx.value) ? [index] : [], message: invalidAddress(entry), input: entry });
    }
  });
});

// RFC 5322 §3.6.8: a field name is printable US-ASCII except colon.
const HEADER_NAME = /^[\x21-\x39\x3B-\x7E]+$/;
/** Headers the API composes itself; a caller may not set them. */
export const RESERVED_HEADERS = ['from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'mime-version', 'reply-to'];

export const headersSchema = z.record(z.string(), z.string({ error: 'header value must be a string' })).check((ctx) => {
  for (const [name, value] of Object.entries(ctx.value)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) {
      ctx.issues.push({ code: 'custom', path: [name], message: 'header name must be printable ASCII without spaces or colons (RFC 5322)', input: name });
    } else if (RESERVED_HEADERS.includes(lower) || lower.startsWith('content-')) {
      ctx.issues.push({ code: 'custom', path: [name], message: `header ${name} is set by sendbox and cannot be overridden`, input: name });
    } else if (/[\r\n]/.test(value)) {
      ctx.issues.push({ code: 'custom', path: [name], message: 'header value must not contain CR or LF', input: value });
    } else if (value.length > 4096) {
      ctx.issues.push({ code: 'custom', path: [name], message: 'header value is longer than 4096 characters', input: '' });
    }
  }
});

// Standard alphabet, padding optional, line breaks ignored (CONTRACT §8). Attachments are
// megabytes long, so this is one pass over char codes rather than regular expressions.
const BASE64_ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_ALPHABET[c.charCodeAt(0)] = 1;

/**
 * Node's Buffer where there is one (the server, where megabyte attachments arrive). Its
 * decoder skips characters outside its alphabet and stops at a `=`, so the string is strict
 * base64 when it holds no `-` or `_` (the URL-safe letters it also reads) and decodes to
 * exactly the bytes its length promises: 0.12 ms for a 1 MB attachment, where the loop below
 * takes ~1.8 ms and a decode-and-re-encode comparison took 0.63 ms. The inbox, in a browser,
 * only has the loop; a test checks that both give the same verdict on every input.
 */
const nativeBase64 = (globalThis as { Buffer?: { allocUnsafe(size: number): { write(value: string, encoding: 'base64'): number } } }).Buffer;
// Decoded a slice at a time into one small buffer: a fresh megabyte per attachment costs more
// in page faults than the decoding itself. 65 536 characters are 49 152 bytes exactly.
const SLICE_CHARS = 65536;
let scratch: { write(value: string, encoding: 'base64'): number } | null = null;

/**
 * Whether text is strict base64: the standard alphabet, at most two `=` at the end, completing
 * a quantum. Read through `codeAt` (a character's code), `slice` (a piece as a string, for
 * Node's decoder) and `urlSafe` (whether a `-` or `_` is in it), so the server can ask it of a
 * request's bytes without making them one string (server/src/http/lifted-base64.ts).
 */
export function isStrictBase64(length: number, codeAt: (i: number) => number, slice: (start: number, end: number) => string, urlSafe: () => boolean): boolean {
  let data = length;
  while (data > 0 && codeAt(data - 1) === 61 /* = */) data--;
  if (length - data > 2) return false;
  // One leftover character cannot encode a byte; padding, when present, completes a quantum.
  if (data % 4 === 1) return false;
  if (data !== length && length % 4 !== 0) return false;
  if (nativeBase64) {
    if (urlSafe()) return false;
    // How many bytes Node's decoder gets out of it (what it skips or stops at is missing).
    scratch ??= nativeBase64.allocUnsafe((SLICE_CHARS / 4) * 3);
    let bytes = 0;
    for (let at = 0; at < length; at += SLICE_CHARS) bytes += scratch.write(slice(at, Math.min(at + SLICE_CHARS, length)), 'base64');
    return bytes === Math.floor((data * 3) / 4);
  }
  for (let i = 0; i < data; i++) {
    const code = codeAt(i);
    if (code > 127 || BASE64_ALPHABET[code] === 0) return false;
  }
  return true;
}

/** Removes line breaks; returns null when the rest is not strict base64. */
export function normalizeBase64(content: string): string | null {
  const compact = content.includes('\n') ? content.replace(/\r?\n/g, '') : content;
  const strict = isStrictBase64(compact.length, (i) => compact.charCodeAt(i), (start, end) => (start === 0 && end === compact.length ? compact : compact.slice(start, end)),
    () => compact.includes('-') || compact.includes('_'));
  return strict ? compact : null;
}

/** Decoded byte length of normalized base64, without decoding it. */
export function base64DecodedLength(normalized: string | Uint8Array): number {
  const codeAt = typeof normalized === 'string' ? (i: number) => normalized.charCodeAt(i) : (i: number) => normalized[i];
  let data = normalized.length;
  while (data > 0 && codeAt(data - 1) === 61 /* = */) data--;
  return Math.floor((data * 3) / 4);
}

export const attachmentSchema = z.object({
  filename: z.string().min(1, 'filename must not be empty').max(255).refine(noLineBreaks, 'filename must not contain CR or LF'),
  // Normalized once here (line breaks removed); the send handler uses the result as is.
  content: z.string().transform((value, ctx) => {
    const normalized = normalizeBase64(value);
    if (normalized === null) {
      ctx.issues.push({ code: 'custom', message: 'content must be base64 (standard alphabet)', input: value });
      return z.NEVER;
    }
    return normalized;
  }),
  contentType: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/, 'contentType must have the form type/subtype'),
  contentId: z.string().min(1).max(255).refine(noLineBreaks, 'contentId must not contain CR or LF').optional(),
});

export const sendRequestSchema = z.object({
  from: addressString.optional(),
  to: recipientList,
  subject: z.string({ error: 'subject is required and must be a string' }).max(998).refine(noLineBreaks, 'subject must not contain CR or LF'),
  body: z.string({ error: 'body is required and must be a string' }).min(1, 'body must not be empty'),
  cc: recipientList.optional(),
  bcc: recipientList.optional(),
  username: z.string().max(200).refine(noLineBreaks, 'username must not contain CR or LF').optional(),
  reply_to: addressString.optional(),
  headers: headersSchema.optional(),
  attachments: z.array(attachmentSchema, { error: 'attachments must be an array' }).max(LIMITS.attachments, `at most ${LIMITS.attachments} attachments`).optional(),
}).check((ctx) => {
  const count = (v: string | string[] | undefined) => (v === undefined ? 0 : Array.isArray(v) ? v.length : 1);
  const { to, cc, bcc } = ctx.value;
  if (count(to) === 0) ctx.issues.push({ code: 'custom', path: ['to'], message: 'at least one recipient is required', input: to });
  const total = count(to) + count(cc) + count(bcc);
  if (total > LIMITS.recipients) {
    ctx.issues.push({ code: 'custom', path: ['to'], message: `at most ${LIMITS.recipients} recipients in to, cc and bcc together (got ${total})`, input: total });
  }
});

export type SendRequest = z.infer<typeof sendRequestSchema>;
export type AttachmentInput = z.infer<typeof attachmentSchema>;

export const listQuerySchema = z.object({
  // Any whole number: a page past the end (however far) is empty with true totals.
  page: z.string().regex(/^\d+$/, 'page must be a whole number').transform(Number).refine((n) => n >= 1, 'page must be 1 or more').optional(),
  limit: z.string().regex(/^\d+$/, 'limit must be a whole number').transform(Number).refine((n) => n >= 1 && n <= LIMITS.pageSize, `limit must be between 1 and ${LIMITS.pageSize}`).optional(),
  search: z.string().max(500).optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
  status: z.string().refine((value) => value.split(',').every((s) => (EMAIL_STATUSES as readonly string[]).includes(s.trim())), `status must be one or a comma list of ${EMAIL_STATUSES.join(', ')}`).optional(),
  api_key_id: z.string().regex(/^\d+$/, 'api_key_id must be a whole number').transform(Number).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface EmailMetadata {
  from: string;
  to: string[];
  cc: string[] | null;
  bcc: string[] | null;
  reply_to: string | null;
  text: string;
  html: string;
}

export interface EmailLogEntry {
  email_id: string;
  team_id: string;
  status: EmailStatus;
  from: string;
  to: string;
  subject: string;
  response: string;
  code: string;
  mx_hostname: string;
  time: number;
  queued_at: string;
  recipient: string;
  recipient_type: RecipientType;
}

/** The email record of the provider API (list items omit `logs`). */
export interface Email {
  id: string;
  message_id: string;
  from_address: string;
  to_addresses: string[];
  subject: string;
  size: number;
  inline: number;
  attachments: number;
  api_key_id: number;
  snippet: string;
  created_at: string;
  team_id: string;
  metadata: EmailMetadata;
  opened_at: string | null;
  delivered_at: string | null;
  click_count: number;
  status: EmailStatus;
  credits_used: number;
  logs?: EmailLogEntry[];
}

export interface SendResult {
  message: string;
  email_id: string;
}

export interface SendResponse {
  success: true;
  data: SendResult[];
  timestamp: string;
}

export interface Pagination {
  page: number;
  total_records: number;
  total_pages: number;
  limit: number;
}

export interface EmailListResponse {
  status: 200;
  message: string;
  data: { data: Email[]; pagination: Pagination };
}
