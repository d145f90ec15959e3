import { compile } from 'html-to-text';

/**
 * Small HTML helpers for reading emails: entity decoding for attribute values, and a
 * text rendering where every block element starts a new line (so a code in its own
 * `<td>` stands on its own line, which the code finder relies on).
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', hellip: '…', ndash: '–', mdash: '—', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

/** Decodes named (common) and numeric character references. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

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
