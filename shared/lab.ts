import { z } from 'zod';

/**
 * The mail-quality lab (CONTRACT §9): HTML client compatibility, spam score, link check
 * and authentication of one stored email, each under /sandbox/emails/{id}/….
 */

// --- html-check ---------------------------------------------------------------------------

export type Support = 'yes' | 'partial' | 'no' | 'unknown';
export const PLATFORMS = ['desktop', 'mobile', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** One email client (a caniemail family on one platform), with its share of opens. */
export interface HtmlCheckClient {
  /** caniemail's `family.platform`, e.g. `gmail.android`. */
  id: string;
  family: string;
  /** Readable: "Gmail (Android)". */
  name: string;
  platform: Platform;
  /** Its weight in the score: a share of email opens, in percent. */
  weight: number;
}

export interface HtmlCheckUse {
  /** 1-based line of the HTML part. */
  line: number;
  /** The markup or CSS where the feature is used, shortened. */
  snippet: string;
}

export interface HtmlCheckFeature {
  /** caniemail slug, e.g. `css-display-flex`. */
  slug: string;
  title: string;
  category: 'html' | 'css' | 'image' | 'others';
  url: string;
  /** Weighted share of opens that render it fully (partial counts half), 0–100. */
  score: number;
  uses: HtmlCheckUse[];
  /** Per client id: the support and caniemail's notes for it. */
  support: Record<string, { support: Support; notes: string[] }>;
}

export interface HtmlCheckResult {
  /** Weighted share of feature support over every feature the email uses, 0–100 (100 with no features). */
  score: number;
  clients: HtmlCheckClient[];
  /** Worst first. */
  features: HtmlCheckFeature[];
  data: { source: 'caniemail'; package_version: string; updated: string; features: number };
  weights: string;
}

// --- spam -----------------------------------------------------------------------------------

export interface SpamRule {
  name: string;
  score: number;
  description: string;
}

export type SpamResult =
  | { configured: false; message: string }
  | {
      configured: true;
      backend: 'spamassassin' | 'rspamd';
      /** host:port or URL of the filter that answered. */
      server: string;
      score: number;
      threshold: number;
      verdict: 'spam' | 'not-spam';
      /** rspamd's action (`reject`, `add header`, `no action`…); null for SpamAssassin. */
      action: string | null;
      rules: SpamRule[];
      checked_at: string;
      cached: boolean;
    };

// --- link-check -----------------------------------------------------------------------------

export const linkCheckRequestSchema = z
  .strictObject({
    /** How many links (and images) to fetch, in reading order; the rest are listed as skipped. */
    max_links: z.int().min(1).max(100).optional(),
  })
  .describe('Link check options');
export type LinkCheckRequest = z.infer<typeof linkCheckRequestSchema>;

export interface LinkCheckEntry {
  url: string;
  kind: 'link' | 'image';
  /** Final status code, null when no answer came (error says why). */
  status: number | null;
  ok: boolean;
  /** Where the redirects ended. */
  final_url: string;
  redirects: number;
  method: 'HEAD' | 'GET';
  time_ms: number;
  error: string | null;
}

export interface LinkCheckResult {
  checked: number;
  ok: number;
  failed: number;
  links: LinkCheckEntry[];
  /** Links beyond max_links, not fetched. */
  skipped: string[];
  limits: { max_links: number; timeout_ms: number; max_redirects: number; concurrency: number };
}

// --- auth -----------------------------------------------------------------------------------

export type AuthVerdict = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

export interface DkimSignatureResult {
  result: AuthVerdict;
  domain: string;
  selector: string;
  algorithm: string;
  /** The signature's `b=` value (base64). */
  signature: string;
  /** The signature's `bh=` body hash, and the hash of the body as received. */
  body_hash: string;
  computed_body_hash: string;
  /** Whether the body hash in `bh=` matched the body as received. */
  body_hash_matches: boolean | null;
  signed_headers: string[];
  /** d= is the From domain or its organizational domain (DMARC relaxed alignment). */
  aligned: boolean;
  comment: string;
}

export interface BulkSenderCheck {
  /** `visible-unsubscribe` only for mail that looks like marketing (List-Unsubscribe, List-Id or Precedence: bulk). */
  id: 'list-unsubscribe-https' | 'list-unsubscribe-one-click' | 'list-unsubscribe-signed' | 'visible-unsubscribe';
  ok: boolean;
  message: string;
}

export interface AuthResult {
  from_domain: string;
  /** The From domain as a domain of the email's team, when it is one. */
  team_domain: { value: string; status: string; verified: boolean } | null;
  /** Where the DNS answers came from. */
  dns: 'simulated' | 'real';
  /** Whether sendbox added a DKIM-Signature to this message (as the provider would). */
  signed_by_sendbox: boolean;
  /** The overall outcome in one sentence. */
  summary: string;
  dkim: DkimSignatureResult[];
  spf: { result: AuthVerdict; mail_from: string; domain: string; ip: string; comment: string };
  dmarc: { result: AuthVerdict; from_domain: string; policy: string | null; aligned_dkim: boolean; aligned_spf: boolean; comment: string };
  bulk_sender: BulkSenderCheck[];
  /** The Authentication-Results header a receiver would add. */
  authentication_results: string;
}
