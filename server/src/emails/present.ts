import type { Email, EmailLogEntry } from '../../../shared/email.js';
import type { BodyRow, EmailRow, LogRow, StoredMetadata } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import { iso } from '../clock.js';

/** The provider's email record; `body` null gives the list shape (text and html empty). */
export function presentEmail(row: EmailRow, ids: IdCodec, body: Pick<BodyRow, 'text' | 'html'> | null): Email {
  const metadata = JSON.parse(row.metadata) as StoredMetadata;
  return {
    id: ids.encode(row.id),
    message_id: row.message_id,
    from_address: row.from_address,
    to_addresses: JSON.parse(row.to_addresses) as string[],
    subject: row.subject,
    size: row.size,
    inline: row.inline,
    attachments: row.attachments,
    api_key_id: row.api_key_id,
    snippet: row.snippet,
    created_at: iso(row.created_at),
    team_id: row.team_id,
    metadata: { ...metadata, text: body?.text ?? '', html: body?.html ?? '' },
    opened_at: row.opened_at === null ? null : iso(row.opened_at),
    delivered_at: row.delivered_at === null ? null : iso(row.delivered_at),
    click_count: row.click_count,
    status: row.status,
    credits_used: row.credits_used,
  };
}

export function presentLog(log: LogRow, email: EmailRow, ids: IdCodec): EmailLogEntry {
  return {
    email_id: ids.encode(email.id),
    team_id: email.team_id,
    status: log.status,
    from: email.from_address,
    to: log.recipient,
    subject: email.subject,
    response: log.response,
    code: log.code,
    mx_hostname: log.mx_hostname,
    time: log.time,
    queued_at: log.queued_at === null ? '' : iso(log.queued_at),
    recipient: log.recipient,
    recipient_type: log.recipient_type,
  };
}
