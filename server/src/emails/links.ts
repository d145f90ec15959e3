import type { SandboxLink } from '../../../shared/sandbox.js';
import { decodeAttribute, inlineText } from './html.js';

/**
 * The http(s) links of an email (CONTRACT §6 "Read"), in reading order: the HTML part's
 * anchors with their visible text first, then URLs found only in the text part. A link
 * that appears twice keeps its first position and the most descriptive text.
 */

// Bounded runs keep an unclosed tag from making every later match scan to the end.
const ANCHOR = /<a\b([^>]{0,4000})>([\s\S]{0,4000}?)<\/a\s*>/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const IMG_ALT = /<img\b[^>]*\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i;
// A URL in plain text ends at whitespace or a closing delimiter; trailing punctuation is prose.
const TEXT_URL = /https?:\/\/[^\s<>"'`]+/gi;

const isWebLink = (href: string) => /^https?:\/\/[^\s/?#]+/i.test(href);

function trimProse(url: string): string {
  let out = url.replace(/[.,;:!?'"»]+$/, '');
  // Drop a closing bracket that has no opening one inside the URL: "(see https://x.test/a)".
  for (const [open, close] of [['(', ')'], ['[', ']'], ['{', '}']]) {
    while (out.endsWith(close) && out.split(open).length < out.split(close).length) out = out.slice(0, -1).replace(/[.,;:!?]+$/, '');
  }
  return out;
}

export function extractLinks(html: string, text: string): SandboxLink[] {
  const links: SandboxLink[] = [];
  const byHref = new Map<string, SandboxLink>();
  const add = (href: string, label: string) => {
    if (!isWebLink(href)) return;
    const existing = byHref.get(href);
    if (existing) {
      if ((existing.text === '' || existing.text === href) && label && label !== href) existing.text = label;
      return;
    }
    const link = { href, text: label };
    byHref.set(href, link);
    links.push(link);
  };
  for (const [, attributes, inner] of html.matchAll(ANCHOR)) {
    const match = HREF.exec(attributes);
    if (!match) continue;
    const href = decodeAttribute(match[1] ?? match[2] ?? match[3]).trim();
    const alt = IMG_ALT.exec(inner);
    add(href, inlineText(inner) || (alt ? decodeAttribute(alt[1] ?? alt[2]).trim() : ''));
  }
  for (const [url] of text.matchAll(TEXT_URL)) {
    const href = trimProse(url);
    add(href, href);
  }
  return links;
}
