import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Email, EmailLogEntry, Pagination, SendResponse } from './email.js';
import type { DnsRecord, DomainIdentity } from './domain.js';
import type { ErrorBody } from './errors.js';
import type { ChaosSettings, DeliveryState, Mailbox, ResetResult, Rule, SandboxEmail, SandboxEmailList, SandboxEmailSummary } from './sandbox.js';
import type { Webhook, WebhookAttempt, WebhookDetail } from './webhooks.js';
import type { VerificationScript } from './domain-scripts.js';
import type { WaitTimeout } from './sandbox.js';
import type * as r from './responses.js';

// Checked by tsc (npm run typecheck): a field added to an interface and not to its schema,
// or the other way round, fails here, so the OpenAPI document cannot drift from the types.
describe('response schemas', () => {
  it('infer exactly the shared interfaces', () => {
    expectTypeOf<z.infer<typeof r.emailLogSchema>>().toEqualTypeOf<EmailLogEntry>();
    expectTypeOf<z.infer<typeof r.emailSchema>>().toEqualTypeOf<Email>();
    expectTypeOf<z.infer<typeof r.paginationSchema>>().toEqualTypeOf<Pagination>();
    expectTypeOf<z.infer<typeof r.sendResponseSchema>>().toEqualTypeOf<SendResponse>();
    expectTypeOf<z.infer<typeof r.dnsRecordSchema>>().toEqualTypeOf<DnsRecord>();
    expectTypeOf<z.infer<typeof r.domainSchema>>().toEqualTypeOf<DomainIdentity>();
    expectTypeOf<z.infer<typeof r.errorBodySchema>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<z.infer<typeof r.sandboxEmailSummarySchema>>().toEqualTypeOf<SandboxEmailSummary>();
    expectTypeOf<z.infer<typeof r.sandboxEmailListSchema>>().toEqualTypeOf<SandboxEmailList>();
    expectTypeOf<z.infer<typeof r.sandboxEmailSchema>>().toEqualTypeOf<SandboxEmail>();
    expectTypeOf<z.infer<typeof r.mailboxSchema>>().toEqualTypeOf<Mailbox>();
    expectTypeOf<z.infer<typeof r.ruleSchema>>().toEqualTypeOf<Rule>();
    expectTypeOf<z.infer<typeof r.deliveryStateSchema>>().toEqualTypeOf<DeliveryState>();
    expectTypeOf<z.infer<typeof r.chaosSettingsSchema>>().toEqualTypeOf<ChaosSettings>();
    expectTypeOf<z.infer<typeof r.resetResultSchema>>().toEqualTypeOf<ResetResult>();
    expectTypeOf<z.infer<typeof r.webhookSchema>>().toEqualTypeOf<Webhook>();
    expectTypeOf<z.infer<typeof r.webhookAttemptSchema>>().toEqualTypeOf<WebhookAttempt>();
    expectTypeOf<z.infer<typeof r.webhookDetailSchema>>().toEqualTypeOf<WebhookDetail>();
    expectTypeOf<z.infer<typeof r.verificationScriptSchema>>().toEqualTypeOf<VerificationScript>();
    expectTypeOf<z.infer<typeof r.waitTimeoutSchema>>().toEqualTypeOf<WaitTimeout>();
  });
});
