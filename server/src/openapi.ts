import { z } from 'zod';
import { sendRequestSchema, listQuerySchema } from '../../shared/email.js';
import { addDomainSchema } from '../../shared/domain.js';
import { envelopeOf, emailListSchema, emailLogSchema, emailSchema, domainSchema, errorBodySchema, mailboxSchema, sandboxEmailListSchema, sandboxEmailSchema, sandboxEmailSummarySchema, sendResponseSchema, ruleSchema, chaosSettingsSchema, deliveryStateSchema, resetResultSchema, webhookSchema, webhookDetailSchema, webhookAttemptSchema, verificationScriptSchema, waitTimeoutSchema, deletedEmailSchema, clearedEmailsSchema } from '../../shared/responses.js';
import { healthSchema, rulesClearedSchema, bulkResultSchema, tagCountSchema, tagRenamedSchema, tagRemovedSchema } from '../../shared/responses.js';
import { relayInfoSchema, releaseRequestSchema, releaseResultSchema } from '../../shared/release.js';
import { bulkRequestSchema, markReadRequestSchema, renameTagRequestSchema, setTagsRequestSchema } from '../../shared/tag-schemas.js';
import { authResultSchema, htmlCheckResultSchema, linkCheckRequestSchema, linkCheckResultSchema, spamResultSchema } from '../../shared/lab.js';
import { chaosRequestSchema } from './http/sandbox/chaos.js';
import { addTeamDomainRequestSchema } from './http/sandbox/domains.js';
import { forceEventRequestSchema } from './http/sandbox/drive.js';
import { resetRequestSchema } from './http/sandbox/reset.js';
import { webhookRequestSchema } from './http/sandbox/webhooks.js';
import { verificationScriptRequestSchema } from './domains/scripts.js';
import { ruleRequestSchema } from './simulation/rule-schema.js';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests
 * and describe responses (shared/responses.ts, shared/lab.ts, shared/tag-schemas.ts and the
 * routers' own request schemas): no request body or answer is written here by hand. A
 * schema with an id (`.meta({id})`) becomes a component that the paths reference.
 */
const components: Record<string, unknown> = {};
const relink = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;

/** The JSON Schema of a zod schema: `input` for what a request may send, `output` for what an answer holds. */
export function fromZod(s: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, $defs, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown> & { $defs?: Record<string, unknown> };
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = relink(def);
  return relink(rest);
}
const schema = (s: z.ZodType) => fromZod(s, 'input');

const str = { type: 'string' };

const envelope = (data: unknown) => {
  const shape = fromZod(envelopeOf(z.unknown())) as { properties: Record<string, unknown> };
  return { ...shape, properties: { ...shape.properties, data } };
};
const ok = (description: string, data: unknown, code = '200') => ({ [code]: { description, content: { 'application/json': { schema: envelope(data) } } } });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
const domainParam = (required: boolean) => ({ name: 'domain', in: 'query', required, schema: str, description: 'Domain name; case-insensitive, a trailing dot is ignored' });

export function openapiDocument(): Record<string, unknown> {
  const listParams = Object.entries((schema(listQuerySchema) as { properties: Record<string, unknown> }).properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
  // The components that paths reference by name ($ref) without going through fromZod.
  for (const referenced of [emailSchema, domainSchema, errorBodySchema]) fromZod(referenced);
  const paths = v1Paths(listParams);
  return {
    openapi: '3.1.0',
    info: { title: 'sendbox', version: '1', description: 'Local mail sandbox: the provider API /v1, and the /sandbox control API.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { SendRequest: schema(sendRequestSchema), AddDomain: schema(addDomainSchema), ...components },
      responses: Object.fromEntries([400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 502].map((c) => [`E${c}`, { description: `Error ${c}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }])),
    },
    paths: { ...paths, ...sandboxPaths },
  };
}

/** The provider API (CONTRACT §3). */
function v1Paths(listParams: unknown[]): Record<string, unknown> {
  return {
    '/v1/send': { post: {
      summary: 'Send an email', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SendRequest' } } } },
      responses: { '200': { description: 'Accepted', content: { 'application/json': { schema: fromZod(sendResponseSchema) } } }, ...errors(400, 401, 403, 413, 415, 422, 429) },
    } },
    '/v1/emails': { get: { summary: 'List emails, newest first', parameters: listParams, responses: { ...ok('A page of emails', fromZod(emailListSchema)), ...errors(400, 401) } } },
    '/v1/emails/{email_id}': { get: { summary: 'Get an email with its logs', parameters: [{ name: 'email_id', in: 'path', required: true, schema: str }], responses: { ...ok('The email', fromZod(emailSchema)), ...errors(401, 404) } } },
    '/v1/emails/{email_id}/logs': { get: { summary: 'Delivery log, chronological (includes complaint entries)', parameters: [{ name: 'email_id', in: 'path', required: true, schema: str }], responses: { ...ok('Log entries', fromZod(z.array(emailLogSchema))), ...errors(401, 404) } } },
    '/v1/domains': {
      post: { summary: 'Add a domain', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AddDomain' } } } }, responses: { ...ok('Created', { $ref: '#/components/schemas/Domain' }, '201'), ...errors(400, 401, 409, 415, 422) } },
      get: { summary: 'Get a domain, or list all without ?domain=', parameters: [domainParam(false)], responses: { ...ok('The domain (or an array of domains)', { oneOf: [{ $ref: '#/components/schemas/Domain' }, { type: 'array', items: { $ref: '#/components/schemas/Domain' } }] }), ...errors(401, 404) } },
      delete: { summary: 'Delete a domain', parameters: [domainParam(true)], responses: { ...ok('Deleted', { type: 'null' }), ...errors(400, 401, 404) } },
    },
    '/v1/domains/verify': { post: { summary: 'Check the DNS records now', parameters: [domainParam(true)], responses: { ...ok('The domain with updated statuses', { $ref: '#/components/schemas/Domain' }), ...errors(400, 401, 404) } } },
  };
}

/** Paths of the /sandbox control API; its modules add themselves here as they grow. */
export const sandboxPaths: Record<string, unknown> = {
  '/sandbox/health': { get: { summary: 'Health: the number of emails, the delivery clock and the retention in force', security: [], responses: ok('OK', fromZod(healthSchema)) } },
  ...domainAndWebhookPaths(),
  ...emailAndScenarioPaths(),
  ...tagAndBulkPaths(),
  ...labPaths(),
};

/** /sandbox/domains and /sandbox/webhooks (CONTRACT §5, §6). */
function domainAndWebhookPaths(): Record<string, unknown> {
  const q = (name: string, required: boolean, description: string) => ({ name, in: 'query', required, schema: str, description });
  const teamQ = q('team_id', false, 'A team; required when several teams have the domain');
  const domainQ = q('domain', true, 'Domain name; case-insensitive, a trailing dot is ignored');
  const pathDomain = { name: 'domain', in: 'path', required: true, schema: str };
  const pathId = { name: 'id', in: 'path', required: true, schema: str, description: 'Webhook id (`flag` for --webhook-url)' };
  const json = (s: unknown) => ({ required: true, content: { 'application/json': { schema: s } } });
  const domainRef = { $ref: '#/components/schemas/Domain' };
  return {
    '/sandbox/domains': {
      get: { summary: 'Every team\'s domains', parameters: [q('team_id', false, 'Only this team'), q('domain', false, 'Only this name')], responses: { ...ok('Domains', { type: 'array', items: domainRef }), ...errors(422) } },
      post: { summary: 'Add a domain for a team', requestBody: json(schema(addTeamDomainRequestSchema)), responses: { ...ok('Created', domainRef, '201'), ...errors(400, 409, 415, 422) } },
      delete: { summary: 'Delete a team\'s domain', parameters: [teamQ, domainQ], responses: { ...ok('Deleted', { type: 'null' }), ...errors(400, 404) } },
    },
    '/sandbox/domains/verify': { post: { summary: 'Check a team\'s domain now', parameters: [teamQ, domainQ], responses: { ...ok('The domain', domainRef), ...errors(400, 404) } } },
    '/sandbox/domains/{domain}/verification': {
      put: { summary: 'Script the next verification check(s)', parameters: [pathDomain], requestBody: json(schema(verificationScriptRequestSchema)), responses: { ...ok('The pending scripts of the domain', fromZod(z.array(verificationScriptSchema))), ...errors(400, 415, 422) } },
      get: { summary: 'The pending scripted steps', parameters: [pathDomain], responses: { ...ok('Scripts', fromZod(z.array(verificationScriptSchema))), ...errors(422) } },
      delete: { summary: 'Drop the scripts of a domain', parameters: [pathDomain, q('team_id', false, 'Only this team\'s script')], responses: { ...ok('Cleared', { type: 'null' }), ...errors(404, 422) } },
    },
    '/sandbox/webhooks': {
      get: { summary: 'Webhooks', responses: ok('Webhooks', fromZod(z.array(webhookSchema))) },
      post: { summary: 'Add a webhook', requestBody: json(schema(webhookRequestSchema)), responses: { ...ok('Created (with its attempts, none yet)', fromZod(webhookDetailSchema), '201'), ...errors(400, 415, 422) } },
    },
    '/sandbox/webhooks/{id}': {
      get: { summary: 'A webhook with its latest attempts', parameters: [pathId], responses: { ...ok('The webhook', fromZod(webhookDetailSchema)), ...errors(404) } },
      delete: { summary: 'Delete a webhook', parameters: [pathId], responses: { ...ok('Deleted', { type: 'null' }), ...errors(404, 409) } },
    },
    '/sandbox/webhooks/{id}/attempts': { get: { summary: 'Delivery attempts, newest first', parameters: [pathId, { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }], responses: { ...ok('Attempts', fromZod(z.array(webhookAttemptSchema))), ...errors(400, 404) } } },
  };
}

/** /sandbox emails, wait, driving, rules, chaos, reset, teams and live events (CONTRACT §6, §8). */
function emailAndScenarioPaths(): Record<string, unknown> {
  const q = (name: string, description: string, schema: unknown = str, required = false) => ({ name, in: 'query', required, schema, description });
  const bool = { type: 'string', enum: ['true', 'false'] };
  const int = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum });
  const pathId = { name: 'id', in: 'path', required: true, schema: str, description: 'Email id' };
  const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
  const list = (items: unknown) => ({ type: 'array', items });
  const summary = fromZod(sandboxEmailSummarySchema);
  const view = fromZod(sandboxEmailSchema);
  const ruleOut = fromZod(ruleSchema);
  const chaosOut = fromZod(chaosSettingsSchema);
  const delivery = fromZod(deliveryStateSchema);
  const page = fromZod(sandboxEmailListSchema);
  const op = (o: Record<string, unknown>) => ({ security: [], ...o });
  const teamQ = q('team_id', 'Only this team');
  return {
    '/sandbox/emails': {
      get: op({ summary: 'Every team\'s emails, newest first', parameters: [teamQ, q('page', 'From 1'), q('limit', '1–100'), q('search', 'Subject, recipients or sender'), q('from', 'Sender substring'), q('to', 'Recipient substring'), q('subject', 'Subject substring'), q('status', 'One or a comma list'), q('has_attachment', '', bool), q('is_read', '', bool), q('start_date', 'ISO 8601'), q('end_date', 'ISO 8601'), q('q', 'The search language: from: to: cc: subject: tag: status: is: has: before: after: larger: smaller: header:, quoted phrases, - negates (README)')], responses: { ...ok('A page of emails', page), ...errors(400) } }),
      delete: op({ summary: 'Delete every email (or one team\'s)', parameters: [teamQ], responses: { ...ok('Deleted', fromZod(clearedEmailsSchema)), ...errors(400, 415) } }),
    },
    '/sandbox/emails/wait': { get: op({
      summary: 'Long poll until count matching emails exist (none=true: until the timeout, 409 if one arrives)',
      parameters: [q('to', 'Address or * glob over any recipient'), q('subject', 'Case-insensitive substring'), teamQ, q('since', 'Email id or ISO time'), q('count', '1–100, default 1', int(1, 100)), q('none', 'Expect no matching email', bool), q('timeout_ms', 'Default 10000, at most 300000', int(0, 300_000))],
      responses: { ...ok('Exactly count emails, oldest first', list(view)), '408': { description: 'Timed out: what was searched for, matched and seen', content: { 'application/json': { schema: envelope(fromZod(waitTimeoutSchema)) } } }, '409': { description: 'none=true and a matching email arrived (in data)', content: { 'application/json': { schema: envelope(view) } } }, ...errors(400) },
    }) },
    '/sandbox/emails/{id}': {
      get: op({ summary: 'The sandbox view of an email', parameters: [pathId], responses: { ...ok('The email', view), ...errors(404) } }),
      patch: op({ summary: 'Mark read or unread', parameters: [pathId], requestBody: json(schema(markReadRequestSchema)), responses: { ...ok('The email', summary), ...errors(400, 404, 415, 422) } }),
      delete: op({ summary: 'Delete an email', parameters: [pathId], responses: { ...ok('Deleted', fromZod(deletedEmailSchema)), ...errors(404, 415) } }),
    },
    '/sandbox/emails/{id}/release': { post: op({
      summary: 'Send the stored message to real recipients through --relay, with Resent-* headers (recipients must match --relay-allow)', parameters: [pathId],
      requestBody: json(fromZod(releaseRequestSchema, 'input')),
      responses: { ...ok('What the relay answered', fromZod(releaseResultSchema)), ...errors(400, 403, 404, 409, 415, 422, 502) },
    }) },
    '/sandbox/relay': { get: op({ summary: 'Whether release is set up (--relay), where it goes and to whom it may', responses: ok('Relay settings, without credentials', fromZod(relayInfoSchema)) }) },
    '/metrics': { get: op({ summary: 'Prometheus metrics (text exposition format 0.0.4); Host and --ui-auth rules of /sandbox', responses: { '200': { description: 'text/plain; version=0.0.4', content: { 'text/plain': { schema: str } } }, ...errors(403) } }) },
    '/docs': { get: op({ summary: 'This document, rendered by Swagger UI (served by sendbox itself)', responses: { '200': { description: 'HTML', content: { 'text/html': { schema: str } } } } }) },
    '/sandbox/emails/{id}/raw': { get: op({ summary: 'The raw message (.eml)', parameters: [pathId], responses: { '200': { description: 'message/rfc822', content: { 'message/rfc822': { schema: str } } }, ...errors(404) } }) },
    '/sandbox/emails/{id}/attachments/{index}': { get: op({ summary: 'Download an attachment (0-based)', parameters: [pathId, { name: 'index', in: 'path', required: true, schema: int(0, 9999) }], responses: { '200': { description: 'The attachment, Content-Disposition: attachment' }, ...errors(400, 404) } }) },
    '/sandbox/emails/{id}/events': { post: op({
      summary: 'Force an outcome, an open or a click (recipient state machine)', parameters: [pathId],
      requestBody: json(schema(forceEventRequestSchema)),
      responses: { ...ok('The email', view), ...errors(400, 404, 409, 415, 422) },
    }) },
    '/sandbox/rules': {
      get: op({ summary: 'Rules, oldest first', responses: ok('Rules', list(ruleOut)) }),
      post: op({ summary: 'Add a rule', requestBody: json(schema(ruleRequestSchema)), responses: { ...ok('Created', ruleOut, '201'), ...errors(400, 415, 422) } }),
      delete: op({ summary: 'Delete every rule', responses: { ...ok('Deleted', fromZod(rulesClearedSchema)), ...errors(415) } }),
    },
    '/sandbox/rules/{id}': {
      get: op({ summary: 'A rule', parameters: [{ name: 'id', in: 'path', required: true, schema: int(1, Number.MAX_SAFE_INTEGER) }], responses: { ...ok('The rule', ruleOut), ...errors(404) } }),
      delete: op({ summary: 'Delete a rule', parameters: [{ name: 'id', in: 'path', required: true, schema: int(1, Number.MAX_SAFE_INTEGER) }], responses: { ...ok('Deleted', { type: 'null' }), ...errors(404, 415) } }),
    },
    '/sandbox/delivery': { get: op({ summary: 'Is the delivery clock paused?', responses: ok('State', delivery) }) },
    '/sandbox/delivery/pause': { post: op({ summary: 'Pause delivery: emails wait in queued', responses: { ...ok('State', delivery), ...errors(415) } }) },
    '/sandbox/delivery/resume': { post: op({ summary: 'Resume delivery', responses: { ...ok('State', delivery), ...errors(415) } }) },
    '/sandbox/chaos': {
      get: op({ summary: 'Chaos rates and seed', responses: ok('Settings', chaosOut) }),
      put: op({ summary: 'Change rates and/or seed (omitted fields stay)', requestBody: json(schema(chaosRequestSchema)), responses: { ...ok('Settings', chaosOut), ...errors(400, 415, 422) } }),
    },
    '/sandbox/reset': { post: op({ summary: 'Empty emails, rules and domains (of one team)', requestBody: { required: false, content: { 'application/json': { schema: schema(resetRequestSchema) } } }, responses: { ...ok('What went', fromZod(resetResultSchema)), ...errors(400, 415, 422) } }) },
    '/sandbox/teams': { get: op({ summary: 'Mailboxes: teams with mail or keys', responses: ok('Teams', fromZod(z.array(mailboxSchema))) }) },
    '/sandbox/events': { get: op({ summary: 'Server-Sent Events: email.created, email.updated, email.deleted, emails.cleared, domain.*', parameters: [teamQ], responses: { '200': { description: 'text/event-stream; each event is `event: <type>` and `data: {"type","data"}`', content: { 'text/event-stream': { schema: str } } }, ...errors(400) } }) },
  };
}

/** Tags, bulk actions (issue 14, CONTRACT §9). */
function tagAndBulkPaths(): Record<string, unknown> {
  const op = (o: Record<string, unknown>) => ({ security: [], ...o });
  const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
  const tag = { name: 'tag', in: 'path', required: true, schema: str };
  const teamQ = { name: 'team_id', in: 'query', required: false, schema: str };
  return {
    '/sandbox/emails/{id}/tags': { put: op({ summary: 'Replace an email\'s tags', parameters: [{ name: 'id', in: 'path', required: true, schema: str }], requestBody: json(schema(setTagsRequestSchema)), responses: { ...ok('The email (list shape) with its tags', fromZod(sandboxEmailSummarySchema)), ...errors(400, 404, 415, 422) } }) },
    '/sandbox/emails/bulk': { post: op({
      summary: 'One action on many emails, in one transaction and one emails.changed event',
      requestBody: json(schema(bulkRequestSchema)),
      responses: { ...ok('How many emails matched', fromZod(bulkResultSchema)), ...errors(400, 415, 422) },
    }) },
    '/sandbox/tags': { get: op({ summary: 'Tags in use with their email counts, most used first', parameters: [teamQ], responses: { ...ok('Tags', fromZod(z.array(tagCountSchema))), ...errors(400) } }) },
    '/sandbox/tags/{tag}': {
      put: op({ summary: 'Rename a tag on every email (of team_id)', parameters: [tag], requestBody: json(schema(renameTagRequestSchema)), responses: { ...ok('Emails changed', fromZod(tagRenamedSchema)), ...errors(400, 415, 422) } }),
      delete: op({ summary: 'Remove a tag from every email (of team_id)', parameters: [tag, teamQ], responses: { ...ok('Emails changed', fromZod(tagRemovedSchema)), ...errors(400, 415, 422) } }),
    },
  };
}

/** The mail-quality lab (issue 13, CONTRACT §9). */
function labPaths(): Record<string, unknown> {
  const op = (o: Record<string, unknown>) => ({ security: [], ...o });
  const pathId = { name: 'id', in: 'path', required: true, schema: str, description: 'Email id' };
  return {
    '/sandbox/emails/{id}/html-check': { get: op({ summary: 'HTML and CSS client compatibility (caniemail data bundled), worst features first', parameters: [pathId], responses: { ...ok('The check', fromZod(htmlCheckResultSchema)), ...errors(404) } }) },
    '/sandbox/emails/{id}/spam': { get: op({ summary: 'Spam score from spamd (--spamassassin) or rspamd (--rspamd); says so when none is configured; cached per email', parameters: [pathId], responses: { ...ok('The score', fromZod(spamResultSchema)), ...errors(404, 422, 502) } }) },
    '/sandbox/emails/{id}/link-check': { post: op({ summary: 'Fetch every link and image (HEAD, then GET), bounded: max_links, timeout, 5 redirects, 4 at a time, no cookies; needs --link-check', parameters: [pathId], requestBody: { required: false, content: { 'application/json': { schema: schema(linkCheckRequestSchema) } } }, responses: { ...ok('Per link', fromZod(linkCheckResultSchema)), ...errors(400, 403, 404, 415, 422) } }) },
    '/sandbox/emails/{id}/auth': { get: op({ summary: 'DKIM, SPF and DMARC as a receiver would see them (mailauth), plus the bulk-sender unsubscribe rules', parameters: [pathId], responses: { ...ok('The verdicts', fromZod(authResultSchema)), ...errors(404) } }) },
  };
}
