import type { Attachment } from 'mailparser';
import type { SandboxEmail, SandboxEmailSummary, SandboxFile, SandboxHeader } from '../../../shared/sandbox.js';
import type { EmailRow, EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import { presentEmail, presentLog } from './present.js';
import { iso } from '../clock.js';
import { extractLinks } from './links.js';
import { extractCodes } from './codes.js';
import { checkEmail } from './checks.js';

// mailparser takes ~200 ms to load; only this read view needs it, so it loads on first use
// instead of delaying start-up.
let mailparserModule: Promise<typeof import('mailparser')> | null = null;
const mailparser = () => (mailparserModule ??= import('mailparser'));

/**
 * The sandbox view of an email (CONTRACT §6, §8): the /v1 record plus what the inbox and
 * tests read — raw source, headers, attachments with download links, links, codes,
 * per-recipient outcomes and lint checks. The MIME parse is cached per email (the raw
 * message never changes), so live updates re-read only the changing parts.
 */

export function presentSummary(row: EmailRow, ids: IdCodec): SandboxEmailSummary {
  return { ...presentEmail(row, ids, null), is_read: row.is_read === 1, source: row.source, flags: JSON.parse(row.flags) as Record<string, unknown>, tags: JSON.parse(row.tags) as string[] };
}

interface ParsedParts {
  headers: SandboxHeader[];
  files: Omit<SandboxFile, 'url'>[];
  hasTextPart: boolean;
}

const CACHE_SIZE = 64;
const SCAN_LIMIT = 1024 * 1024;
const cache = new Map<string, ParsedParts>();

async function parsedParts(row: EmailRow, raw: Buffer): Promise<ParsedParts> {
  const key = `${row.id}:${row.message_id}:${row.size}`;
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place: the Map's insertion order is the LRU order.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const parsed = await (await mailparser()).simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true, keepCidLinks: true });
  const parts: ParsedParts = {
    headers: parsed.headerLines.map(({ line }) => splitHeader(line)),
    files: parsed.attachments.map((a, index) => describeFile(a, index)),
    hasTextPart: typeof parsed.text === 'string' && parsed.text.length > 0,
  };
  cache.set(key, parts);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return parts;
}

export async function buildView(services: { emails: EmailStore; ids: IdCodec }, given: EmailRow): Promise<SandboxEmail> {
  const { emails, ids } = services;
  const body = emails.body(given.id) ?? { text: '', html: '', raw: Buffer.alloc(0) };
  const id = ids.encode(given.id);
  const parts = await parsedParts(given, body.raw);
  // Everything below is read in one synchronous go after the parse, so the status,
  // the outcomes and the logs describe the same moment.
  const row = emails.get(given.id) ?? given;
  const files: SandboxFile[] = parts.files.map((f) => ({ ...f, url: `/sandbox/emails/${id}/attachments/${f.index}` }));
  const flags = JSON.parse(row.flags) as Record<string, unknown>;
  // Links, codes and checks read the first megabyte: what a person reads first, and a
  // bound on the regex work a huge or hostile message can cause.
  const html = body.html.slice(0, SCAN_LIMIT);
  const text = body.text.slice(0, SCAN_LIMIT);
  return {
    ...presentEmail(row, ids, body),
    logs: emails.logs(row.id, true).map((log) => presentLog(log, row, ids)),
    is_read: row.is_read === 1,
    source: row.source,
    flags,
    tags: JSON.parse(row.tags) as string[],
    raw: body.raw.toString('utf8'),
    headers: parts.headers,
    files,
    links: extractLinks(html, text),
    codes: extractCodes(text, html),
    outcomes: emails.recipients(row.id).map((r) => ({ recipient: r.address, state: r.state, decided_by: r.decided_by })),
    checks: checkEmail({ html, htmlBytes: Buffer.byteLength(body.html), text, hasTextPart: parts.hasTextPart, headers: parts.headers, files, flags, fromAddress: row.from_address, size: row.size }),
    events: emails.events(row.id).map((e) => ({ type: e.type as 'open' | 'click', recipient: e.recipient, url: e.url, at: iso(e.at) })),
  };
}

/** One attachment's bytes and description, or null when there is no such index. */
export async function attachmentAt(raw: Buffer, index: number): Promise<{ file: Omit<SandboxFile, 'url'>; content: Buffer } | null> {
  const parsed = await (await mailparser()).simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true, keepCidLinks: true });
  const attachment = parsed.attachments[index];
  return attachment ? { file: describeFile(attachment, index), content: attachment.content } : null;
}

function describeFile(a: Attachment, index: number): Omit<SandboxFile, 'url'> {
  const contentId = a.contentId ? a.contentId.replace(/^<|>$/g, '') : null;
  return {
    index,
    filename: a.filename || `attachment-${index + 1}`,
    content_type: a.contentType || 'application/octet-stream',
    size: a.size,
    content_id: contentId,
    inline: Boolean(contentId) && (a.related === true || a.contentDisposition === 'inline'),
  };
}

/** `Name: value` with folding removed (RFC 5322 §2.2.3) and encoded words decoded (RFC 2047). */
function splitHeader(line: string): SandboxHeader {
  const colon = line.indexOf(':');
  const name = colon < 0 ? line : line.slice(0, colon);
  const value = colon < 0 ? '' : line.slice(colon + 1).replace(/\r?\n(?=[ \t])/g, '').trim();
  return { name: name.trim(), value: decodeEncodedWords(value) };
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

export function decodeEncodedWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 §6.2).
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  return joined.replace(ENCODED_WORD, (whole, charset: string, encoding: string, text: string) => {
    try {
      const bytes = encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      return new TextDecoder(charset.split('*')[0].toLowerCase()).decode(bytes);
    } catch {
      return whole;
    }
  });
}
