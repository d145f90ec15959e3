import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * The generated text part of an HTML email. A single linear scan (indexOf, no
 * backtracking regular expressions), so a 100 KB newsletter costs a few tenths of a
 * millisecond and hostile markup (unclosed comments, thousands of nested tags) cannot make
 * it slow or overflow the stack — html-to-text took ~11 ms for 100 KB and recursed per level.
 *
 * Blocks become lines, paragraphs and headings blank-line separated, list items "- ",
 * links "text [href]" (the href alone when it is the text), images and invisible
 * elements (head, style, script, template) are dropped, entities decoded.
 *
 * The output must not change by a character: API sends store which generator made their text
 * part (TEXT_GENERATORS, at the end) instead of its bytes, and it is regenerated on every read.
 * html-text.test.ts checks it against the former implementation on generated markup.
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
/**
 * Names of up to five characters (p, a, td, div, table: most tags in mail) are looked up as a
 * number, six bits a character, so no string is made for them; those of one or two (p, a,
 * td, tr, br, li, h1) in a table.
 */
const SHORT_NAME = 5;
/** Six-bit codes of the characters a tag name may hold, either case; 0 for any other. */
const NAME_CODES = new Uint8Array(128);
for (let code = 0; code < 26; code++) NAME_CODES[65 + code] = NAME_CODES[97 + code] = 1 + code;
for (let code = 0; code < 10; code++) NAME_CODES[48 + code] = 27 + code;
NAME_CODES[45] = 37; // -
const SHORT_KINDS = new Map<number, Kind>([...KINDS].filter(([name]) => name.length <= SHORT_NAME).map(([name, kind]) => [packName(name, 0, name.length), kind]));
const TINY_KINDS = new Uint8Array(1 << 12);
for (const [key, kind] of SHORT_KINDS) if (key < TINY_KINDS.length) TINY_KINDS[key] = kind;

/** Only called on [A-Za-z][A-Za-z0-9-]*, so every character has a code. */
function packName(html: string, start: number, stop: number): number {
  let key = 0;
  for (let k = start; k < stop; k++) key = key * 64 + NAME_CODES[html.charCodeAt(k)];
  return key;
}

function kindAt(html: string, start: number, stop: number): Kind {
  const length = stop - start;
  if (length <= 2) return TINY_KINDS[packName(html, start, stop)] as Kind;
  if (length <= SHORT_NAME) return SHORT_KINDS.get(packName(html, start, stop)) ?? Kind.Other;
  const name = html.slice(start, stop);
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

const escapeAmpersands = (value: string) => (value.includes('&') ? value.replace(/&/g, '&amp;') : value);

/** `href="x"`, `href='x'` or `href=x` inside a tag's source: the first match decides. */
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/**
 * The href of the `<a …>` tag spanning `lt`..`gt`. `<a href="…">`, nearly every link, is
 * read in place; anything else (another attribute first, unquoted, odd spacing) goes through
 * HREF, whose first match is what both ways must find.
 */
function hrefOf(html: string, lt: number, gt: number): string | null {
  let at = lt + 2; // after `<a`
  if (isSpace(html.charCodeAt(at)) && isLetter(html.charCodeAt(at + 1), 104) && isLetter(html.charCodeAt(at + 2), 114) && isLetter(html.charCodeAt(at + 3), 101) && isLetter(html.charCodeAt(at + 4), 102)) {
    at += 5;
    while (isSpace(html.charCodeAt(at))) at++;
    if (html.charCodeAt(at) === 61 /* = */) {
      at++;
      while (isSpace(html.charCodeAt(at))) at++;
      const quote = html.charCodeAt(at);
      if (quote === 34 /* " */ || quote === 39 /* ' */) {
        const close = html.indexOf(quote === 34 ? '"' : "'", at + 1);
        if (close !== -1 && close < gt) return decodeAttribute(html.slice(at + 1, close)).trim();
      }
    }
  }
  const match = HREF.exec(html.slice(lt + 1, gt));
  return match ? decodeAttribute(match[1] ?? match[2] ?? match[3]).trim() : null;
}

/** ASCII whitespace as HTML knows it; all of it is `\s` too, so HREF skips it the same way. */
const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13 || code === 12;

// `| 0x20` lower-cases ASCII letters and maps nothing else onto one; a non-Unicode `i`
// flag folds no other character onto them either (`ſ`, `K` stay apart).
const isLetter = (code: number, lower: number) => (code | 0x20) === lower;

/** `/^(https?:|mailto:)/i.test(href)`. */
function isLinkTarget(href: string): boolean {
  if (isMailto(href)) return true;
  if (!(isLetter(href.charCodeAt(0), 104) && isLetter(href.charCodeAt(1), 116) && isLetter(href.charCodeAt(2), 116) && isLetter(href.charCodeAt(3), 112))) return false;
  return href.charCodeAt(4) === 58 /* : */ || (isLetter(href.charCodeAt(4), 115) && href.charCodeAt(5) === 58);
}

/** `/^mailto:/i.test(href)`. */
function isMailto(href: string): boolean {
  return isLetter(href.charCodeAt(0), 109) && isLetter(href.charCodeAt(1), 97) && isLetter(href.charCodeAt(2), 105) && isLetter(href.charCodeAt(3), 108)
    && isLetter(href.charCodeAt(4), 116) && isLetter(href.charCodeAt(5), 111) && href.charCodeAt(6) === 58;
}

/** End index of the tag name starting at `from` (ASCII letters, then also digits and hyphens). */
function nameEnd(html: string, from: number): number {
  let end = from;
  while (end < html.length) {
    const code = html.charCodeAt(end);
    const c = code >= 65 && code <= 90 ? code | 0x20 : code;
    if ((c >= 97 && c <= 122) || (end > from && ((c >= 48 && c <= 57) || c === 45))) end++;
    else break;
  }
  return end;
}

// The text is defined by the first implementation's pieces: the source's text, link
// suffixes, and structural breaks written as U+0001 (PARAGRAPH_BREAK is two, a list item
// U+0001 and "- "). Those were joined; runs of HTML whitespace folded to a space; entities
// decoded; U+00A0 read as a space; the result split at U+0001 (decoded ones too), lines
// trimmed, joined with "\n", 3+ newlines cut to 2, trimmed. Here each line is trimmed as it
// ends and blank lines only decide the next separator, which leaves the folding, decoding
// and splitting each a single pass over text that is already nearly the result.
const BREAK = '\u0001';
const PARAGRAPH_BREAK = '\u0001\u0001';
const ITEM = '\u0001- ';
/** Only runs that change are replaced: single spaces (most of them) are left alone. */
const FOLD = /[\t\r\n\f][ \t\r\n\f]*| [ \t\r\n\f]+/g;
/**
 * A label spanning more pieces is not a link text worth comparing (and joining it for every
 * closing tag would make nested anchors quadratic): it reads as "…".
 */
const LABEL_PIECES = 64;

/** The text being written: the current line's source text, the lines finished so far, and what a link label needs. */
class Text {
  /** Source text (entities, whitespace as written) since the last break. */
  private line = '';
  /** The lines so far, trimmed but otherwise as written, between BREAK or PARAGRAPH_BREAK (a blank line). */
  private readonly out: string[] = [];
  /** An empty line since the last one written: the next is separated by a blank line. */
  private blank = false;
  /** Pieces written so far; and while a link is open, the `recordedCount` pieces since `recordedFrom`, its label. */
  pieces = 0;
  private readonly recorded: string[] = [];
  private recordedCount = 0;
  private recordedFrom = -1;

  constructor(
    /**
     * No `&`, U+00A0 or U+0001 in the source: once folded, the lines are final and the
     * separators only need to become newlines. Otherwise references are decoded (a decoded
     * href may hold anything, U+0001 included), U+00A0 read as a space, and the lines split
     * again and trimmed.
     */
    private readonly plain: boolean,
  ) {}

  add(piece: string): void {
    this.line += piece;
    this.note(piece);
  }

  /** A piece that writes no text (an opening cell, a closing list item) still counts. */
  nothing(): void {
    this.note('');
  }

  lineBreak(): void {
    this.finishLine();
    this.note(BREAK);
  }

  paragraph(): void {
    this.finishLine();
    this.blank = true;
    this.note(PARAGRAPH_BREAK);
  }

  item(): void {
    this.finishLine();
    this.line = '- ';
    this.note(ITEM);
  }

  private note(piece: string): void {
    this.pieces++;
    if (this.recordedFrom !== -1) this.recorded[this.recordedCount++] = piece;
  }

  /**
   * What follows a link to `href` whose label started at piece `start`: ` [href]`, the bare
   * address when the label is empty, or nothing (null) when the label is the address.
   */
  linkSuffix(href: string, start: number): string | null {
    const bare = isMailto(href) ? href.slice(7) : href;
    const label = this.label(start, bare.length);
    // The pieces are entity-decoded once more at the end: an already decoded href is re-escaped.
    if (label === null || (label && label !== href && label !== bare)) return ` [${escapeAmpersands(href)}]`;
    return label ? null : escapeAmpersands(bare);
  }

  /**
   * The text of a link's label: its pieces joined, entities decoded, whitespace folded; null
   * when it is certainly not empty and shorter than `shortest`, so that it can equal neither
   * the href nor the bare address (most labels: "Read more").
   */
  private label(start: number, shortest: number): string | null {
    const count = this.pieces - start;
    if (count > LABEL_PIECES) return '…';
    if (count === 0) return '';
    const from = start - this.recordedFrom;
    let joined = this.recorded[from];
    for (let k = from + 1; k < this.recordedCount; k++) joined += this.recorded[k];
    const text = decodeEntities(joined);
    // Folding and trimming only shorten it, and never remove a printable first character.
    const first = text.charCodeAt(0);
    if (first > 32 && first < 127 && text.length < shortest) return null;
    return text.replace(/\s+/g, ' ').trim();
  }

  record(on: boolean): void {
    this.recordedCount = 0;
    this.recordedFrom = on ? this.pieces : -1;
  }

  finish(): string {
    this.finishLine();
    const folded = this.out.join('').replace(FOLD, ' ');
    // split/join: one flat string, where replaceAll builds a concatenation for the caller to flatten.
    if (this.plain) return folded.split(BREAK).join('\n');
    let text = decodeEntities(folded);
    if (text.includes('\u00a0')) text = text.replace(/\u00a0/g, ' ');
    // A decoded U+0001 breaks the line too; newlines can only come from references (&NewLine;).
    const newlines = text.includes('\n');
    const lines: string[] = [];
    let blank = false;
    for (let part of text.split(BREAK)) {
      part = part.trim();
      if (part === '') {
        blank = true;
        continue;
      }
      if (newlines && part.includes('\n\n\n')) part = part.replace(/\n{3,}/g, '\n\n');
      if (lines.length !== 0) lines.push(blank ? '\n\n' : '\n');
      lines.push(part);
      blank = false;
    }
    return lines.join('');
  }

  /**
   * Ends the current line. Trimming it now, before folding and decoding, changes nothing
   * (only whitespace goes, which would be trimmed from its first and last part anyway) and
   * drops lines of markup indentation early; an empty line is only remembered, as the
   * separator before the next one (one blank line or ten read the same).
   */
  private finishLine(): void {
    if (this.line === '') {
      this.blank = true;
      return;
    }
    const text = this.line.trim();
    this.line = '';
    if (text === '') {
      this.blank = true;
      return;
    }
    if (this.out.length !== 0) this.out.push(this.blank ? PARAGRAPH_BREAK : BREAK);
    this.out.push(text);
    this.blank = false;
  }
}

export interface HtmlToTextOptions {
  /** Append ` [href]` to link texts (the text part); off for reading visible text only. */
  links?: boolean;
  /** Put every table cell on its own line (so a code in its own cell stands alone). */
  cellsAsLines?: boolean;
}

export function htmlToText(html: string, { links = true, cellsAsLines = false }: HtmlToTextOptions = {}): string {
  const out = new Text(!html.includes('&') && !html.includes('\u00a0') && !html.includes(BREAK));
  // Open links, innermost last: their hrefs and the piece count when each opened.
  const hrefs: (string | null)[] = [];
  const starts: number[] = [];
  let i = 0;

  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      out.add(html.slice(i));
      break;
    }
    if (lt > i) out.add(html.slice(i, lt));
    const first = html.charCodeAt(lt + 1);
    if (first === 33 /* ! */ && html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    // Work on indices: a tag name is not sliced unless it is long. No `>` can come before the
    // name's end, so `<p>`, `</a>` need no search for it.
    const closing = first === 47; /* / */
    const nameStart = closing ? lt + 2 : lt + 1;
    const nameStop = nameEnd(html, nameStart);
    const gt = html.charCodeAt(nameStop) === 62 /* > */ ? nameStop : html.indexOf('>', nameStop);
    if (gt === -1) {
      out.add(html.slice(lt));
      break;
    }
    i = gt + 1;
    if (nameStop === nameStart) {
      // `<!doctype …>`, `<?xml …?>`, or a stray `<` followed by text.
      if (first !== 33 /* ! */ && first !== 63 /* ? */) out.add(html.slice(lt, gt + 1));
      continue;
    }
    const kind = kindAt(html, nameStart, nameStop);
    if (kind === Kind.Other) continue;
    if (kind === Kind.Skipped) {
      const name = html.slice(nameStart, nameStop).toLowerCase();
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
        if (hrefs.length === 0) out.record(true);
        hrefs.push(hrefOf(html, lt, gt));
        starts.push(out.pieces);
        continue;
      }
      if (hrefs.length === 0) continue;
      const href = hrefs.pop();
      const start = starts.pop()!;
      const suffix = href && isLinkTarget(href) ? out.linkSuffix(href, start) : null;
      if (hrefs.length === 0) out.record(false);
      if (suffix !== null) out.add(suffix);
      continue;
    }
    if (kind === Kind.Paragraph) out.paragraph();
    else if (kind === Kind.Item) closing ? out.nothing() : out.item();
    else if (kind === Kind.Line) out.lineBreak();
    else if (cellsAsLines) out.lineBreak();
    else if (closing) out.add(' ');
    else out.nothing();
  }

  return out.finish();
}

/**
 * Generators of an HTML email's text part, by version. An API send stores its generated text
 * part as this number instead of its bytes, and storage regenerates the part on read
 * (storage/generated-text.ts), so a version's output must never change by a character: a
 * change to htmlToText's output gets a new version, and the previous function stays here
 * under its own. html-text.test.ts holds version 1 to the implementation it first shipped as.
 */
export const TEXT_GENERATORS: Readonly<Record<number, (html: string) => string>> = { 1: (html) => htmlToText(html) };

/** The version new sends are generated (and stored) with. */
export const TEXT_GENERATOR = 1;
