import type { SandboxEmailSummary } from './sandbox.js';
import type { DomainIdentity } from './domain.js';
import type { EmailsChanged } from './tags.js';

/**
 * Events on the bus; SSE streams them, webhooks derive their own types from them. Email
 * events carry the inbox's list item (the sandbox summary), so the inbox applies them to
 * its cache in place; deletions carry only ids.
 */
export type SendboxEvent =
  | { type: 'email.created'; data: SandboxEmailSummary }
  | { type: 'email.updated'; data: SandboxEmailSummary; change?: EmailChange }
  | { type: 'email.deleted'; data: { id: string; team_id: string } }
  | { type: 'emails.cleared'; data: { team_id: string | null } }
  /** A bulk action, or tags set, renamed or deleted: one event, applied in place by the inbox. */
  | { type: 'emails.changed'; data: EmailsChanged }
  | { type: 'domain.created'; data: DomainIdentity }
  | { type: 'domain.updated'; data: DomainIdentity }
  | { type: 'domain.deleted'; data: { id: string; value: string; team_id: string } };

export type SendboxEventType = SendboxEvent['type'];

/** What changed on an email: a recipient's delivery state, an open or a click. */
export interface EmailChange {
  kind: 'state' | 'open' | 'click' | 'read';
  recipient?: string;
  state?: string;
  url?: string;
}
