import addressparser from 'nodemailer/lib/addressparser/index.js';
import type { ParsedAddress } from '../../../shared/address.js';
import { htmlToText } from './content.js';
import type { IngestInput } from './ingest.js';
import { decodeWords, headerValue, readMime, type HeaderField } from './mime.js';

/**
 * A captured SMTP message → the ingest pipeline's input. The raw bytes are stored as
 * received; sender, subject and display names come from the headers, the recipients
 * from the envelope (CONTRACT §7).
 */
export interface SmtpEnvelope {
  /** MAIL FROM; "" for the null sender `<>`. */
  mailFrom: string;
  /** RCPT TO addresses in the order given. */
  rcptTo: string[];
}

export interface SmtpPrincipal {
  teamId: string;
  apiKeyId: number;
}

// RFC 5322 §2.1.1: no line, so no Message-ID, is longer than 998 characters.
const MAX_MESSAGE_ID = 998;

export function parseSmtpMessage(raw: Buffer, envelope: SmtpEnvelope, principal: SmtpPrincipal, defaultFrom: string): IngestInput {
  const mime = readMime(raw);
  const { headers } = mime;

  // The envelope says who received the message: each RCPT TO is one recipient, shown
  // as to or cc (with its display name) when the headers list it, else as bcc. Header
  // addresses that were not envelope recipients received nothing; the raw keeps them.
  const received = new Set(envelope.rcptTo.map((a) => a.toLowerCase()));
  const seen = new Set<string>();
  const pick = (list: ParsedAddress[]) =>
    list.filter(({ address }) => {
      const key = address.toLowerCase();
      if (!received.has(key) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const to = pick(addressesOf(headers, 'to'));
  const cc = pick(addressesOf(headers, 'cc'));
  const bcc = pick(envelope.rcptTo.map((address) => ({ name: '', address })));
  const from = addressesOf(headers, 'from')[0] ?? { name: '', address: envelope.mailFrom || defaultFrom };

  let text = clean(mime.text);
  const html = clean(mime.html);
  if (!text.trim() && html) text = htmlToText(html);

  return {
    teamId: principal.teamId,
    apiKeyId: principal.apiKeyId,
    source: 'smtp',
    messageId: messageIdOf(headerValue(headers, 'message-id')),
    from,
    to,
    cc,
    bcc,
    replyTo: addressesOf(headers, 'reply-to')[0] ?? null,
    subject: clean(decodeWords(headerValue(headers, 'subject') ?? '').trim()),
    text,
    html,
    headers: headerMap(headers),
    attachments: mime.attachments,
    inline: mime.inline,
    raw,
  };
}

/** Every address of a field (all its occurrences, groups flattened), names decoded. */
function addressesOf(headers: HeaderField[], name: string): ParsedAddress[] {
  const out: ParsedAddress[] = [];
  for (const field of headers) {
    if (field.name !== name) continue;
    for (const entry of parseAddressList(field.value)) {
      const address = entry.address.trim();
      // A group name without members, a bare word, or an encoded word posing as an
      // address (RFC 2047 §5 forbids them there) is no mailbox.
      if (!address.includes('@') || address.includes('=?')) continue;
      out.push({ name: clean(decodeWords(entry.name).trim()), address });
    }
  }
  return out;
}

// `addr` or `Name <addr>` with nothing RFC 5322 makes hard (quotes, comments, groups,
// escapes, an @ in the name): by far the common case, read without the full tokenizer.
const HARD = /["():;\\]/;
const SIMPLE_MAILBOX = /^\s*(?:([^<>@]*?)\s*<([^<>\s@]+@[^<>\s@]+)>|([^<>\s@]+@[^<>\s@]+))\s*$/;

/** An address list as nodemailer's addressparser reads it (groups flattened). */
export function parseAddressList(value: string): { name: string; address: string }[] {
  if (HARD.test(value)) return addressparser(value, { flatten: true });
  const out: { name: string; address: string }[] = [];
  for (const piece of value.split(',')) {
    if (!piece.trim()) continue;
    const match = SIMPLE_MAILBOX.exec(piece);
    if (!match) return addressparser(value, { flatten: true });
    out.push(match[3] !== undefined ? { name: '', address: match[3] } : { name: match[1].replace(/\s+/g, ' '), address: match[2] });
  }
  return out;
}

/** Lower-cased name → decoded value of its first occurrence (X-Sendbox-Outcome, rules). */
function headerMap(headers: HeaderField[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const field of headers) {
    if (!map.has(field.name)) map.set(field.name, decodeWords(field.value.trim()));
  }
  return map;
}

/** The Message-ID without its angle brackets, or undefined to let ingest make one. */
function messageIdOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bracketed = /<([^<>\s]+)>/.exec(value);
  const id = bracketed ? bracketed[1] : value.trim();
  if (!id || /\s/.test(id) || id.length > MAX_MESSAGE_ID) return undefined;
  return id;
}

// NUL is not text: it would cut strings short in tools reading the database.
const clean = (value: string) => (value.includes('\u0000') ? value.replace(/\u0000/g, '\uFFFD') : value);

