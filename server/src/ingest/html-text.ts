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

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…',
  ndash: '–', mdash: '—', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', laquo: '«', raquo: '»', bull: '•',
  middot: '·', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', deg: '°', times: '×', zwnj: '', zwj: '', shy: '',
};

/** Decodes named (common) and numeric character references. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** `href="x"`, `href='x'` or `href=x` inside a tag's source. */
function hrefOf(tag: string): string | null {
  const match = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3]).trim() : null;
}

// Structural line breaks are written as control characters while scanning, so one pass at
// the end can fold the source's own whitespace without touching them.
const BREAK = '\u0001';
const PARAGRAPH_BREAK = '\u0001\u0001';

/** The tag name at the start of a tag's source (after `<` or `</`), lower-cased; "" if none. */
function tagName(tag: string, from: number): string {
  let end = from;
  while (end < tag.length) {
    const c = tag.charCodeAt(end) | 0x20;
    const letter = c >= 97 && c <= 122;
    const more = end > from && ((c >= 48 && c <= 57) || tag.charCodeAt(end) === 45);
    if (!letter && !more) break;
    end++;
  }
  return tag.slice(from, end).toLowerCase();
}

export interface HtmlToTextOptions {
  /** Append ` [href]` to link texts (the text part); off for reading visible text only. */
  links?: boolean;
  /** Put every table cell on its own line (so a code in its own cell stands alone). */
  cellsAsLines?: boolean;
}

export function htmlToText(html: string, { links = true, cellsAsLines = false }: HtmlToTextOptions = {}): string {
  const lower = html.toLowerCase();
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
    const tag = html.slice(lt + 1, gt);
    i = gt + 1;
    const closing = tag.charCodeAt(0) === 47; /* / */
    const name = tagName(tag, closing ? 1 : 0);
    if (!name) {
      // `<!doctype …>`, `<?xml …?>`, or a stray `<` followed by text.
      if (!/^[!?]/.test(tag)) out.push(`<${tag}>`);
      continue;
    }
    if (SKIPPED.has(name)) {
      if (!closing && !tag.endsWith('/')) {
        const end = lower.indexOf(`</${name}`, i);
        const endGt = end === -1 ? -1 : html.indexOf('>', end);
        i = endGt === -1 ? html.length : endGt + 1;
      }
      continue;
    }
    if (name === 'a' && links) {
      if (!closing) {
        anchors.push({ href: hrefOf(tag), start: out.length });
        continue;
      }
      const anchor = anchors.pop();
      const href = anchor?.href;
      if (anchor && href && /^(https?:|mailto:)/i.test(href)) {
        // A label spanning many pieces is not a link text worth comparing (and re-joining
        // it for every closing tag would make nested anchors quadratic).
        const label = out.length - anchor.start > 64 ? '…' : decodeEntities(out.slice(anchor.start).join('')).replace(/\s+/g, ' ').trim();
        const bare = href.replace(/^mailto:/i, '');
        if (!label) out.push(bare);
        else if (label !== href && label !== bare) out.push(` [${href}]`);
      }
      continue;
    }
    if (PARAGRAPH.has(name)) out.push(PARAGRAPH_BREAK);
    else if (name === 'li') out.push(closing ? '' : `${BREAK}- `);
    else if (LINE.has(name)) out.push(BREAK);
    else if (CELL.has(name)) out.push(cellsAsLines ? BREAK : closing ? ' ' : '');
  }

  return decodeEntities(out.join('').replace(/[ \t\r\n\f]+/g, ' '))
    .split(BREAK)
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
