import type { SandboxCode } from '../../../shared/sandbox.js';
import { htmlText } from './html.js';

/**
 * Verification codes a person would type (CONTRACT §6 "Read"): 4–8 digits, digit groups
 * such as `482 913`, or short upper-case letter-and-digit tokens, found where a reader
 * would see them as a code:
 *  - right after a code phrase ("Your code is 482913", "PIN: 4821"), or
 *  - alone on a line (its own table cell or paragraph) next to a line that talks about a
 *    code, verification or signing in, or
 *  - on a line that talks about one, unless the word before it names another kind of
 *    number ("order", "invoice", "#", …).
 * Before looking, URLs, addresses, dates, times, prices, percentages and phone numbers
 * are blanked out, and years need a code phrase: `© 2025`, `$1,299.00`, `CA 94105` or a
 * hex id inside a link are not codes.
 */

const KEYWORD = /\b(codes?|otp|one[- ]?time|pass ?codes?|pins?|verif\w*|security|tokens?|log[- ]?in|sign(?:ing)?[- ]?in|2fa|two[- ]factor|mfa|authenticat\w*|confirm\w*)\b/i;
const STRONG_BEFORE = /\b(?:code|passcode|otp|pin|token|password)\b[^\w\n]{0,4}(?:\bis\b)?[^\w\n]{0,4}$/i;
const STRONG_LINE_END = /\b(?:code|passcode|otp|pin|token|password)\b[^.!?\n]{0,40}[:\-–]\s*$|\b(?:code|passcode|otp|pin|token|password)\s+is\s*$/i;
// The word before a number that says it is some other kind of number.
const OTHER_NUMBER = /(?:#|\b(?:order|invoice|receipt|ticket|ref|reference|id|no|nr|number|account|acct|case|booking|tracking|customer|member|transaction|suite|ste|apt|unit|box|zip|postcode|ext|room|floor|version|build|model|serial|sku)\b\.?)[\s:]*$/i;
const UNIT_AFTER = /^\s*(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|px|em|kb|mb|gb|tb|km|mi|miles?|points?|pts|credits?|users?|items?|emails?|messages?|times)\b/i;
const TECH_TOKENS = /^(?:UTF8|UTF16|SHA\d+|MD5|H26[45]|MP[34]|IPV[46]|HTML5|CSS3|ES20\d\d|COVID19|B2B|B2C|24X7|1080P|720P|4K|X509|OAUTH2|HTTP2|WIN10|WIN11)$/i;

const URL = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const EMAIL = /[^\s<>"'@]+@[^\s<>"'@]+\.[a-z]{2,}/gi;
const NOISE: RegExp[] = [
  /\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b/g, // dates
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?/gi, // times
  /[$€£¥₹]\s?\d[\d,.]*/g, // prices with a symbol
  /\b\d[\d,.]*\s?(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|INR|SEK|NOK|DKK|PLN)\b/gi,
  /\b(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|INR)\s?\d[\d,.]*/gi,
  /\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b/g, // 1,234 and 1,234.56
  /\b\d+[.,]\d+\b/g, // decimals
  /\d+(?:\.\d+)?\s?%/g,
  /\+\d[\d\s().-]{6,}\d/g, // international phone numbers
  /\(\d{2,4}\)\s?\d{3,4}[\s.-]?\d{3,4}/g, // (415) 555-0199
  /\b\d{1,4}[\s.-]\d{3}[\s.-]\d{3,4}(?:[\s.-]\d{2,4})?\b/g, // 1-800-555-0199, 415 555 0199
];
const CANDIDATE = /(?<![\w-])([A-Z]-\d{4,8}|\d{3,4}(?:[ -]\d{3,4}){1,2}|[A-Za-z0-9]{4,8}(?:-[A-Za-z0-9]{3,5})?)(?![\w-])/g;

const blank = (s: string) => ' '.repeat(s.length);

/** Codes from the text part and the HTML part's visible text, in order, without duplicates. */
export function extractCodes(text: string, html: string): SandboxCode[] {
  const values: string[] = [];
  for (const source of [text, html ? htmlText(html) : '']) {
    for (const value of codesIn(source)) if (!values.includes(value)) values.push(value);
  }
  return values.map((value) => ({ value }));
}

function codesIn(input: string): string[] {
  const lines = input
    .split(/\r?\n/)
    // A code sits on a short line; very long lines (data, minified markup) are skipped, which also bounds the regex work.
    .filter((line) => line.length <= 1000)
    .map((line) => line.replace(URL, blank).replace(EMAIL, blank).replace(/[\u00a0\u2007\u202f]/g, ' ').trim())
    .filter(Boolean);
  const found: string[] = [];
  lines.forEach((line, i) => {
    const nearby = [...lines.slice(Math.max(0, i - 3), i), lines[i + 1] ?? ''].join('\n');
    const previousAnnounces = i > 0 && STRONG_LINE_END.test(lines[i - 1]);
    const masked = NOISE.reduce((acc, pattern) => acc.replace(pattern, blank), line);
    for (const match of masked.matchAll(CANDIDATE)) {
      const token = match[1];
      const before = line.slice(0, match.index);
      const after = line.slice(match.index + token.length);
      const standalone = before.trim() === '' && /^[\s.!]*$/.test(after);
      const strong = STRONG_BEFORE.test(before) || (standalone && previousAnnounces);
      const value = normalize(token);
      if (!plausible(value, strong)) continue;
      if (!strong && (OTHER_NUMBER.test(before) || UNIT_AFTER.test(after))) continue;
      const grouped = /^\d{3,4}[ -]\d/.test(token);
      if (strong || (standalone && KEYWORD.test(nearby)) || (!grouped && KEYWORD.test(line) && looksLikeCode(value)) || (grouped && KEYWORD.test(line))) {
        found.push(value);
      }
    }
  });
  return found;
}

/** Digit groups are typed without their separators; `G-482913` is typed as the digits. */
function normalize(token: string): string {
  if (/^[A-Z]-\d+$/.test(token)) return token.slice(2);
  if (/^\d{3,4}(?:[ -]\d{3,4})+$/.test(token)) return token.replace(/[ -]/g, '');
  return token;
}

function plausible(value: string, strong: boolean): boolean {
  if (/^\d+$/.test(value)) {
    if (value.length < 4 || value.length > 8) return false;
    return strong || !/^(?:19|20)\d\d$/.test(value);
  }
  if (TECH_TOKENS.test(value)) return false;
  const compact = value.replace(/-/g, '');
  if (compact.length < 4 || compact.length > 10) return false;
  const hasDigit = /\d/.test(compact);
  const hasLetter = /[A-Za-z]/.test(compact);
  // Letters only is a word unless a code phrase announced it and it is written in capitals.
  if (!hasDigit) return strong && /^[A-Z]+$/.test(compact) && compact.length >= 4;
  if (!hasLetter || strong) return true;
  // Lower-case letter-and-digit runs are ids and hashes; typed codes are shown in capitals.
  return compact === compact.toUpperCase();
}

/** On a line that merely mentions a code, only tokens that clearly look like one count. */
function looksLikeCode(value: string): boolean {
  return /^\d{4,8}$/.test(value) || (/\d/.test(value) && /[A-Z]/.test(value) && value === value.toUpperCase() && value.replace(/-/g, '').length >= 5);
}
