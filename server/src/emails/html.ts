import { decodeAttribute, decodeEntities, htmlToText } from '../../../shared/html-text.js';

export { decodeAttribute, decodeEntities };

/**
 * Small HTML helpers for reading emails: entity decoding for attribute values, and a
 * text rendering where every block element starts a new line (so a code in its own
 * `<td>` stands on its own line, which the code finder relies on).
 */

/** The visible text of an HTML fragment, one block (and one table cell) per line. */
export function htmlText(html: string): string {
  return htmlToText(html, { links: false, cellsAsLines: true });
}

/** Inline text of a fragment (an anchor's content), whitespace folded. */
export function inlineText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}
