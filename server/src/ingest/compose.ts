import { randomBytes } from 'node:crypto';
import { encodeWords, foldLines, buildHeaderValue } from 'nodemailer/lib/mime-funcs/index.js';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp/index.js';
import type { ParsedAddress } from '../../../shared/address.js';
import type { BodySpans } from '../storage/emails.js';

/**
 * Composes an RFC 5322 / MIME message for an API send. The layout is ours; every
 * encoding (RFC 2047 words, quoted-printable, RFC 2231 parameters, folding) comes from
 * nodemailer's own helpers. It exists because nodemailer's stream-based MailComposer
 * costs ~1 ms a message on this hardware, several times the rest of a send.
 */
export interface ComposeInput {
  messageId: string;
  date: number;
  from: ParsedAddress;
  to: ParsedAddress[];
  cc: ParsedAddress[];
  replyTo: ParsedAddress;
  subject: string;
  text: string;
  html: string | null;
  /**
   * `text` was made from `html` by this version of TEXT_GENERATORS (shared/html-text.ts): when
   * its part is 7bit, the stored message leaves those bytes out and storage regenerates them.
   */
  textGenerator?: number;
  headers: Record<string, string>;
  attachments: ComposeAttachment[];
}

export interface ComposeAttachment {
  filename: string;
  /** Normalized base64 (no line breaks), as a string or as the request's bytes: wrapped as is, never decoded here. */
  base64: string | Buffer;
  contentType: string;
  contentId?: string;
}

const CRLF = '\r\n';
const ASCII = /^[\x00-\x7F]*$/;

function header(name: string, value: string): string {
  return foldLines(`${name}: ${value}`, 76);
}

function encodeText(value: string): string {
  return ASCII.test(value) ? value : encodeWords(value, 'Q', 52);
}

/** `"Name" <addr>` with RFC 2047 words for non-ASCII names. */
function formatAddressHeader({ name, address }: ParsedAddress): string {
  if (!name) return address;
  if (!ASCII.test(name)) return `${encodeWords(name, 'Q', 52)} <${address}>`;
  const quoted = /[()<>\[\]:;@\\,."]/.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}"` : name;
  return `${quoted} <${address}>`;
}

/**
 * What composing needs to know of a body: whether its line breaks are all CRLF already,
 * whether they are all bare LF (no CR at all), whether it is all ASCII, and whether a line
 * (between any of CRLF, LF or CR, as normalizing will see them) exceeds SMTP's 998
 * characters. Without a CR (most bodies) this is native work only: the UTF-8 length for
 * ASCII and one indexOf per line; otherwise one pass over the characters.
 */
export function scanBody(content: string): { crlf: boolean; lf: boolean; ascii: boolean; longLine: boolean; breaks: number } {
  if (content.indexOf('\r') !== -1) return { ...scanEveryCharacter(content), breaks: -1 };
  const ascii = Buffer.byteLength(content, 'utf8') === content.length;
  let longLine = false;
  let lineStart = 0;
  let breaks = 0;
  for (let nl = content.indexOf('\n'); nl !== -1; nl = content.indexOf('\n', lineStart)) {
    if (nl - lineStart > 998) longLine = true;
    lineStart = nl + 1;
    breaks++;
  }
  if (content.length - lineStart > 998) longLine = true;
  return { crlf: breaks === 0, lf: true, ascii, longLine, breaks };
}

function scanEveryCharacter(content: string): { crlf: boolean; lf: boolean; ascii: boolean; longLine: boolean } {
  let crlf = true;
  let ascii = true;
  let longLine = false;
  let lineLength = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 13 || c === 10) {
      if (c === 13 && content.charCodeAt(i + 1) === 10) i++;
      else crlf = false;
      if (lineLength > 998) longLine = true;
      lineLength = 0;
      continue;
    }
    if (c > 0x7f) ascii = false;
    lineLength++;
  }
  if (lineLength > 998) longLine = true;
  return { crlf, lf: false, ascii, longLine };
}

/**
 * The message as a list of pieces, so a large body or attachment is encoded to bytes once
 * (never concatenated into one big string first) and a text part's byte range is known.
 */
type Piece = string | Buffer | { part: 'text' | 'html'; ascii: string; lf: boolean } | { generated: number; length: number; lf: boolean } | { base64: string | Buffer };

/**
 * 7bit when it can be, else quoted-printable; line breaks become CRLF. A 7bit part generated
 * by `generator` is only measured: its bytes are left out of the stored message.
 */
function textPart(contentType: string, content: string, part: 'text' | 'html', generator?: number): Piece[] {
  const { crlf, lf, ascii, longLine, breaks } = scanBody(content);
  const plain = ascii && !longLine;
  const head = `Content-Type: ${contentType}; charset=utf-8${CRLF}Content-Transfer-Encoding: ${plain ? '7bit' : 'quoted-printable'}${CRLF}${CRLF}`;
  // Without a CR, LF becomes CRLF: one byte more per line break.
  if (plain && generator !== undefined && breaks !== -1) return [head, { generated: generator, length: content.length + (crlf ? 0 : breaks), lf: !crlf }];
  const normalized = crlf ? content : lf ? content.replaceAll('\n', CRLF) : content.replace(/\r?\n|\r/g, CRLF);
  if (!plain) return [head, Buffer.from(qpWrap(qpEncode(normalized), 76), 'latin1')];
  // 7bit: the part's bytes are the content itself (CRLF, or LF turned into CRLF), so the
  // stored message alone gives the content back (storage reads it from this byte range).
  // Kept as the string, written into the message once (ASCII: a character is a byte).
  return [head, crlf || lf ? { part, ascii: normalized, lf: !crlf } : Buffer.from(normalized, 'latin1')];
}

/**
 * RFC 2045 §6.8: encoded lines of at most 76 characters, written straight into the message
 * (a separate megabyte buffer cost a copy and its page faults). The base64 is written in one
 * go, then each line moved to its place from the last one back (copyWithin is a memmove; a
 * write per line crosses into C++ 18 000 times for 1 MB).
 */
function wrappedLength(base64: string | Buffer): number {
  const padded = Math.ceil(base64.length / 4) * 4;
  return padded + 2 * Math.max(0, Math.ceil(padded / 76) - 1);
}

function wrapBase64Into(base64: string | Buffer, out: Buffer, at: number): void {
  const padded = Math.ceil(base64.length / 4) * 4;
  if (typeof base64 === 'string') out.write(base64, at, 'latin1');
  else base64.copy(out, at);
  out.fill(61 /* = */, at + base64.length, at + padded);
  for (let line = Math.ceil(padded / 76) - 1; line > 0; line--) {
    const from = at + line * 76;
    const to = at + line * 78;
    out.copyWithin(to, from, Math.min(from + 76, at + padded));
    out[to - 2] = 13;
    out[to - 1] = 10;
  }
}

function attachmentPart(attachment: ComposeAttachment): Piece[] {
  const disposition = buildHeaderValue({ value: attachment.contentId ? 'inline' : 'attachment', params: { filename: attachment.filename } });
  const type = buildHeaderValue({ value: attachment.contentType, params: { name: attachment.filename } });
  const lines = [
    header('Content-Type', type),
    'Content-Transfer-Encoding: base64',
    header('Content-Disposition', disposition),
  ];
  if (attachment.contentId) lines.push(`Content-ID: <${attachment.contentId}>`);
  return [lines.join(CRLF) + CRLF + CRLF, { base64: attachment.base64 }];
}

function multipart(subtype: string, parts: Piece[][]): Piece[] {
  const boundary = `--_sendbox_${randomBytes(12).toString('hex')}`;
  const out: Piece[] = [`Content-Type: multipart/${subtype}; boundary="${boundary}"${CRLF}${CRLF}`];
  for (const part of parts) out.push(`--${boundary}${CRLF}`, ...part, CRLF);
  out.push(`--${boundary}--${CRLF}`);
  return out;
}

/**
 * The message to store (CRLF line endings), where its 7bit text and HTML parts lie in the
 * whole message, and the whole message's size (more than `raw` when a generated text part
 * is left out).
 */
export function composeMime(input: ComposeInput): { raw: Buffer; spans: BodySpans; size: number } {
  const head = [
    header('From', formatAddressHeader(input.from)),
    header('To', input.to.map(formatAddressHeader).join(', ')),
  ];
  if (input.cc.length) head.push(header('Cc', input.cc.map(formatAddressHeader).join(', ')));
  head.push(
    header('Reply-To', formatAddressHeader(input.replyTo)),
    header('Subject', encodeText(input.subject)),
    `Date: ${new Date(input.date).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${input.messageId}>`,
    'MIME-Version: 1.0',
  );
  for (const [name, value] of Object.entries(input.headers)) head.push(header(name, encodeText(value)));

  const inline = input.attachments.filter((a) => a.contentId);
  const files = input.attachments.filter((a) => !a.contentId);
  let body = input.html === null ? textPart('text/plain', input.text, 'text') : multipart('alternative', [
    textPart('text/plain', input.text, 'text', input.textGenerator),
    inline.length ? multipart('related', [textPart('text/html', input.html, 'html'), ...inline.map(attachmentPart)]) : textPart('text/html', input.html, 'html'),
  ]);
  if (input.html === null && inline.length) body = multipart('related', [body, ...inline.map(attachmentPart)]);
  if (files.length) body = multipart('mixed', [body, ...files.map(attachmentPart)]);

  // Sizes first, then one buffer: every piece is copied (or, for base64, written) once.
  const sized = [Buffer.from(head.join(CRLF) + CRLF, 'utf8'), ...body.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece))];
  const lengths = sized.map((piece) => (Buffer.isBuffer(piece) ? piece.length : 'base64' in piece ? wrappedLength(piece.base64) : 'generated' in piece ? piece.length : piece.ascii.length));
  const size = lengths.reduce((sum, length) => sum + length, 0);
  const omitted = sized.reduce((sum: number, piece, i) => (!Buffer.isBuffer(piece) && 'generated' in piece ? sum + lengths[i] : sum), 0);
  const raw = Buffer.allocUnsafe(size - omitted);
  const spans: BodySpans = {};
  // `at` in the whole message (what spans count), `out` in the stored one.
  let at = 0;
  let out = 0;
  for (const [i, piece] of sized.entries()) {
    const length = lengths[i];
    if (Buffer.isBuffer(piece)) piece.copy(raw, out);
    else if ('base64' in piece) wrapBase64Into(piece.base64, raw, out);
    else if ('generated' in piece) {
      spans.text = { start: at, end: at + length, lf: piece.lf, generated: piece.generated };
      at += length;
      continue;
    } else {
      raw.write(piece.ascii, out, length, 'latin1');
      spans[piece.part] = { start: at, end: at + length, lf: piece.lf };
    }
    at += length;
    out += length;
  }
  return { raw, spans, size };
}
