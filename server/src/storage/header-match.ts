/**
 * `header:Name=value` of the search language, evaluated in SQLite (a registered function) on
 * the stored raw message. Only the header block is read, at most HEAD_LIMIT bytes of it.
 */
const HEAD_LIMIT = 64 * 1024;

/** The header block of a raw message: up to the first empty line (RFC 5322 §2.1). */
function headerBlock(raw: Buffer): string {
  const limit = Math.min(raw.length, HEAD_LIMIT);
  let end = raw.indexOf('\r\n\r\n');
  if (end === -1 || end > limit) end = raw.indexOf('\n\n');
  if (end === -1 || end > limit) end = limit;
  // latin1 keeps every byte one character: names are ASCII, and a UTF-8 value still contains its needle's bytes.
  return raw.toString('latin1', 0, end);
}

/**
 * True when the message has a field `name` (case-insensitive) whose unfolded value contains
 * `value` (case-insensitive substring); value null: the field is present at all.
 */
export function headerMatches(raw: Buffer, name: string, value: string | null): boolean {
  const wanted = name.toLowerCase();
  const needle = value === null ? null : Buffer.from(value.toLowerCase(), 'utf8').toString('latin1');
  // RFC 5322 §2.2.3: a line starting with whitespace continues the previous field.
  const unfolded = headerBlock(raw).replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0 || line.slice(0, colon).trim().toLowerCase() !== wanted) continue;
    if (needle === null || line.slice(colon + 1).toLowerCase().includes(needle)) return true;
  }
  return false;
}
