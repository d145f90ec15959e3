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
 *
 * Code phrases are recognised in the languages most sign-in mail is sent in, not only
 * English: "Ihr Bestätigungscode lautet 482913", "Votre code : 482913", "Tu código es
 * 482913", "Код подтверждения: 482913", "验证码：482913", "認証コード 482913".
 */

const KEYWORD = /\b(codes?|otp|one[- ]?time|pass ?codes?|pins?|verif\w*|security|tokens?|log[- ]?in|sign(?:ing)?[- ]?in|2fa|two[- ]factor|mfa|authenticat\w*|confirm\w*)\b/i;
const STRONG_BEFORE = /\b(?:code|passcode|otp|pin|token|password)\b[^\w\n]{0,4}(?:\bis\b)?[^\w\n]{0,4}$/i;
const STRONG_LINE_END = /\b(?:code|passcode|otp|pin|token|password)\b[^.!?\n]{0,40}[:\-–]\s*$|\b(?:code|passcode|otp|pin|token|password)\s+is\s*$/i;
// The word before a number that says it is some other kind of number.
const OTHER_NUMBER = /(?:#|\b(?:order|invoice|receipt|ticket|ref|reference|id|no|nr|number|account|acct|case|booking|tracking|customer|member|transaction|suite|ste|apt|unit|box|zip|postcode|ext|room|floor|version|build|model|serial|sku)\b\.?)[\s:]*$/i;
const UNIT_AFTER = /^\s*(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|px|em|kb|mb|gb|tb|km|mi|miles?|points?|pts|credits?|users?|items?|emails?|messages?|times)\b/i;

// The word for "code" (or PIN, password, one-time …) in other languages. Latin-script stems
// also match at the end of a compound (Bestätigungscode, verificatiecode, inlogkode); the
// CJK words need no boundary at all, since those scripts do not separate words.
const INTL_COMPOUND = String.raw`\p{L}*(?:code|codes|kod|kode|koden|koodi|kood|kód|kodu|kodunuz)`;
const INTL_WORD = String.raw`(?:código|codigo|codice|cod|κωδικός|κωδικό|код|кодом|пароль|парол|pin|tan|otp|passcode|contraseña|clave|senha|şifre|sifre|parola|hasło|jelszó|mot de passe|пін|пин|رمز|كود|קוד|कोड|ओटीपी|รหัส|mã)`;
const INTL_CJK = String.raw`(?:验证码|驗證碼|校验码|校驗碼|动态码|動態碼|确认码|確認碼|认证码|認證碼|安全码|安全碼|登录码|登入碼|密码|密碼|口令|コード|認証番号|確認番号|暗証番号|パスコード|ワンタイムパスワード|인증번호|인증 ?코드|확인 ?코드|보안 ?코드|코드|인증 ?번호)`;
// What a language puts between the word and the code: a colon, one short word ("lautet",
// "es", "est", "是"), or a qualifier written in a non-English script or with accents
// ("подтверждения", "de verificación"). One plain ASCII word at most, so English prose
// such as "the code will expire in 2025" does not announce a code.
const SEP = String.raw`[^\p{L}\p{N}\n]`;
const SHORT_WORD = String.raw`(?:\p{L}{1,8}${SEP}{0,3})?`;
const QUALIFIER = String.raw`(?:${SEP}{1,4}(?:(?:de|do|da|di|des|du|del) )?(?:\p{L}*[^\x00-\x7f\d\s]\p{L}*|(?:weryfik|verific|verifik|verifiz|potwierdz|bekraeft|vahvist|ellenorz|dogrul|jednoraz)\p{L}*)){1,2}`;
const INTL_FILLER = String.raw`(?:${QUALIFIER})?${SEP}{0,4}${SHORT_WORD}`;
const INTL_BEFORE = new RegExp(String.raw`(?:(?<![\p{L}\p{N}])(?:${INTL_COMPOUND}|${INTL_WORD})(?![\p{L}\p{N}])${INTL_FILLER}|${INTL_CJK}[^\p{N}\n]{0,6})$`, 'iu');
const INTL_KEYWORD = new RegExp(String.raw`(?:(?<![\p{L}\p{N}])(?:${INTL_COMPOUND}|${INTL_WORD})(?![\p{L}\p{N}])|${INTL_CJK}|verifizier|bestätig|vérifi|verifica|подтвержд|weryfik|doğrula|验证|驗證|認証|確認|인증)`, 'iu');
// Other kinds of number in those languages: an order, invoice, customer or phone number.
const INTL_OTHER_NUMBER = /(?:bestell|rechnung|kunden|auftrag|commande|facture|client|pedido|factura|cliente|encomenda|ordine|fattura|заказ|сч[её]т|телефон|zamówieni|faktur|sipariş|fatura|订单|訂單|发票|發票|电话|電話|注文|請求書|電話番号|주문|송장|전화)\p{L}*[^\p{L}\p{N}\n]{0,12}(?:\p{L}{1,8}[^\p{L}\p{N}\n]{0,3})?$/iu;

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
      const intl = !STRONG_BEFORE.test(before) && INTL_BEFORE.test(before) && !INTL_OTHER_NUMBER.test(before) && !OTHER_NUMBER.test(before);
      const strong = STRONG_BEFORE.test(before) || intl || (standalone && (previousAnnounces || INTL_BEFORE.test(lines[i - 1] ?? '')));
      const value = normalize(token);
      if (!plausible(value, strong)) continue;
      if (!strong && (OTHER_NUMBER.test(before) || UNIT_AFTER.test(after))) continue;
      const grouped = /^\d{3,4}[ -]\d/.test(token);
      if (strong || (standalone && (KEYWORD.test(nearby) || INTL_KEYWORD.test(nearby))) || (!grouped && KEYWORD.test(line) && looksLikeCode(value)) || (grouped && KEYWORD.test(line))) {
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
