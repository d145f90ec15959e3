import { z } from 'zod';
import { sendRequestSchema, listQuerySchema, EMAIL_STATUSES } from '../../shared/email.js';
import { addDomainSchema, DOMAIN_STATUSES } from '../../shared/domain.js';

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
