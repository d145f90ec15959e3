import { useState } from 'react';
import { BellIcon } from '../../../components/icons';
import { ALL, permission, setWatching, watchedMailboxes, type Permission } from '../notify';

/** "Notify me" for the mailbox on screen (or all mailboxes): a desktop notification per new email. */
export function NotifyToggle({ teamId }: { teamId: string | null }) {
  const [, rerender] = useState(0);
  const [state, setState] = useState<Permission>(permission());
  const on = state === 'granted' && watchedMailboxes().has(teamId ?? ALL);
  const where = teamId ? 'this mailbox' : 'all mailboxes';
  const title =
    state === 'unsupported' ? 'This browser has no desktop notifications'
    : state === 'denied' ? 'Notifications are blocked for this site: allow them in the browser settings'
    : on ? `Desktop notifications for new mail in ${where} are on` : `Get a desktop notification for each new email in ${where}`;

  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm notify-toggle"
      aria-pressed={on}
      title={title}
      disabled={state === 'unsupported' || state === 'denied'}
      onClick={async () => {
        setState(await setWatching(teamId, !on));
        rerender((n) => n + 1);
      }}
    >
      <BellIcon size={14} /> {on ? 'Notifying' : 'Notify'}
    </button>
  );
}
