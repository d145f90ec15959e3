import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * The generated text part of an HTML email. A single linear scan (indexOf, no
 * backtracking regular expressions), so a 100 KB newsletter costs about a millisecond
 * and hostile markup (unclosed comments, thousands of nested tags) cannot make it slow
 * or overflow the stack — html-to-text took ~11 ms for 100 KB and recursed per level.
 *
 * Blocks become lines, paragraphs and headings blank-line separated, list items "- ",
 * links "text [href]" (the href alone when it is the text), images and invisible
 * elements (head, style, script, template) are dropped, entities decoded.
 */

const SKIPPED = new Set(['head', 'style', 'script', 'template', 'title', 'noscript', 'xml']);
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'blockquote', 'hr', 'pre', 'dl', 'figure']);
const LINE = new Set(['br', 'div', 'tr', 'li', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'address', 'center', 'form', 'fieldset', 'dt', 'dd', 'figcaption', 'tbody', 'thead', 'tfoot', 'caption', 'body', 'html']);
const CELL = new Set(['td', 'th']);

/** What a tag does to the text, by name: one lookup per tag instead of up to four sets. */
const enum Kind { Other, Skipped, Anchor, Paragraph, Item, Line, Cell }
const KINDS = new Map<string, Kind>([
  ...[...SKIPPED].map((name) => [name, Kind.Skipped] as const),
  ['a', Kind.Anchor],
  ...[...PARAGRAPH].map((name) => [name, Kind.Paragraph] as const),
  ...[...LINE].map((name) => [name, name === 'li' ? Kind.Item : Kind.Line] as const),
  ...[...CELL].map((name) => [name, Kind.Cell] as const),
]);
/** Markup is mostly lower case already: the name as written is tried first, then folded. */
function kindOf(name: string): Kind {
  return KINDS.get(name) ?? KINDS.get(name.toLowerCase()) ?? Kind.Other;
}

/**
 * Every HTML5 character reference (the 2 231 named ones, legacy names without the
 * semicolon, numeric ones), decoded by `entities` as a browser would in text content.
 */
export function decodeEntities(value: string): string {
  return value.includes('&') ? decodeHTML(value) : value;
}

/**
 * The same inside an attribute value, where a legacy name followed by `=` or a letter
 * stays literal (HTML §13.2.5.73), so `?a=1&copy=2` in an href keeps its `&copy`.
 */
export function decodeAttribute(value: string): string {
  return value.includes('&') ? decodeHTMLAttribute(value) : value;
}

const escapeAmpersands = (value: string) => value.replace(/&/g, '&amp;');

/** `href="x"`, `href='x'` or `href=x` inside a tag's source. */
function hrefOf(tag: string): string | null {
  const match = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
  return match ? decodeAttribute(match[1] ?? match[2] ?? match[3]).trim() : null;
}

// Structural line breaks are written as control characters while scanning, so one pass at
// the end can fold the source's own whitespace without touching them.
const BREAK = '\u0001';
const PARAGRAPH_BREAK = '\u0001\u0001';

/** End index of the tag name starting at `from` (ASCII letters, then also digits and hyphens). */
function nameEnd(html: string, from: number, limit: number): number {
  let end = from;
  while (end < limit) {
    const code = html.charCodeAt(end);
    const c = code >= 65 && code <= 90 ? code | 0x20 : code;
    if ((c >= 97 && c <= 122) || (end > from && ((c >= 48 && c <= 57) || c === 45))) end++;
    else break;
  }
  return end;
}

export interface HtmlToTextOptions {
  /** Append ` [href]` to link texts (the text part); off for reading visible text only. */
  links?: boolean;
  /** Put every table cell on its own line (so a code in its own cell stands alone). */
  cellsAsLines?: boolean;
}

export function htmlToText(html: string, { links = true, cellsAsLines = false }: HtmlToTextOptions = {}): string {
  const out: string[] = [];
  const anchors: { href: string | null; start: number }[] = [];
  let i = 0;

  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      out.push(html.slice(i));
      break;
    }
    if (lt > i) out.push(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) {
      out.push(html.slice(lt));
      break;
    }
    i = gt + 1;
    // Work on indices: only the (short) tag name is sliced and case-folded.
    const closing = html.charCodeAt(lt + 1) === 47; /* / */
    const nameStart = closing ? lt + 2 : lt + 1;
    const nameStop = nameEnd(html, nameStart, gt);
    if (nameStop === nameStart) {
      // `<!doctype …>`, `<?xml …?>`, or a stray `<` followed by text.
      const first = html.charCodeAt(lt + 1);
      if (first !== 33 /* ! */ && first !== 63 /* ? */) out.push(html.slice(lt, gt + 1));
      continue;
    }
    const written = html.slice(nameStart, nameStop);
    const kind = kindOf(written);
    if (kind === Kind.Other) continue;
    if (kind === Kind.Skipped) {
      const name = written.toLowerCase();
      if (!closing && html.charCodeAt(gt - 1) !== 47 /* self-closing */) {
        const closer = new RegExp(`</${name}`, 'gi');
        closer.lastIndex = i;
        const end = closer.exec(html)?.index ?? -1;
        const endGt = end === -1 ? -1 : html.indexOf('>', end);
        i = endGt === -1 ? html.length : endGt + 1;
      }
      continue;
    }
    if (kind === Kind.Anchor) {
      if (!links) continue;
      if (!closing) {
        anchors.push({ href: hrefOf(html.slice(lt + 1, gt)), start: out.length });
        continue;
      }
      const anchor = anchors.pop();
      const href = anchor?.href;
      if (anchor && href && /^(https?:|mailto:)/i.test(href)) {
        // A label spanning many pieces is not a link text worth comparing (and re-joining
        // it for every closing tag would make nested anchors quadratic).
        const label = out.length - anchor.start > 64 ? '…' : decodeEntities(out.slice(anchor.start).join('')).replace(/\s+/g, ' ').trim();
        const bare = href.replace(/^mailto:/i, '');
        // The pieces are entity-decoded once more at the end: an already decoded href is re-escaped.
        if (!label) out.push(escapeAmpersands(bare));
        else if (label !== href && label !== bare) out.push(` [${escapeAmpersands(href)}]`);
      }
      continue;
    }
    if (kind === Kind.Paragraph) out.push(PARAGRAPH_BREAK);
    else if (kind === Kind.Item) out.push(closing ? '' : `${BREAK}- `);
    else if (kind === Kind.Line) out.push(BREAK);
    else out.push(cellsAsLines ? BREAK : closing ? ' ' : '');
  }

  // Only runs that change are replaced: single spaces (most of them) are left alone.
  // A no-break space reads as a space in a plain-text part (layouts use &nbsp; for spacing).
  return decodeEntities(out.join('').replace(/[\t\r\n\f][ \t\r\n\f]*| [ \t\r\n\f]+/g, ' '))
    .replace(/\u00a0/g, ' ')
    .split(BREAK)
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
