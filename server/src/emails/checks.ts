import type { EmailCheck, SandboxFile, SandboxHeader } from '../../../shared/sandbox.js';
import { decodeAttribute } from './html.js';

/**
 * Lint findings for the inbox (CONTRACT §8 `checks`): things that work in the sandbox but
 * hurt in real inboxes. Each finding has a stable `id` so tests and the UI can key on it.
 */
export interface CheckInput {
  html: string;
  /** Size of the whole HTML part (`html` may be its first part only). */
  htmlBytes: number;
  /** Whether the message has a real text/plain part (not one generated for display). */
  hasTextPart: boolean;
  text: string;
  headers: SandboxHeader[];
  files: SandboxFile[];
  flags: Record<string, unknown>;
  fromAddress: string;
  size: number;
}

// Gmail clips the HTML of messages over 102 KB behind a "View entire message" link.
const GMAIL_CLIP_BYTES = 102 * 1024;
// Several providers refuse messages over 10 MB (after encoding).
const LARGE_MESSAGE_BYTES = 10 * 1024 * 1024;
// RFC 5322 §3.6: these fields occur at most once.
const SINGLE_FIELDS = ['date', 'from', 'sender', 'reply-to', 'to', 'cc', 'bcc', 'message-id', 'in-reply-to', 'references', 'subject'];

const ATTRIBUTE_URLS = /<(a|img|link|source|area)\b[^>]{0,4000}?\b(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|[^/]*\.localhost)$/i;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sample = (urls: string[]) => ` (e.g. ${urls[0].length > 80 ? urls[0].slice(0, 77) + '…' : urls[0]})`;

export function checkEmail(input: CheckInput): EmailCheck[] {
  const checks: EmailCheck[] = [];
  const add = (id: string, severity: EmailCheck['severity'], message: string) => checks.push({ id, severity, message });
  const { html } = input;

  if (!html.trim() && !input.text.trim()) add('empty-body', 'error', 'The message has no text and no HTML content.');

  const { htmlBytes } = input;
  if (htmlBytes > GMAIL_CLIP_BYTES) add('html-too-large', 'warning', `The HTML is ${Math.round(htmlBytes / 1024)} KB: Gmail clips messages over 102 KB and hides the rest.`);
  if (html.trim() && !input.hasTextPart) add('no-text-part', 'warning', 'HTML without a plain-text alternative: some clients show nothing useful and spam filters score it higher.');

  const images = [...html.matchAll(/<img\b[^>]{0,4000}>/gi)].map((m) => m[0]);
  const withoutAlt = images.filter((tag) => !/\balt\s*=/i.test(tag)).length;
  if (withoutAlt) add('image-without-alt', 'warning', `${plural(withoutAlt, 'image')} without alt text: screen readers and clients that block images show nothing.`);

  const urls = [...html.matchAll(ATTRIBUTE_URLS)].map((m) => decodeAttribute(m[3] ?? m[4] ?? m[5]).trim());
  for (const [, url] of input.text.matchAll(/(https?:\/\/[^\s<>"')\]]+)/gi)) urls.push(url);
  const hostOf = (url: string) => /^https?:\/\/(\[[^\]]*\]|[^/:?#]+)/i.exec(url)?.[1] ?? null;
  const local = [...new Set(urls.filter((u) => LOCAL_HOST.test(hostOf(u) ?? '')))];
  if (local.length) add('link-to-localhost', 'warning', `${plural(local.length, 'link')} point${local.length === 1 ? 's' : ''} at this machine${sample(local)}: recipients cannot open ${local.length === 1 ? 'it' : 'them'}.`);
  const insecure = [...new Set(urls.filter((u) => /^http:\/\//i.test(u) && !LOCAL_HOST.test(hostOf(u) ?? '')))];
  if (insecure.length) add('insecure-link', 'warning', `${plural(insecure.length, 'link or image', 'links or images')} over plain http${sample(insecure)}: clients warn about or block them.`);

  const cids = new Set(input.files.map((f) => f.content_id?.toLowerCase()).filter(Boolean));
  const missing = [...new Set([...html.matchAll(/["'(]cid:([^"')\s]+)/gi)].map((m) => decodeAttribute(m[1])))].filter((cid) => !cids.has(cid.toLowerCase()));
  if (missing.length) add('missing-inline-image', 'error', `The HTML refers to ${missing.map((c) => `cid:${c}`).join(', ')} but no attachment has that Content-ID.`);

  if (input.flags.unverified_sender) {
    const domain = input.fromAddress.slice(input.fromAddress.lastIndexOf('@') + 1);
    add('unverified-sender', 'warning', `The sender domain ${domain} is not verified for this team: the real provider would refuse this email (run with --strict-sender to enforce it).`);
  }

  const counts = new Map<string, number>();
  for (const header of input.headers) counts.set(header.name.toLowerCase(), (counts.get(header.name.toLowerCase()) ?? 0) + 1);
  if (!counts.has('from')) add('missing-from', 'error', 'No From header (RFC 5322 §3.6 requires one).');
  if (!counts.has('date')) add('missing-date', 'error', 'No Date header (RFC 5322 §3.6 requires one).');
  if (!counts.has('message-id')) add('missing-message-id', 'warning', 'No Message-ID header: threading and deduplication suffer, and spam filters notice.');
  const subject = input.headers.find((h) => h.name.toLowerCase() === 'subject')?.value ?? '';
  if (!subject.trim()) add('empty-subject', 'warning', 'The subject is empty.');
  const repeated = SINGLE_FIELDS.filter((name) => (counts.get(name) ?? 0) > 1);
  if (repeated.length) add('duplicate-header', 'error', `Header${repeated.length === 1 ? '' : 's'} ${repeated.join(', ')} appear${repeated.length === 1 ? 's' : ''} more than once (RFC 5322 §3.6 allows one).`);

  if (input.size > LARGE_MESSAGE_BYTES) add('large-message', 'warning', `The message is ${(input.size / 1024 / 1024).toFixed(1)} MB: several providers refuse messages over 10 MB.`);

  const mentionsUnsubscribe = /unsubscribe/i.test(html) || /unsubscribe/i.test(input.text);
  if (mentionsUnsubscribe && !counts.has('list-unsubscribe')) add('no-list-unsubscribe', 'info', 'The content offers unsubscribing but there is no List-Unsubscribe header (RFC 8058); bulk senders need one.');
  if (counts.has('x-sendbox-outcome')) add('sandbox-outcome-header', 'info', 'X-Sendbox-Outcome decides the simulated outcome here; real providers ignore it.');
  return checks;
}
