import { memo } from 'react';
import type { SandboxEmailSummary } from '../../../../../shared/sandbox';
import { Link } from '../../../components/link';
import { PaperclipIcon } from '../../../components/icons';
import { StatusBadge } from '../../../components/status-badge';
import { TagChips } from '../../../components/tag-chips';
import { displayName, fullDate, shortDate } from '../../../lib/format';

/** One line of the list: who, to whom, what, when, how it went. Every field renders as text. */
export const EmailRow = memo(function EmailRow({ email, href, selected, checked, onToggle }: { email: SandboxEmailSummary; href: string; selected: boolean; checked: boolean; onToggle: (id: string) => void }) {
  const sender = displayName(email.metadata?.from || email.from_address);
  const recipients = (email.metadata?.to?.length ? email.metadata.to : email.to_addresses).map(displayName).join(', ');
  const files = email.attachments + email.inline;
  return (
    <li className="email-row-item" data-checked={checked || undefined}>
      <input type="checkbox" className="email-row-check" checked={checked} onChange={() => onToggle(email.id)} aria-label={`Select: ${email.subject || '(no subject)'}`} />
      <Link
        to={href}
        className="email-row"
        data-unread={!email.is_read || undefined}
        aria-current={selected ? 'true' : undefined}
        data-email-id={email.id}
      >
        <span className="email-row-dot" aria-hidden="true" />
        <span className="email-row-top">
          <span className="email-row-from">{sender}</span>
          <time className="email-row-time" dateTime={email.created_at} title={fullDate(email.created_at)}>
            {shortDate(email.created_at)}
          </time>
        </span>
        <span className="email-row-subject">
          <span className="email-row-subject-text">{email.subject || '(no subject)'}</span>
          {files > 0 && (
            <span className="email-row-clip" title={`${files} attachment${files === 1 ? '' : 's'}`}>
              <PaperclipIcon size={13} />
              <span className="visually-hidden">, has attachments</span>
            </span>
          )}
          {email.tags?.length > 0 && <TagChips tags={email.tags} />}
          <StatusBadge status={email.status} />
        </span>
        <span className="email-row-meta">
          <span className="email-row-to">to {recipients}</span>
          {email.snippet && <span className="email-row-snippet"> — {email.snippet}</span>}
        </span>
        {!email.is_read && <span className="visually-hidden">, unread</span>}
      </Link>
    </li>
  );
});
