import { z } from 'zod';
import { linkCheckRequestSchema, PLATFORMS } from '../../../shared/lab.js';

/** OpenAPI paths of the mail-quality lab (CONTRACT §9), added to the /sandbox paths. */
export function labPaths(): Record<string, unknown> {
  const str = { type: 'string' };
  const num = { type: 'number' };
  const bool = { type: 'boolean' };
  const list = (items: unknown) => ({ type: 'array', items });
  const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });
  const pathId = { name: 'id', in: 'path', required: true, schema: str };
  const ok = (description: string, data: unknown) => ({ '200': { description, content: { 'application/json': { schema: obj({ status: num, message: str, data }) } } } });
  const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
  const verdict = { type: 'string', enum: ['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'] };
  const support = { type: 'string', enum: ['yes', 'partial', 'no', 'unknown'] };
  const { $schema: _ignored, ...linkBody } = z.toJSONSchema(linkCheckRequestSchema, { io: 'input' }) as Record<string, unknown>;

  const htmlCheck = obj({
    score: { ...num, description: 'Weighted share of opens (0–100) whose client supports every feature used (partial counts half)' },
    clients: list(obj({ id: str, family: str, name: str, platform: { type: 'string', enum: [...PLATFORMS] }, weight: num })),
    features: list(obj({ slug: str, title: str, category: str, url: str, score: num, uses: list(obj({ line: num, snippet: str })), support: { type: 'object', additionalProperties: obj({ support, notes: list(str) }) } })),
    data: obj({ source: str, package_version: str, updated: str, features: num }),
    weights: str,
  });
  const spam = {
    oneOf: [
      obj({ configured: { const: false }, message: str }),
      obj({ configured: { const: true }, backend: { type: 'string', enum: ['spamassassin', 'rspamd'] }, server: str, score: num, threshold: num, verdict: { type: 'string', enum: ['spam', 'not-spam'] }, action: { type: ['string', 'null'] }, rules: list(obj({ name: str, score: num, description: str })), checked_at: str, cached: bool }),
    ],
  };
  const linkCheck = obj({
    checked: num, ok: num, failed: num, skipped: list(str),
    links: list(obj({ url: str, kind: { type: 'string', enum: ['link', 'image'] }, status: { type: ['number', 'null'] }, ok: bool, final_url: str, redirects: num, method: { type: 'string', enum: ['HEAD', 'GET'] }, time_ms: num, error: { type: ['string', 'null'] } })),
    limits: obj({ max_links: num, timeout_ms: num, max_redirects: num, concurrency: num }),
  });
  const auth = obj({
    from_domain: str,
    team_domain: { type: ['object', 'null'], properties: { value: str, status: str, verified: bool } },
    dns: { type: 'string', enum: ['simulated', 'real'] },
    signed_by_sendbox: bool,
    summary: str,
    dkim: list(obj({ result: verdict, domain: str, selector: str, algorithm: str, signature: str, body_hash: str, computed_body_hash: str, body_hash_matches: { type: ['boolean', 'null'] }, signed_headers: list(str), aligned: bool, comment: str })),
    spf: obj({ result: verdict, mail_from: str, domain: str, ip: str, comment: str }),
    dmarc: obj({ result: verdict, from_domain: str, policy: { type: ['string', 'null'] }, aligned_dkim: bool, aligned_spf: bool, comment: str }),
    bulk_sender: list(obj({ id: { type: 'string', enum: ['list-unsubscribe-https', 'list-unsubscribe-one-click', 'list-unsubscribe-signed', 'visible-unsubscribe'] }, ok: bool, message: str })),
    authentication_results: str,
  });
  return {
    '/sandbox/emails/{id}/html-check': { get: { security: [], summary: 'HTML and CSS client compatibility (caniemail data bundled), worst features first', parameters: [pathId], responses: { ...ok('The check', htmlCheck), ...errors(404) } } },
    '/sandbox/emails/{id}/spam': { get: { security: [], summary: 'Spam score from spamd (--spamassassin) or rspamd (--rspamd); says so when none is configured; cached per email', parameters: [pathId], responses: { ...ok('The score', spam), ...errors(404, 422), '502': { description: 'The filter could not be reached or did not answer in time' } } } },
    '/sandbox/emails/{id}/link-check': { post: { security: [], summary: 'Fetch every link and image (HEAD, then GET), bounded: max_links, timeout, 5 redirects, 4 at a time, no cookies', parameters: [pathId], requestBody: { required: false, content: { 'application/json': { schema: linkBody } } }, responses: { ...ok('Per link', linkCheck), ...errors(400, 403, 404, 415, 422) } } },
    '/sandbox/emails/{id}/auth': { get: { security: [], summary: 'DKIM, SPF and DMARC as a receiver would see them (mailauth), plus the bulk-sender unsubscribe rules', parameters: [pathId], responses: { ...ok('The verdicts', auth), ...errors(404) } } },
  };
}
