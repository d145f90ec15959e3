import { TEXT_GENERATORS } from '../../../shared/html-text.js';

/**
 * A text or HTML body found verbatim in the raw message: bytes [start, end) of it (7bit, so
 * ASCII), with `lf` when the content's line breaks were bare LF and the message has CRLF.
 * With `generated`, a text part made from the HTML by that generator and not stored: the
 * stored message lacks those bytes, and reading puts them back (withGeneratedText below).
 */
export interface BodySpan {
  start: number;
  end: number;
  lf: boolean;
  generated?: number;
}

export type BodySpans = { text?: BodySpan; html?: BodySpan };

/** The content a 7bit span holds, with the line breaks it was given (see BodySpan). */
export function fromSpan(raw: Buffer, span: BodySpan): string {
  const value = raw.toString('latin1', span.start, span.end);
  return span.lf ? value.replaceAll('\r\n', '\n') : value;
}

/**
 * An API send whose text part was generated from its HTML is stored without that part's
 * bytes: they are a function of the HTML (TEXT_GENERATORS, versioned so that it never
 * changes for a stored email), and leaving them out made a 100 KB HTML email's stored
 * message ~45 % smaller, with as much less written per send (bench/README.md, issue 15).
 * This puts them back: the message, text and HTML are byte for byte what was composed.
 * Spans are offsets in the whole message; the HTML part follows the text part.
 */
export function withGeneratedText(stored: Buffer, text: BodySpan, html: BodySpan | undefined, htmlColumn: string): { text: string; html: string; raw: Buffer } {
  const generate = TEXT_GENERATORS[text.generated!];
  if (!generate) throw new Error(`email stored with text generator ${text.generated}, which this sendbox does not have (a newer release wrote it)`);
  const omitted = text.end - text.start;
  const htmlContent = html ? fromSpan(stored, html.start >= text.end ? { ...html, start: html.start - omitted, end: html.end - omitted } : html) : htmlColumn;
  const content = generate(htmlContent);
  const bytes = Buffer.from(text.lf ? content.replaceAll('\n', '\r\n') : content, 'latin1');
  if (bytes.length !== omitted) throw new Error(`the regenerated text part is ${bytes.length} bytes where ${omitted} were left out`);
  return { text: content, html: htmlContent, raw: Buffer.concat([stored.subarray(0, text.start), bytes, stored.subarray(text.start)]) };
}
