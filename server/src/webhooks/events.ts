import type { SendboxEvent } from '../../../shared/events.js';
import type { DomainStatus } from '../../../shared/domain.js';
import type { SandboxEmailSummary } from '../../../shared/sandbox.js';
import { WEBHOOK_EVENT_TYPES, type EmailEventData, type WebhookEventType } from '../../../shared/webhooks.js';
import type { EmailStore } from '../storage/emails.js';
import type { DomainStore } from '../storage/domains.js';
import type { IdCodec } from '../storage/ids.js';
import { presentLog } from '../emails/present.js';

/** One webhook event before it is queued: its type and `data`. */
export interface MappedEvent {
  type: WebhookEventType;
  data: object;
}

/** Webhooks send the provider's email record: the inbox-only fields of the bus event stay home. */
function providerRecord(summary: SandboxEmailSummary): Omit<EmailEventData, 'recipient' | 'log' | 'url'> {
  const { is_read: _read, source: _source, flags: _flags, ...email } = summary;
  return email;
}

const STATE_EVENTS = new Set<string>(['queued', 'delivered', 'bounced', 'failed', 'complaint']);

/** True when an `events` filter entry names a known type or a `email.*` / `domain.*` family. */
export function isKnownEventPattern(pattern: string): boolean {
  return pattern === 'email.*' || pattern === 'domain.*' || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(pattern);
}

export function matchesFilter(type: string, filter: string[] | null): boolean {
  return filter === null || filter.some((pattern) => pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

/**
 * Turns bus events into webhook events: per recipient state changes (`email.<state>`),
 * opens and clicks, and domain status changes. Domain statuses are remembered so that a
 * check that leaves the status as it was sends nothing.
 */
export class WebhookEventMapper {
  private readonly domainStatus = new Map<string, DomainStatus>();

  constructor(private readonly deps: { emails: EmailStore; domains: DomainStore; ids: IdCodec }) {
    for (const row of deps.domains.list(null)) this.domainStatus.set(row.public_id, row.status);
  }

  map(event: SendboxEvent): MappedEvent[] {
    switch (event.type) {
      case 'email.created': {
        // Every recipient enters processing when the email is accepted.
        const id = this.deps.ids.decode(event.data.id);
        const recipients = id === null ? [] : this.deps.emails.recipients(id);
        return recipients.map((r) => ({ type: 'email.processing', data: { ...providerRecord(event.data), recipient: r.address } }));
      }
      case 'email.updated': {
        const change = event.change;
        if (!change?.recipient) return [];
        if (change.kind === 'open') return [{ type: 'email.opened', data: { ...providerRecord(event.data), recipient: change.recipient } }];
        if (change.kind === 'click') return [{ type: 'email.clicked', data: { ...providerRecord(event.data), recipient: change.recipient, url: change.url ?? '' } }];
        if (change.kind !== 'state' || !change.state || !STATE_EVENTS.has(change.state)) return [];
        const log = this.latestLog(event.data.id, change.recipient, change.state);
        return [{ type: `email.${change.state}` as WebhookEventType, data: { ...providerRecord(event.data), recipient: change.recipient, ...(log ? { log } : {}) } }];
      }
      case 'domain.created':
        this.domainStatus.set(event.data.id, event.data.status);
        return [{ type: 'domain.created', data: event.data }];
      case 'domain.updated': {
        const previous = this.domainStatus.get(event.data.id);
        this.domainStatus.set(event.data.id, event.data.status);
        return previous === event.data.status ? [] : [{ type: `domain.${event.data.status}`, data: event.data }];
      }
      case 'domain.deleted':
        this.domainStatus.delete(event.data.id);
        return [{ type: 'domain.deleted', data: event.data }];
      default:
        return [];
    }
  }

  /** The recipient's newest log entry of that state: for a deferral, the 4xx one. */
  private latestLog(publicId: string, recipient: string, state: string) {
    const id = this.deps.ids.decode(publicId);
    const email = id === null ? undefined : this.deps.emails.get(id);
    if (!email) return undefined;
    const log = this.deps.emails.logs(email.id, true).filter((l) => l.recipient === recipient && l.status === state).at(-1);
    return log ? presentLog(log, email, this.deps.ids) : undefined;
  }
}
