import type { SandboxEmailSummary } from '../../../shared/sandbox.js';
import type { EmailChange } from '../../../shared/events.js';
import { iso } from '../clock.js';
import type { EventBus } from '../events.js';
import type { EmailRow, EmailStore, NewEmail } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import type { RecipientChange } from '../simulation/lifecycle.js';
import { presentSummary } from './view.js';

/**
 * The one owner of stored emails after ingest: every change to an email outside the
 * delivery simulation's own writes goes through here, and every email event is published
 * here, once, carrying the sandbox summary the inbox caches (or only ids), so the inbox
 * applies it in place (STYLE 9a, 9c).
 */
export class EmailService {
  constructor(
    private readonly deps: {
      store: EmailStore;
      ids: IdCodec;
      events: EventBus;
      /** Storage changed behind ingest's back: its retention count is stale. */
      recount: () => void;
    },
  ) {}

  /** Announces a batch ingest just committed, built from what was written (no read-back). */
  created(batch: NewEmail[]): void {
    const { events, ids } = this.deps;
    if (events.listenerCount === 0) return;
    for (const email of batch) events.publish({ type: 'email.created', data: summaryOfNew(email, ids) });
  }

  /** Emails retention removed. */
  pruned(rows: { id: number; team_id: string }[]): void {
    for (const row of rows) this.deps.events.publish({ type: 'email.deleted', data: { id: this.deps.ids.encode(row.id), team_id: row.team_id } });
  }

  /** The delivery simulation moved recipients: one event per recipient change (webhooks send each one, CONTRACT §6). */
  stateChanged(changes: RecipientChange[]): void {
    if (this.deps.events.listenerCount === 0) return;
    const byEmail = new Map<number, RecipientChange[]>();
    for (const change of changes) {
      const list = byEmail.get(change.emailId);
      if (list) list.push(change);
      else byEmail.set(change.emailId, [change]);
    }
    for (const [emailId, emailChanges] of byEmail) {
      // The lifecycle wrote recipient rows; the email's status and dates are derived in SQL.
      const row = this.deps.store.get(emailId);
      if (!row) continue;
      this.updated(row, emailChanges.map((c) => ({ kind: 'state', recipient: c.recipient, state: c.state })));
    }
  }

  /** Sets the read flag; answers the summary the event carries. */
  markRead(row: EmailRow, read: boolean): SandboxEmailSummary {
    this.deps.store.markRead(row.id, read);
    const summary = { ...presentSummary(row, this.deps.ids), is_read: read };
    this.deps.events.publish({ type: 'email.updated', data: summary, change: { kind: 'read' } });
    return summary;
  }

  /** Records opens or clicks for recipients that received the email. */
  recordEngagement(row: EmailRow, type: 'open' | 'click', recipients: string[], url: string | null, at: number): void {
    const { store, events } = this.deps;
    store.transaction(() => {
      for (const recipient of recipients) store.recordEvent(row.id, type, recipient, url, at);
    });
    // What recordEvent wrote, applied to the row in hand: the first open sets opened_at, each click counts.
    const updated: EmailRow = type === 'open' ? { ...row, opened_at: row.opened_at ?? at } : { ...row, click_count: row.click_count + recipients.length };
    const summary = presentSummary(updated, this.deps.ids);
    for (const recipient of recipients) events.publish({ type: 'email.updated', data: summary, change: { kind: type, recipient, url: url ?? undefined } });
  }

  deleteOne(row: EmailRow): { id: string; team_id: string } {
    this.deps.store.deleteOne(row.id);
    this.deps.recount();
    const data = { id: this.deps.ids.encode(row.id), team_id: row.team_id };
    this.deps.events.publish({ type: 'email.deleted', data });
    return data;
  }

  /** Deletes every email of a team (null: of every team); answers how many. */
  clear(teamId: string | null): number {
    const deleted = this.deps.store.deleteTeam(teamId);
    this.cleared(teamId);
    return deleted;
  }

  /** After a reset removed emails in its own transaction. */
  cleared(teamId: string | null): void {
    this.deps.recount();
    this.deps.events.publish({ type: 'emails.cleared', data: { team_id: teamId } });
  }

  private updated(row: EmailRow, changes: EmailChange[]): void {
    const summary = presentSummary(row, this.deps.ids);
    for (const change of changes) this.deps.events.publish({ type: 'email.updated', data: summary, change });
  }
}

/** A just-ingested email as the inbox lists it: every recipient is processing, nothing opened yet. */
export function summaryOfNew(email: NewEmail, ids: IdCodec): SandboxEmailSummary {
  return {
    id: ids.encode(email.id),
    message_id: email.messageId,
    from_address: email.fromAddress,
    to_addresses: email.toAddresses,
    subject: email.subject,
    size: email.size,
    inline: email.inline,
    attachments: email.attachments,
    api_key_id: email.apiKeyId,
    snippet: email.snippet,
    created_at: iso(email.createdAt),
    team_id: email.teamId,
    metadata: { ...email.metadata, text: '', html: '' },
    opened_at: null,
    delivered_at: null,
    click_count: 0,
    status: 'processing',
    credits_used: email.creditsUsed,
    is_read: false,
    source: email.source,
    flags: email.flags,
    tags: email.tags ?? [],
  };
}
