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

/** The generated text part of an HTML body. */
export const htmlToText = (html: string) => convert(html);
