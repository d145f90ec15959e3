import { compile } from 'html-to-text';
import { decodeEntities } from '../ingest/html-text.js';

export { decodeEntities };

/**
 * Small HTML helpers for reading emails: entity decoding for attribute values, and a
 * text rendering where every block element starts a new line (so a code in its own
 * `<td>` stands on its own line, which the code finder relies on).
 */

const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'block' },
    { selector: 'th', format: 'block' },
    { selector: 'style', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'head', format: 'skip' },
  ],
});

/** The visible text of an HTML fragment, one block per line. */
export function htmlText(html: string): string {
  try {
    return toText(html);
  } catch {
    // html-to-text recurses per nesting level; thousands of unclosed tags overflow the stack.
    return decodeEntities(html.replace(/<(?:p|div|br|tr|td|th|li|h[1-6]|table)\b[^>]{0,4000}>/gi, '\n').replace(/<[^>]{0,4000}>/g, ' '));
  }
}

/** Inline text of a fragment (an anchor's content), whitespace folded. */
export function inlineText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}
