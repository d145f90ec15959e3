export { htmlToText } from '../../../shared/html-text.js';

// Markup: an element tag, a closing tag, the start of a comment, or a doctype.
// No lazy `[\s\S]*?` here: on thousands of unclosed comments that would be quadratic.
const HTML_MARKUP = /<(?:[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>|\/[a-zA-Z][a-zA-Z0-9-]*\s*>|!--|!doctype[^<>]*>)/i;

/** True when a send's body holds HTML markup (it then becomes the HTML part). */
export const looksLikeHtml = (body: string) => HTML_MARKUP.test(body);
