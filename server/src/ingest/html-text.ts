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

export function htmlToText(html: string): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  const anchors: { href: string | null; start: number }[] = [];
  let pre = 0;
  let i = 0;

  const text = (raw: string) => {
    const decoded = decodeEntities(raw);
    out.push(pre > 0 ? decoded : decoded.replace(/[ \t\r\n\f]+/g, ' '));
  };

  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text(html.slice(i));
      break;
    }
    if (lt > i) text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) {
      text(html.slice(lt));
      break;
    }
    const tag = html.slice(lt + 1, gt);
    i = gt + 1;
    const match = /^(\/?)([a-z][a-z0-9-]*)/i.exec(tag);
    if (!match) {
      // `<!doctype …>`, `<?xml …?>`, or a stray `<` followed by text.
      if (!/^[!?]/.test(tag)) text(`<${tag}>`);
      continue;
    }
    const closing = match[1] === '/';
    const name = match[2].toLowerCase();
    if (SKIPPED.has(name)) {
      if (!closing && !tag.endsWith('/')) {
        const end = lower.indexOf(`</${name}`, i);
        const endGt = end === -1 ? -1 : html.indexOf('>', end);
        i = endGt === -1 ? html.length : endGt + 1;
      }
      continue;
    }
    if (name === 'a') {
      if (!closing) {
        anchors.push({ href: hrefOf(tag), start: out.length });
      } else {
        const anchor = anchors.pop();
        const href = anchor?.href;
        if (anchor && href && /^(https?:|mailto:)/i.test(href)) {
          // A label spanning hundreds of pieces is not a link text worth comparing (and
          // re-joining it for every closing tag would make nested anchors quadratic).
          const label = out.length - anchor.start > 64 ? '…' : out.slice(anchor.start).join('').replace(/\s+/g, ' ').trim();
          const bare = href.replace(/^mailto:/i, '');
          if (!label) out.push(bare);
          else if (label !== href && label !== bare) out.push(` [${href}]`);
        }
      }
      continue;
    }
    if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
    if (PARAGRAPH.has(name)) out.push('\n\n');
    else if (name === 'li') out.push(closing ? '' : '\n- ');
    else if (LINE.has(name)) out.push('\n');
    else if (CELL.has(name) && closing) out.push(' ');
  }

  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
