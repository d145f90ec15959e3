import { Link } from '../../../components/link';
import { formatNumber } from '../../../lib/format';
import { useMailboxes } from '../api/get-mailboxes';
import { mailboxLabel } from '../mailbox-label';

/** "All" and one mailbox per team, each with its unread count. */
export function MailboxList({ selected, hrefFor }: { selected: string | null; hrefFor: (teamId: string | null) => string }) {
  const { data, isPending, isError } = useMailboxes();
  const mailboxes = data ?? [];
  const unread = mailboxes.reduce((sum, m) => sum + m.unread, 0);

  return (
    <nav aria-label="Mailboxes" className="mailboxes">
      <h2 className="sidebar-heading">Mailboxes</h2>
      <ul>
        <li>
          <MailboxLink href={hrefFor(null)} current={selected === null} name="All mailboxes" hint={isPending ? '' : `${formatNumber(mailboxes.length)} team${mailboxes.length === 1 ? '' : 's'}`} unread={unread} />
        </li>
        {mailboxes.map((mailbox) => (
          <li key={mailbox.team_id}>
            <MailboxLink href={hrefFor(mailbox.team_id)} current={selected === mailbox.team_id} {...mailboxLabel(mailbox)} unread={mailbox.unread} teamId={mailbox.team_id} />
          </li>
        ))}
      </ul>
      {isError && <p className="sidebar-note">Mailboxes are unavailable.</p>}
      {!isPending && !isError && mailboxes.length === 0 && <p className="sidebar-note">Each API key gets its own mailbox the first time it sends.</p>}
    </nav>
  );
}

function MailboxLink({ href, current, name, hint, unread, teamId }: { href: string; current: boolean; name: string; hint: string; unread: number; teamId?: string }) {
  return (
    <Link to={href} className="mailbox" aria-current={current ? 'true' : undefined} title={teamId} data-team={teamId}>
      <span className="mailbox-text">
        <span className="mailbox-name">{name}</span>
        {hint && <span className="mailbox-hint">{hint}</span>}
      </span>
      {unread > 0 && (
        <span className="mailbox-unread" aria-label={`${unread} unread`}>
          {formatNumber(unread)}
        </span>
      )}
    </Link>
  );
}
