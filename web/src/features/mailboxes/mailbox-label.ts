import type { Mailbox } from '../../../../shared/sandbox';

/** How a team reads in the sidebar: its id, and which keys feed it (only their last characters). */
export function mailboxLabel(mailbox: Mailbox): { name: string; hint: string } {
  if (mailbox.team_id === 'team_smtp') return { name: 'SMTP (no auth)', hint: 'team_smtp' };
  const keys = mailbox.api_keys ?? [];
  const hint = keys.length === 0 ? `${mailbox.total} email${mailbox.total === 1 ? '' : 's'}` : keys.map((k) => `key …${k.key_hint}`).join(', ');
  return { name: mailbox.team_id, hint };
}
