import { randomBytes } from 'node:crypto';
import { isStrictBase64 } from '../../../shared/email.js';
import { utf8Text } from './body.js';

/**
 * Attachment content kept as the request's bytes, never made a string. A send with a 1 MB
 * attachment made two strings of 1.4 MB from it: the body as text, then the value JSON.parse
 * cut out of it. Strings that size live in V8's large-object space, which only full
 * collections free; at 64 connections they were a third of the send (JSON.parse alone
 * 2 ms, most of it touching fresh memory), and the collector ran every ~80 ms.
 *
 * So, before parsing, every `"content": "<base64>"` member long enough to matter is cut out
 * of the text and replaced by a placeholder that is itself valid base64 and unique to this
 * process (a client cannot guess it); the send gets the bytes for each placeholder it finds
 * as an attachment's content. Anything unusual is left to the ordinary parse: a value with
 * an escape (`\/`, `\n`) or anything but strict base64 is not lifted, and if a lifted value
 * was not an attachment's content (a header named "content", say), the caller parses the
 * whole body again as text. Cutting at a quote that is not escaped is exact for valid JSON:
 * such a quote always delimits a string, and a string followed by `:` is a key.
 */
export interface LiftedBody {
  /** The JSON text with each lifted value replaced by its placeholder. */
  text: string;
  /** Placeholder → the value's bytes (strict base64: checked here). */
  contents: Map<string, Buffer>;
}

/** Values shorter than this are parsed as usual: lifting them saves nothing measurable. */
export const LIFT_MIN_BYTES = 32 * 1024;

// Base64 letters only, so that the schema's base64 check passes the placeholder; random per
// process, so that no request body can contain one by chance or on purpose.
const NONCE = randomBytes(24).toString('base64').replace(/[+/=]/g, 'A').slice(0, 28);
const placeholder = (index: number) => `sendboxLifted${NONCE}${String(index).padStart(3, '0')}`;

const KEY = Buffer.from('"content"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** The body with its long attachment contents lifted out, or null when there are none. */
export function liftBase64Contents(body: Buffer, minBytes = LIFT_MIN_BYTES): LiftedBody | null {
  if (body.length < minBytes) return null;
  const cuts: { start: number; end: number }[] = [];
  let next = 0;
  for (let at = body.indexOf(KEY); at !== -1; at = body.indexOf(KEY, next)) {
    next = at + KEY.length;
    // A quote after a backslash is inside a string (or a backslash's own escape): not a key.
    if (at > 0 && body[at - 1] === BACKSLASH) continue;
    let i = at + KEY.length;
    while (isJsonSpace(body[i])) i++;
    if (body[i] !== 0x3a /* : */) continue;
    i++;
    while (isJsonSpace(body[i])) i++;
    if (body[i] !== QUOTE) continue;
    const start = i + 1;
    const end = body.indexOf(QUOTE, start);
    if (end === -1 || end - start < minBytes) continue;
    const backslash = body.indexOf(BACKSLASH, start);
    if (backslash !== -1 && backslash < end) continue;
    if (!isStrictBase64Bytes(body.subarray(start, end))) continue;
    cuts.push({ start, end });
    next = end + 1;
    if (cuts.length === 1000) break;
  }
  if (cuts.length === 0) return null;
  const pieces: string[] = [];
  const contents = new Map<string, Buffer>();
  let from = 0;
  cuts.forEach(({ start, end }, index) => {
    // Cut at ASCII quotes, so no UTF-8 sequence is split.
    pieces.push(utf8Text(body.subarray(from, start)), placeholder(index));
    contents.set(placeholder(index), body.subarray(start, end));
    from = end;
  });
  pieces.push(utf8Text(body.subarray(from)));
  return { text: pieces.join(''), contents };
}

/**
 * True when every lifted value came back as an attachment's content in the parsed body, each
 * once: otherwise one was something else (a header, a duplicate key) and the body must be
 * parsed whole.
 */
export function liftedAsAttachments(value: unknown, lifted: LiftedBody): boolean {
  const attachments = (value as { attachments?: unknown } | null)?.attachments;
  if (!Array.isArray(attachments)) return false;
  let found = 0;
  for (const attachment of attachments) {
    const content = (attachment as { content?: unknown } | null)?.content;
    if (typeof content === 'string' && lifted.contents.has(content)) found++;
  }
  return found === lifted.contents.size;
}

/** What normalizeBase64 (shared/email.ts) accepts unchanged, decided on the bytes themselves. */
export function isStrictBase64Bytes(bytes: Buffer): boolean {
  return isStrictBase64(bytes.length, (i) => bytes[i], (start, end) => bytes.toString('latin1', start, end), () => bytes.indexOf(0x2d /* - */) !== -1 || bytes.indexOf(0x5f /* _ */) !== -1);
}
