import { z } from 'zod';

/**
 * The mail-quality lab (CONTRACT §9): HTML client compatibility, spam score, link check
 * and authentication of one stored email, each under /sandbox/emails/{id}/…. The answers
 * are zod schemas: the types below and the OpenAPI document are derived from them.
 */

// --- html-check ---------------------------------------------------------------------------

export const SUPPORTS = ['yes', 'partial', 'no', 'unknown'] as const;
export type Support = (typeof SUPPORTS)[number];
export const PLATFORMS = ['desktop', 'mobile', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** One email client (a caniemail family on one platform), with its share of opens. */
export const htmlCheckClientSchema = z.strictObject({
  id: z.string().describe('caniemail\'s family.platform, e.g. gmail.android'),
  family: z.string(),
  name: z.string().describe('Readable: "Gmail (Android)"'),
  platform: z.enum(PLATFORMS),
  weight: z.number().describe('Its weight in the score: a share of email opens, in percent'),
});
export type HtmlCheckClient = z.infer<typeof htmlCheckClientSchema>;

export const htmlCheckUseSchema = z.strictObject({
  line: z.number().int().describe('1-based line of the HTML part'),
  snippet: z.string().describe('The markup or CSS where the feature is used, shortened'),
});
export type HtmlCheckUse = z.infer<typeof htmlCheckUseSchema>;

export const htmlCheckFeatureSchema = z.strictObject({
  slug: z.string().describe('caniemail slug, e.g. css-display-flex'),
  title: z.string(),
  category: z.enum(['html', 'css', 'image', 'others']),
  url: z.string(),
  score: z.number().describe('Weighted share of opens that render it fully (partial counts half), 0–100'),
  uses: z.array(htmlCheckUseSchema),
  support: z.record(z.string(), z.strictObject({ support: z.enum(SUPPORTS), notes: z.array(z.string()) })).describe('Per client id: the support and caniemail\'s notes for it'),
});
export type HtmlCheckFeature = z.infer<typeof htmlCheckFeatureSchema>;

export const htmlCheckResultSchema = z.strictObject({
  score: z.number().describe('Weighted share of opens (0–100) whose client supports every feature used; 100 with no features'),
  clients: z.array(htmlCheckClientSchema),
  features: z.array(htmlCheckFeatureSchema).describe('Worst first'),
  data: z.strictObject({ source: z.literal('caniemail'), package_version: z.string(), updated: z.string(), features: z.number().int() }),
  weights: z.string().describe('Where the client weights come from'),
}).meta({ id: 'HtmlCheck' });
export type HtmlCheckResult = z.infer<typeof htmlCheckResultSchema>;

// --- spam -----------------------------------------------------------------------------------

export const spamRuleSchema = z.strictObject({ name: z.string(), score: z.number(), description: z.string() });
export type SpamRule = z.infer<typeof spamRuleSchema>;

export const spamResultSchema = z.discriminatedUnion('configured', [
  z.strictObject({ configured: z.literal(false), message: z.string().describe('Names the flag to set') }),
  z.strictObject({
    configured: z.literal(true),
    backend: z.enum(['spamassassin', 'rspamd']),
    server: z.string().describe('host:port or URL of the filter that answered'),
    score: z.number(),
    threshold: z.number(),
    verdict: z.enum(['spam', 'not-spam']),
    action: z.string().nullable().describe('rspamd\'s action (reject, add header, no action…); null for SpamAssassin'),
    rules: z.array(spamRuleSchema).describe('Every rule hit, highest score first'),
    checked_at: z.string(),
    cached: z.boolean(),
  }),
]).meta({ id: 'SpamCheck' });
export type SpamResult = z.infer<typeof spamResultSchema>;

// --- link-check -----------------------------------------------------------------------------

export const linkCheckRequestSchema = z
  .strictObject({
    /** How many links (and images) to fetch, in reading order; the rest are listed as skipped. */
    max_links: z.int().min(1).max(100).optional(),
  })
  .describe('Link check options');
export type LinkCheckRequest = z.infer<typeof linkCheckRequestSchema>;

export const linkCheckEntrySchema = z.strictObject({
  url: z.string(),
  kind: z.enum(['link', 'image']),
  status: z.number().int().nullable().describe('Final status code; null when no answer came (error says why)'),
  ok: z.boolean(),
  final_url: z.string().describe('Where the redirects ended'),
  redirects: z.number().int(),
  method: z.enum(['HEAD', 'GET']),
  time_ms: z.number(),
  error: z.string().nullable(),
});
export type LinkCheckEntry = z.infer<typeof linkCheckEntrySchema>;

export const linkCheckResultSchema = z.strictObject({
  checked: z.number().int(),
  ok: z.number().int(),
  failed: z.number().int(),
  links: z.array(linkCheckEntrySchema),
  skipped: z.array(z.string()).describe('Links beyond max_links, not fetched'),
  limits: z.strictObject({ max_links: z.number().int(), timeout_ms: z.number().int(), max_redirects: z.number().int(), concurrency: z.number().int() }),
}).meta({ id: 'LinkCheck' });
export type LinkCheckResult = z.infer<typeof linkCheckResultSchema>;

// --- auth -----------------------------------------------------------------------------------

export const AUTH_VERDICTS = ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'] as const;
export type AuthVerdict = (typeof AUTH_VERDICTS)[number];
const verdict = z.enum(AUTH_VERDICTS);

export const dkimSignatureResultSchema = z.strictObject({
  result: verdict,
  domain: z.string(),
  selector: z.string(),
  algorithm: z.string(),
  signature: z.string().describe('The signature\'s b= value (base64)'),
  body_hash: z.string().describe('The signature\'s bh= body hash'),
  computed_body_hash: z.string().describe('The hash of the body as received'),
  body_hash_matches: z.boolean().nullable(),
  signed_headers: z.array(z.string()),
  aligned: z.boolean().describe('d= is the From domain or its organizational domain (DMARC relaxed alignment)'),
  comment: z.string(),
});
export type DkimSignatureResult = z.infer<typeof dkimSignatureResultSchema>;

export const bulkSenderCheckSchema = z.strictObject({
  id: z.enum(['list-unsubscribe-https', 'list-unsubscribe-one-click', 'list-unsubscribe-signed', 'visible-unsubscribe']).describe('visible-unsubscribe only for mail that looks like marketing (List-Unsubscribe, List-Id or Precedence: bulk)'),
  ok: z.boolean(),
  message: z.string(),
});
export type BulkSenderCheck = z.infer<typeof bulkSenderCheckSchema>;

export const authResultSchema = z.strictObject({
  from_domain: z.string(),
  team_domain: z.strictObject({ value: z.string(), status: z.string(), verified: z.boolean() }).nullable().describe('The From domain as a domain of the email\'s team, when it is one'),
  dns: z.enum(['simulated', 'real']).describe('Where the DNS answers came from'),
  signed_by_sendbox: z.boolean().describe('Whether sendbox added a DKIM-Signature to this message (as the provider would)'),
  summary: z.string().describe('The overall outcome in one sentence'),
  dkim: z.array(dkimSignatureResultSchema),
  spf: z.strictObject({ result: verdict, mail_from: z.string(), domain: z.string(), ip: z.string(), comment: z.string() }),
  dmarc: z.strictObject({ result: verdict, from_domain: z.string(), policy: z.string().nullable(), aligned_dkim: z.boolean(), aligned_spf: z.boolean(), comment: z.string() }),
  bulk_sender: z.array(bulkSenderCheckSchema),
  authentication_results: z.string().describe('The Authentication-Results header a receiver would add'),
}).meta({ id: 'AuthCheck' });
export type AuthResult = z.infer<typeof authResultSchema>;
