import { compile } from 'html-to-text';

// Markup: an element tag, a closing tag, a comment or a doctype.
const HTML_MARKUP = /<(?:[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?|\/[a-zA-Z][a-zA-Z0-9-]*\s*|!--[\s\S]*?--|!doctype[^>]*)>/i;

/** True when a send's body holds HTML markup (it then becomes the HTML part). */
export const looksLikeHtml = (body: string) => HTML_MARKUP.test(body);

const convert = compile({
  wordwrap: 100,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
});

// html-to-text recurses per nesting level: thousands of unclosed tags overflow the stack,
// and very large bodies cost more than the text part is worth.
const HTML_TO_TEXT_LIMIT = 256 * 1024;

/** The generated text part of an HTML body; never throws. */
export function htmlToText(html: string): string {
  if (html.length > HTML_TO_TEXT_LIMIT) return stripTags(html);
  try {
    return convert(html);
  } catch {
    return stripTags(html);
  }
}

/** A plain rendering without a parser: drop scripts, styles and tags, decode the usual entities. */
export function stripTags(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
