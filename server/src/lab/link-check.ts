import type { LinkCheckEntry, LinkCheckResult } from '../../../shared/lab.js';
import { decodeAttribute } from '../../../shared/html-text.js';
import { extractLinks } from '../emails/links.js';
import { describeFetchError } from './fetch-error.js';

/**
 * Fetches every http(s) link and image of an email, the way a careful crawler would
 * (Mailpit's link check does the same job): HEAD first, GET when HEAD is refused,
 * redirects followed by hand up to a limit, a few requests at a time, each with a
 * timeout. Nothing identifying is sent: no cookies, no credentials, no Referer, and a
 * URL with user:password in it is not fetched. Only the status line and headers are
 * read; a GET's body is dropped unread.
 */

export interface LinkCheckLimits {
  maxLinks: number;
  timeoutMs: number;
  maxRedirects: number;
  concurrency: number;
}

export const LINK_CHECK_DEFAULTS: Omit<LinkCheckLimits, 'timeoutMs'> = { maxLinks: 30, maxRedirects: 5, concurrency: 4 };

const IMG_SRC = /<img\b[^>]{0,4000}?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/** Links (anchors and text URLs) then images, each URL once, in reading order. */
export function linkTargets(html: string, text: string): { url: string; kind: 'link' | 'image' }[] {
  const seen = new Set<string>();
  const out: { url: string; kind: 'link' | 'image' }[] = [];
  const add = (url: string, kind: 'link' | 'image') => {
    if (!/^https?:\/\/[^\s/?#]+/i.test(url) || seen.has(url)) return;
    seen.add(url);
    out.push({ url, kind });
  };
  for (const link of extractLinks(html, text)) add(link.href, 'link');
  for (const m of html.matchAll(IMG_SRC)) add(decodeAttribute(m[1] ?? m[2] ?? m[3]).trim(), 'image');
  return out;
}

// HEAD is "refused" by servers that do not implement it or treat it as a bad request.
const HEAD_REFUSED = new Set([400, 403, 405, 501]);

async function request(url: string, method: 'HEAD' | 'GET', signal: AbortSignal): Promise<Response> {
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    signal,
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    headers: { 'User-Agent': 'sendbox-link-check/1 (+local mail sandbox)', Accept: '*/*' },
  });
  // Only the status matters: the body is never read.
  await response.body?.cancel().catch(() => {});
  return response;
}

async function checkOne(target: { url: string; kind: 'link' | 'image' }, limits: LinkCheckLimits): Promise<LinkCheckEntry> {
  const started = performance.now();
  const entry: LinkCheckEntry = { url: target.url, kind: target.kind, status: null, ok: false, final_url: target.url, redirects: 0, method: 'HEAD', time_ms: 0, error: null };
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = target.url;
  try {
    for (;;) {
      const parsed = new URL(url);
      if (parsed.username || parsed.password) throw new Error('the URL carries a user name or password, so it is not fetched');
      if (!/^https?:$/.test(parsed.protocol)) throw new Error(`a redirect led to ${parsed.protocol} URL, which is not checked`);
      let response = await request(url, 'HEAD', signal);
      entry.method = 'HEAD';
      if (HEAD_REFUSED.has(response.status)) {
        response = await request(url, 'GET', signal);
        entry.method = 'GET';
      }
      entry.status = response.status;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        if (entry.redirects >= limits.maxRedirects) throw new Error(`more than ${limits.maxRedirects} redirects`);
        entry.redirects++;
        url = new URL(location, url).toString();
        entry.final_url = url;
        continue;
      }
      entry.ok = response.status >= 200 && response.status < 300;
      if (!entry.ok) entry.error = `answered ${response.status}`;
      break;
    }
  } catch (error) {
    entry.ok = false;
    entry.error = signal.aborted ? `no answer within ${limits.timeoutMs} ms` : plainError(error);
  }
  entry.time_ms = Math.round(performance.now() - started);
  return entry;
}

function plainError(error: unknown): string {
  const code = describeFetchError(error);
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'no such host',
    ECONNRESET: 'connection reset',
    EAI_AGAIN: 'host name lookup failed (temporarily)',
    CERT_HAS_EXPIRED: 'TLS certificate expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
    UND_ERR_SOCKET: 'the connection closed early',
  };
  return known[code] ?? code;
}

/** Checks up to `maxLinks` targets, `concurrency` at a time; the rest are listed as skipped. */
export async function checkLinks(targets: { url: string; kind: 'link' | 'image' }[], limits: LinkCheckLimits): Promise<LinkCheckResult> {
  const selected = targets.slice(0, limits.maxLinks);
  const results: LinkCheckEntry[] = new Array(selected.length);
  let next = 0;
  const worker = async () => {
    while (next < selected.length) {
      const index = next++;
      results[index] = await checkOne(selected[index], limits);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limits.concurrency, selected.length) }, worker));
  const ok = results.filter((r) => r.ok).length;
  return {
    checked: results.length,
    ok,
    failed: results.length - ok,
    links: results,
    skipped: targets.slice(limits.maxLinks).map((t) => t.url),
    limits: { max_links: limits.maxLinks, timeout_ms: limits.timeoutMs, max_redirects: limits.maxRedirects, concurrency: limits.concurrency },
  };
}
