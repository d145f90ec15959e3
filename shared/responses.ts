/**
 * zod schemas of what the API answers, beside the request schemas they mirror. The
 * OpenAPI document is generated from them (server/src/openapi.ts), a test checks real
 * answers against them, and a type test keeps them equal to the plain interfaces of
 * email.ts, domain.ts, errors.ts and sandbox.ts that the client and the inbox import.
 */
import { z } from 'zod';
import { EMAIL_STATUSES } from './email.js';
import { DOMAIN_STATUSES } from './domain.js';
import { BULK_ACTIONS } from './tags.js';

const iso = z.string().describe('ISO 8601 time with milliseconds');

export const emailStatusSchema = z.enum(EMAIL_STATUSES);
export const recipientTypeSchema = z.enum(['to', 'cc', 'bcc']);

export const emailLogSchema = z.strictObject({
  email_id: z.string(),
  team_id: z.string(),
  status: emailStatusSchema,
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  response: z.string(),
  code: z.string().describe('SMTP reply code, "" while processing and for complaints'),
  mx_hostname: z.string(),
  time: z.number().int().describe('Unix seconds'),
  queued_at: z.string(),
  recipient: z.string(),
  recipient_type: recipientTypeSchema,
}).meta({ id: 'EmailLog' });

export const emailMetadataSchema = z.strictObject({
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()).nullable(),
  bcc: z.array(z.string()).nullable(),
  reply_to: z.string().nullable(),
  text: z.string(),
  html: z.string(),
});

const emailShape = {
  id: z.string(),
  message_id: z.string().describe('<id>@<message host>, without angle brackets'),
  from_address: z.string(),
  to_addresses: z.array(z.string()),
  subject: z.string(),
  size: z.number().int().describe('Bytes of the raw message'),
  inline: z.number().int(),
  attachments: z.number().int(),
  api_key_id: z.number().int(),
  snippet: z.string(),
  created_at: iso,
  team_id: z.string(),
  metadata: emailMetadataSchema,
  opened_at: iso.nullable(),
  delivered_at: iso.nullable(),
  click_count: z.number().int(),
  status: emailStatusSchema,
  credits_used: z.number().int(),
};

/** An email as /v1 shows it; `logs` only on the single-email read. */
export const emailSchema = z.strictObject({ ...emailShape, logs: z.array(emailLogSchema).optional() }).meta({ id: 'Email' });

export const paginationSchema = z.strictObject({ page: z.number().int(), total_records: z.number().int(), total_pages: z.number().int(), limit: z.number().int() });

export const sendResponseSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(z.strictObject({ message: z.string().describe('250 2.0.0 Ok: queued as <id>'), email_id: z.string() })),
  timestamp: iso,
}).meta({ id: 'SendResponse' });

export const emailListSchema = z.strictObject({ data: z.array(emailSchema), pagination: paginationSchema });

export const dnsRecordSchema = z.strictObject({
  name: z.string(),
  record_type: z.enum(['TXT', 'CNAME']),
  value: z.string(),
  ttl: z.string(),
  status: z.enum(['not_started', 'pending', 'success', 'failed', '']),
}).meta({ id: 'DnsRecord' });

export const domainSchema = z.strictObject({
  id: z.string(),
  value: z.string(),
  team_id: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  identity_type: z.literal('domain'),
  created_at: iso,
  verified_at: iso.nullable(),
  attributes: z.strictObject({
    dkim_attributes: dnsRecordSchema,
    mail_from_attributes: z.tuple([dnsRecordSchema, dnsRecordSchema]),
    dmarc_attributes: dnsRecordSchema,
    verification_status: z.enum(DOMAIN_STATUSES),
    verified_for_sending_status: z.boolean(),
    error_type: z.enum(['', 'HOST_NOT_FOUND', 'TYPE_NOT_FOUND', 'INVALID_VALUE', 'DNS_SERVER_ERROR', 'SERVICE_ERROR']),
  }),
  last_status_checked_at: iso,
}).meta({ id: 'Domain' });

export const errorBodySchema = z.strictObject({
  status: z.number().int(),
  message: z.string(),
  errors: z.array(z.strictObject({ field: z.string().describe('Dotted path, e.g. to.1'), message: z.string() })).optional(),
  success: z.literal(false).optional().describe('/v1/send only'),
  timestamp: iso.optional().describe('/v1/send only'),
}).meta({ id: 'Error' });

// ---- /sandbox ----

const summaryShape = {
  ...emailShape,
  is_read: z.boolean(),
  source: z.enum(['api', 'smtp']),
  flags: z.record(z.string(), z.unknown()).describe('e.g. {"unverified_sender": true}'),
  tags: z.array(z.string()).describe('X-Tags, tagging rules, PUT …/tags and bulk actions'),
};

/** A list item of `GET /sandbox/emails`. */
export const sandboxEmailSummarySchema = z.strictObject({ ...summaryShape, logs: z.array(emailLogSchema).optional() }).meta({ id: 'SandboxEmailSummary' });

export const sandboxEmailListSchema = z.strictObject({ data: z.array(sandboxEmailSummarySchema), pagination: paginationSchema });

/** `GET /sandbox/emails/{id}`: the full read with what a test needs from the message. */
export const sandboxEmailSchema = z.strictObject({
  ...summaryShape,
  logs: z.array(emailLogSchema),
  raw: z.string(),
  headers: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  files: z.array(z.strictObject({ index: z.number().int(), filename: z.string(), content_type: z.string(), size: z.number().int(), content_id: z.string().nullable(), inline: z.boolean(), url: z.string() })),
  links: z.array(z.strictObject({ href: z.string(), text: z.string() })),
  codes: z.array(z.strictObject({ value: z.string() })),
  outcomes: z.array(z.strictObject({
    recipient: z.string(),
    state: z.enum(['processing', 'queued', 'delivered', 'bounced', 'failed', 'complaint']),
    decided_by: z.string().describe('rule:<id>, header, plus-tag, simulator, invalid-domain, chaos, default or forced'),
  })),
  checks: z.array(z.strictObject({ id: z.string(), severity: z.enum(['error', 'warning', 'info']), message: z.string() })),
  events: z.array(z.strictObject({ type: z.enum(['open', 'click']), recipient: z.string(), url: z.string().nullable(), at: iso })),
}).meta({ id: 'SandboxEmail' });

export const mailboxSchema = z.strictObject({
  team_id: z.string(),
  total: z.number().int(),
  unread: z.number().int(),
  api_keys: z.array(z.strictObject({ api_key_id: z.number().int(), key_hint: z.string() })),
}).meta({ id: 'Mailbox' });

/** The success envelope of /v1 (except send) and /sandbox: `{status, message, data}`. */
export const envelopeOf = <T extends z.ZodType>(data: T) => z.strictObject({ status: z.number().int(), message: z.string(), data });

// ---- rules, delivery clock, chaos, reset (CONTRACT §6, §8) ----

const ruleMatchSchema = z.strictObject({
  recipient: z.string().optional().describe('glob: * and ?, case-insensitive'),
  from: z.string().optional().describe('glob'),
  subject: z.string().optional().describe('case-insensitive substring'),
  header: z.strictObject({ name: z.string(), value: z.string().optional().describe('glob; absent: presence is enough') }).optional(),
  team_id: z.string().optional(),
});

const ruleActionSchema = z.union([
  z.strictObject({ outcome: z.enum(['delivered', 'deferred', 'bounced', 'failed', 'complaint']), code: z.string().optional(), response: z.string().optional(), delay_ms: z.number().int().optional() }),
  z.strictObject({ http_status: z.union([z.literal(429), z.literal(500), z.literal(503)]), retry_after: z.number().int().optional(), message: z.string().optional() }),
  z.strictObject({ smtp_stage: z.enum(['mail', 'rcpt', 'data']), code: z.number().int().optional().describe('required unless disconnect'), message: z.string().optional(), delay_ms: z.number().int().optional(), disconnect: z.boolean().optional() }),
  z.strictObject({ tags: z.array(z.string()).describe('a tagging rule: tags matching emails, decides nothing else') }),
]);

export const ruleSchema = z.strictObject({
  id: z.number().int(),
  match: ruleMatchSchema,
  action: ruleActionSchema,
  times: z.number().int().nullable(),
  nth: z.number().int().nullable(),
  uses: z.number().int(),
  matches: z.number().int(),
  active: z.boolean(),
  created_at: iso,
}).meta({ id: 'Rule' });

export const deliveryStateSchema = z.strictObject({ paused: z.boolean() });

export const chaosSettingsSchema = z.strictObject({
  rates: z.strictObject({ bounced: z.number(), failed: z.number(), complaint: z.number(), deferred: z.number() }),
  seed: z.number().int(),
});

export const resetResultSchema = z.strictObject({ team_id: z.string().nullable(), emails: z.number().int(), rules: z.number().int(), domains: z.number().int() });

// ---- webhooks ----

export const webhookSchema = z.strictObject({
  id: z.string().describe('`flag` for the webhook of --webhook-url'),
  url: z.string(),
  events: z.array(z.string()).nullable(),
  secret: z.string(),
  secret_source: z.enum(['webhook', 'flag', 'generated']),
  source: z.enum(['api', 'flag']),
  created_at: iso,
  deliveries: z.strictObject({ pending: z.number().int(), delivered: z.number().int(), failed: z.number().int() }),
}).meta({ id: 'Webhook' });

export const webhookAttemptSchema = z.strictObject({
  id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  created_at: iso,
  success: z.boolean(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response: z.string().nullable(),
  duration_ms: z.number(),
  delivery_state: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: iso.nullable(),
}).meta({ id: 'WebhookAttempt' });

export const webhookDetailSchema = z.strictObject({ ...webhookSchema.shape, attempts: z.array(webhookAttemptSchema) });

// ---- domain scripts, wait timeouts, deletions ----

const scriptedStatusSchema = z.enum(['success', 'pending', 'failed', 'temporary_failure']);
const scriptStepSchema = z.strictObject({
  status: scriptedStatusSchema.optional(),
  records: z.strictObject({ dkim: z.enum(['success', 'pending', 'failed']).optional(), spf: z.enum(['success', 'pending', 'failed']).optional(), bounce: z.enum(['success', 'pending', 'failed']).optional(), dmarc: z.enum(['success', 'pending', 'failed']).optional() }).optional(),
  error_type: z.enum(['HOST_NOT_FOUND', 'TYPE_NOT_FOUND', 'INVALID_VALUE', 'DNS_SERVER_ERROR', 'SERVICE_ERROR']).optional(),
});

export const verificationScriptSchema = z.strictObject({
  domain: z.string(),
  team_id: z.string().nullable().describe('null: the first team that checks this domain'),
  steps: z.array(scriptStepSchema).describe('still to be consumed, the next one first'),
  created_at: iso,
}).meta({ id: 'VerificationScript' });

/** `data` of a 408 from wait. */
export const waitTimeoutSchema = z.strictObject({
  searched: z.strictObject({ to: z.string().nullable(), subject: z.string().nullable(), team_id: z.string().nullable(), since: z.string().nullable(), count: z.number().int(), timeout_ms: z.number().int() }),
  matched: z.number().int(),
  seen: z.number().int(),
  recent: z.array(z.strictObject({ id: z.string(), to: z.array(z.string()), subject: z.string() })),
});

export const deletedEmailSchema = z.strictObject({ id: z.string(), team_id: z.string() });
export const clearedEmailsSchema = z.strictObject({ team_id: z.string().nullable(), deleted: z.number().int() });
export const rulesClearedSchema = z.strictObject({ deleted: z.number().int() });

/** `GET /sandbox/health`: up, how many emails, the delivery clock, the retention in force. */
export const healthSchema = z.strictObject({
  ok: z.literal(true),
  emails: z.number().int(),
  paused: z.boolean(),
  retention: z.strictObject({ max_emails: z.number().int(), max_age: z.string().nullable().describe('--max-age as given, e.g. 7d') }),
});

// ---- tags and bulk actions (issue 14) ----

export const bulkResultSchema = z.strictObject({ action: z.enum(BULK_ACTIONS), count: z.number().int().describe('The emails matched') });
export const tagCountSchema = z.strictObject({ tag: z.string(), count: z.number().int() });
export const tagRenamedSchema = z.strictObject({ tag: z.string(), name: z.string(), count: z.number().int().describe('Emails changed') });
export const tagRemovedSchema = z.strictObject({ tag: z.string(), count: z.number().int().describe('Emails changed') });
