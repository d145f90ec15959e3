import { z } from 'zod';
import { sendRequestSchema, listQuerySchema, EMAIL_STATUSES } from '../../shared/email.js';
import { addDomainSchema, DOMAIN_STATUSES } from '../../shared/domain.js';
import { labPaths } from './lab/openapi.js';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * Response shapes are written out here once, from the shared types' field lists.
 */
const schema = (s: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const str = { type: 'string' };
const num = { type: 'number' };
const nullableStr = { type: ['string', 'null'] };
const strArray = { type: 'array', items: str };

const emailLog = {
  type: 'object',
  properties: {
    ...Object.fromEntries(['email_id', 'team_id', 'from', 'to', 'subject', 'response', 'code', 'mx_hostname', 'queued_at', 'recipient'].map((k) => [k, str])),
    status: { type: 'string', enum: [...EMAIL_STATUSES] },
    time: num,
    recipient_type: { type: 'string', enum: ['to', 'cc', 'bcc'] },
  },
};
const email = {
  type: 'object',
  properties: {
    id: str, message_id: str, from_address: str, to_addresses: strArray, subject: str, size: num, inline: num, attachments: num,
    api_key_id: num, snippet: str, created_at: { type: 'string', format: 'date-time' }, team_id: str,
    metadata: { type: 'object', properties: { from: str, to: strArray, cc: { type: ['array', 'null'], items: str }, bcc: { type: ['array', 'null'], items: str }, reply_to: nullableStr, text: str, html: str } },
    opened_at: nullableStr, delivered_at: nullableStr, click_count: num, status: { type: 'string', enum: [...EMAIL_STATUSES] }, credits_used: num,
    logs: { type: 'array', items: { $ref: '#/components/schemas/EmailLog' } },
  },
};
const dnsRecord = { type: 'object', properties: { name: str, record_type: str, value: str, ttl: str, status: str } };
const domain = {
  type: 'object',
  properties: {
    id: str, value: str, team_id: str, status: { type: 'string', enum: [...DOMAIN_STATUSES] }, identity_type: { const: 'domain' },
    created_at: str, verified_at: nullableStr, last_status_checked_at: str,
    attributes: { type: 'object', properties: {
      dkim_attributes: { $ref: '#/components/schemas/DnsRecord' },
      mail_from_attributes: { type: 'array', items: { $ref: '#/components/schemas/DnsRecord' } },
      dmarc_attributes: { $ref: '#/components/schemas/DnsRecord' },
      verification_status: { type: 'string', enum: [...DOMAIN_STATUSES] }, verified_for_sending_status: { type: 'boolean' }, error_type: str,
    } },
  },
};
const error = { type: 'object', required: ['status', 'message'], properties: { status: num, message: str, errors: { type: 'array', items: { type: 'object', properties: { field: str, message: str } } }, success: { const: false }, timestamp: str } };

const envelope = (data: unknown) => ({ type: 'object', properties: { status: num, message: str, data } });
const ok = (description: string, data: unknown, code = '200') => ({ [code]: { description, content: { 'application/json': { schema: envelope(data) } } } });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
const domainParam = (required: boolean) => ({ name: 'domain', in: 'query', required, schema: str, description: 'Domain name; case-insensitive, a trailing dot is ignored' });

export function openapiDocument(): Record<string, unknown> {
  const listParams = Object.entries((schema(listQuerySchema) as { properties: Record<string, unknown> }).properties).map(([name, s]) => ({ name, in: 'query', required: false, schema: s }));
  return {
    openapi: '3.1.0',
    info: { title: 'sendbox', version: '1', description: 'Local mail sandbox: the provider API /v1, and the /sandbox control API.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { SendRequest: schema(sendRequestSchema), AddDomain: schema(addDomainSchema), Email: email, EmailLog: emailLog, Domain: domain, DnsRecord: dnsRecord, Error: error },
      responses: Object.fromEntries([400, 401, 403, 404, 405, 409, 413, 415, 422, 429].map((c) => [`E${c}`, { description: `Error ${c}`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }])),
    },
    paths: {
      '/v1/send': { post: {
        summary: 'Send an email', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SendRequest' } } } },
        responses: { '200': { description: 'Accepted', content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true }, data: { type: 'array', items: { type: 'object', properties: { message: str, email_id: str } } }, timestamp: str } } } } }, ...errors(400, 401, 403, 413, 415, 422, 429) },
      } },
      '/v1/emails': { get: { summary: 'List emails, newest first', parameters: listParams, responses: { ...ok('A page of emails', { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Email' } }, pagination: { type: 'object', properties: { page: num, total_records: num, total_pages: num, limit: num } } } }), ...errors(400, 401) } } },
      '/v1/emails/{email_id}': { get: { summary: 'Get an email with its logs', parameters: [{ name: 'email_id', in: 'path', required: true, schema: str }], responses: { ...ok('The email', { $ref: '#/components/schemas/Email' }), ...errors(401, 404) } } },
      '/v1/emails/{email_id}/logs': { get: { summary: 'Delivery log, chronological (includes complaint entries)', parameters: [{ name: 'email_id', in: 'path', required: true, schema: str }], responses: { ...ok('Log entries', { type: 'array', items: { $ref: '#/components/schemas/EmailLog' } }), ...errors(401, 404) } } },
      '/v1/domains': {
        post: { summary: 'Add a domain', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AddDomain' } } } }, responses: { ...ok('Created', { $ref: '#/components/schemas/Domain' }, '201'), ...errors(400, 401, 409, 415, 422) } },
        get: { summary: 'Get a domain, or list all without ?domain=', parameters: [domainParam(false)], responses: { ...ok('The domain (or an array of domains)', { oneOf: [{ $ref: '#/components/schemas/Domain' }, { type: 'array', items: { $ref: '#/components/schemas/Domain' } }] }), ...errors(401, 404) } },
        delete: { summary: 'Delete a domain', parameters: [domainParam(true)], responses: { ...ok('Deleted', { type: 'null' }), ...errors(400, 401, 404) } },
      },
      '/v1/domains/verify': { post: { summary: 'Check the DNS records now', parameters: [domainParam(true)], responses: { ...ok('The domain with updated statuses', { $ref: '#/components/schemas/Domain' }), ...errors(400, 401, 404) } } },
      ...sandboxPaths,
    },
  };
}

/** Paths of the /sandbox control API; its modules add themselves here as they grow. */
export const sandboxPaths: Record<string, unknown> = {
  '/sandbox/health': { get: { summary: 'Health', security: [], responses: { '200': { description: 'OK' } } } },
  ...domainAndWebhookPaths(),
  ...emailAndScenarioPaths(),
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
  const any = { type: 'object' };
  const statusEnum = { type: 'string', enum: ['success', 'pending', 'failed', 'temporary_failure'] };
  const recordEnum = { type: 'string', enum: ['success', 'pending', 'failed'] };
  const step = { type: 'object', properties: { status: statusEnum, records: { type: 'object', properties: Object.fromEntries(['dkim', 'spf', 'bounce', 'dmarc'].map((k) => [k, recordEnum])) }, error_type: { type: 'string', enum: ['HOST_NOT_FOUND', 'TYPE_NOT_FOUND', 'INVALID_VALUE', 'DNS_SERVER_ERROR', 'SERVICE_ERROR'] } } };
  const script = { ...step, properties: { ...step.properties, sequence: { type: 'array', items: { oneOf: [statusEnum, step] }, minItems: 1, maxItems: 100 }, team_id: str } };
  const domainRef = { $ref: '#/components/schemas/Domain' };
  return {
    '/sandbox/domains': {
      get: { summary: 'Every team\'s domains', parameters: [q('team_id', false, 'Only this team'), q('domain', false, 'Only this name')], responses: { ...ok('Domains', { type: 'array', items: domainRef }), ...errors(422) } },
      post: { summary: 'Add a domain for a team', requestBody: json({ type: 'object', required: ['team_id', 'value'], properties: { team_id: str, value: str } }), responses: { ...ok('Created', domainRef, '201'), ...errors(400, 409, 415, 422) } },
      delete: { summary: 'Delete a team\'s domain', parameters: [teamQ, domainQ], responses: { ...ok('Deleted', { type: 'null' }), ...errors(400, 404) } },
    },
    '/sandbox/domains/verify': { post: { summary: 'Check a team\'s domain now', parameters: [teamQ, domainQ], responses: { ...ok('The domain', domainRef), ...errors(400, 404) } } },
    '/sandbox/domains/{domain}/verification': {
      put: { summary: 'Script the next verification check(s)', parameters: [pathDomain], requestBody: json(script), responses: { ...ok('The pending scripts of the domain', { type: 'array', items: any }), ...errors(400, 415, 422) } },
      get: { summary: 'The pending scripted steps', parameters: [pathDomain], responses: { ...ok('Scripts', { type: 'array', items: any }), ...errors(422) } },
      delete: { summary: 'Drop the scripts of a domain', parameters: [pathDomain, q('team_id', false, 'Only this team\'s script')], responses: { ...ok('Cleared', { type: 'null' }), ...errors(404, 422) } },
    },
    '/sandbox/webhooks': {
      get: { summary: 'Webhooks', responses: ok('Webhooks', { type: 'array', items: any }) },
      post: { summary: 'Add a webhook', requestBody: json({ type: 'object', required: ['url'], properties: { url: str, secret: str, events: strArray } }), responses: { ...ok('Created', any, '201'), ...errors(400, 415, 422) } },
    },
    '/sandbox/webhooks/{id}': {
      get: { summary: 'A webhook with its latest attempts', parameters: [pathId], responses: { ...ok('The webhook', any), ...errors(404) } },
      delete: { summary: 'Delete a webhook', parameters: [pathId], responses: { ...ok('Deleted', { type: 'null' }), ...errors(404, 409) } },
    },
    '/sandbox/webhooks/{id}/attempts': { get: { summary: 'Delivery attempts, newest first', parameters: [pathId, { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }], responses: { ...ok('Attempts', { type: 'array', items: any }), ...errors(400, 404) } } },
  };
}

/** /sandbox emails, wait, driving, rules, chaos, reset, teams and live events (CONTRACT §6, §8). */
function emailAndScenarioPaths(): Record<string, unknown> {
  const q = (name: string, description: string, schema: unknown = str, required = false) => ({ name, in: 'query', required, schema, description });
  const bool = { type: 'string', enum: ['true', 'false'] };
  const int = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum });
  const pathId = { name: 'id', in: 'path', required: true, schema: str, description: 'Email id' };
  const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
  const open = { type: 'object', additionalProperties: true };
  const list = (items: unknown) => ({ type: 'array', items });
  const summary = { allOf: [{ $ref: '#/components/schemas/Email' }, { type: 'object', properties: { is_read: { type: 'boolean' }, source: { type: 'string', enum: ['api', 'smtp'] }, flags: open } }] };
  const view = { allOf: [summary, { type: 'object', properties: {
    raw: str,
    headers: list({ type: 'object', properties: { name: str, value: str } }),
    files: list({ type: 'object', properties: { index: num, filename: str, content_type: str, size: num, content_id: nullableStr, inline: { type: 'boolean' }, url: str } }),
    links: list({ type: 'object', properties: { href: str, text: str } }),
    codes: list({ type: 'object', properties: { value: str } }),
    outcomes: list({ type: 'object', properties: { recipient: str, state: str, decided_by: { type: 'string', description: 'rule:<id>, header, plus-tag, simulator, invalid-domain, chaos, default or forced' } } }),
    checks: list({ type: 'object', properties: { id: str, severity: { type: 'string', enum: ['error', 'warning', 'info'] }, message: str } }),
    events: list({ type: 'object', properties: { type: { type: 'string', enum: ['open', 'click'] }, recipient: str, url: nullableStr, at: str } }),
  } }] };
  const outcomes = ['delivered', 'deferred', 'bounced', 'failed', 'complaint'];
  const rule = { type: 'object', required: ['action'], properties: {
    match: { type: 'object', additionalProperties: false, properties: { recipient: { type: 'string', description: 'glob: * and ?, case-insensitive' }, from: { type: 'string', description: 'glob' }, subject: { type: 'string', description: 'case-insensitive substring' }, header: { type: 'object', required: ['name'], properties: { name: str, value: { type: 'string', description: 'glob; absent: presence is enough' } } }, team_id: str } },
    action: { oneOf: [
      { type: 'object', required: ['outcome'], properties: { outcome: { type: 'string', enum: outcomes }, code: { type: ['string', 'integer'] }, response: str, delay_ms: int(0, 3_600_000) } },
      { type: 'object', required: ['http_status'], properties: { http_status: int(400, 599), retry_after: int(0, 86_400), message: str } },
      { type: 'object', required: ['smtp_stage'], properties: { smtp_stage: { type: 'string', enum: ['mail', 'rcpt', 'data'] }, code: { ...int(400, 599), description: 'required unless disconnect' }, message: str, delay_ms: int(0, 60_000), disconnect: { type: 'boolean', description: 'drop the connection instead of replying' } } },
    ] },
    times: { type: ['integer', 'null'], minimum: 1 },
    nth: { type: ['integer', 'null'], minimum: 1 },
  } };
  const ruleOut = { allOf: [rule, { type: 'object', properties: { id: num, uses: num, matches: num, active: { type: 'boolean' }, created_at: str } }] };
  const chaos = { type: 'object', properties: { rates: { type: 'object', properties: Object.fromEntries(['bounced', 'failed', 'complaint', 'deferred'].map((o) => [o, { type: 'number', minimum: 0, maximum: 1 }])) }, seed: int(0, 4_294_967_295) } };
  const delivery = { type: 'object', properties: { paused: { type: 'boolean' } } };
  const page = { type: 'object', properties: { data: list(summary), pagination: { type: 'object', properties: { page: num, total_records: num, total_pages: num, limit: num } } } };
  const op = (o: Record<string, unknown>) => ({ security: [], ...o });
  const teamQ = q('team_id', 'Only this team');
  return {
    '/sandbox/emails': {
      get: op({ summary: 'Every team\'s emails, newest first', parameters: [teamQ, q('page', 'From 1'), q('limit', '1–100'), q('search', 'Subject, recipients or sender'), q('from', 'Sender substring'), q('to', 'Recipient substring'), q('subject', 'Subject substring'), q('status', 'One or a comma list'), q('has_attachment', '', bool), q('is_read', '', bool), q('start_date', 'ISO 8601'), q('end_date', 'ISO 8601')], responses: { ...ok('A page of emails', page), ...errors(400) } }),
      delete: op({ summary: 'Delete every email (or one team\'s)', parameters: [teamQ], responses: { ...ok('Deleted', { type: 'object', properties: { team_id: nullableStr, deleted: num } }), ...errors(400, 415) } }),
    },
    '/sandbox/emails/wait': { get: op({
      summary: 'Long poll until count matching emails exist (none=true: until the timeout, 409 if one arrives)',
      parameters: [q('to', 'Address or * glob over any recipient'), q('subject', 'Case-insensitive substring'), teamQ, q('since', 'Email id or ISO time'), q('count', '1–100, default 1', int(1, 100)), q('none', 'Expect no matching email', bool), q('timeout_ms', 'Default 10000, at most 300000', int(0, 300_000))],
      responses: { ...ok('Exactly count emails, oldest first', list(view)), '408': { description: 'Timed out: what was searched for, matched and seen' }, '409': { description: 'none=true and a matching email arrived (in data)' }, ...errors(400) },
    }) },
    '/sandbox/emails/{id}': {
      get: op({ summary: 'The sandbox view of an email', parameters: [pathId], responses: { ...ok('The email', view), ...errors(404) } }),
      patch: op({ summary: 'Mark read or unread', parameters: [pathId], requestBody: json({ type: 'object', required: ['read'], properties: { read: { type: 'boolean' } } }), responses: { ...ok('The email', summary), ...errors(400, 404, 415, 422) } }),
      delete: op({ summary: 'Delete an email', parameters: [pathId], responses: { ...ok('Deleted', { type: 'object', properties: { id: str, team_id: str } }), ...errors(404, 415) } }),
    },
    '/sandbox/emails/{id}/raw': { get: op({ summary: 'The raw message (.eml)', parameters: [pathId], responses: { '200': { description: 'message/rfc822', content: { 'message/rfc822': { schema: str } } }, ...errors(404) } }) },
    '/sandbox/emails/{id}/attachments/{index}': { get: op({ summary: 'Download an attachment (0-based)', parameters: [pathId, { name: 'index', in: 'path', required: true, schema: int(0, 9999) }], responses: { '200': { description: 'The attachment, Content-Disposition: attachment' }, ...errors(400, 404) } }) },
    '/sandbox/emails/{id}/events': { post: op({
      summary: 'Force an outcome, an open or a click (recipient state machine)', parameters: [pathId],
      requestBody: json({ type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['delivered', 'bounced', 'failed', 'complaint', 'open', 'click'] }, recipient: str, url: str } }),
      responses: { ...ok('The email', view), ...errors(400, 404, 409, 415, 422) },
    }) },
    '/sandbox/rules': {
      get: op({ summary: 'Rules, oldest first', responses: ok('Rules', list(ruleOut)) }),
      post: op({ summary: 'Add a rule', requestBody: json(rule), responses: { ...ok('Created', ruleOut, '201'), ...errors(400, 415, 422) } }),
      delete: op({ summary: 'Delete every rule', responses: { ...ok('Deleted', { type: 'object', properties: { deleted: num } }), ...errors(415) } }),
    },
    '/sandbox/rules/{id}': {
      get: op({ summary: 'A rule', parameters: [{ name: 'id', in: 'path', required: true, schema: num }], responses: { ...ok('The rule', ruleOut), ...errors(404) } }),
      delete: op({ summary: 'Delete a rule', parameters: [{ name: 'id', in: 'path', required: true, schema: num }], responses: { ...ok('Deleted', { type: 'null' }), ...errors(404, 415) } }),
    },
    '/sandbox/delivery': { get: op({ summary: 'Is the delivery clock paused?', responses: ok('State', delivery) }) },
    '/sandbox/delivery/pause': { post: op({ summary: 'Pause delivery: emails wait in queued', responses: { ...ok('State', delivery), ...errors(415) } }) },
    '/sandbox/delivery/resume': { post: op({ summary: 'Resume delivery', responses: { ...ok('State', delivery), ...errors(415) } }) },
    '/sandbox/chaos': {
      get: op({ summary: 'Chaos rates and seed', responses: ok('Settings', chaos) }),
      put: op({ summary: 'Change rates and/or seed (omitted fields stay)', requestBody: json(chaos), responses: { ...ok('Settings', chaos), ...errors(400, 415, 422) } }),
    },
    '/sandbox/reset': { post: op({ summary: 'Empty emails, rules and domains (of one team)', requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { team_id: str } } } } }, responses: { ...ok('What went', { type: 'object', properties: { team_id: nullableStr, emails: num, rules: num, domains: num } }), ...errors(400, 415, 422) } }) },
    '/sandbox/teams': { get: op({ summary: 'Mailboxes: teams with mail or keys', responses: ok('Teams', list({ type: 'object', properties: { team_id: str, total: num, unread: num, api_keys: list({ type: 'object', properties: { api_key_id: num, key_hint: str } }) } })) }) },
    '/sandbox/events': { get: op({ summary: 'Server-Sent Events: email.created, email.updated, email.deleted, emails.cleared, domain.*', parameters: [teamQ], responses: { '200': { description: 'text/event-stream; each event is `event: <type>` and `data: {"type","data"}`', content: { 'text/event-stream': { schema: str } } }, ...errors(400) } }) },
  };
}
