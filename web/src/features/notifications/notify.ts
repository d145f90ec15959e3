import type { Email } from '../../../../shared/email';

/**
 * Desktop notifications for new mail, opt-in per mailbox. The choice lives in this browser
 * (localStorage): the mailboxes' team ids, or ALL for "All mailboxes".
 */
const STORAGE_KEY = 'sendbox.notify';
export const ALL = '*';

export type Permission = 'granted' | 'denied' | 'default' | 'unsupported';

export function permission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function watchedMailboxes(): Set<string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function save(watched: Set<string>): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify([...watched]));
}

/** Turns notifications for one mailbox (null: all mailboxes) on or off; on asks the browser's permission first. */
export async function setWatching(teamId: string | null, on: boolean): Promise<Permission> {
  const key = teamId ?? ALL;
  const watched = watchedMailboxes();
  if (!on) {
    watched.delete(key);
    save(watched);
    return permission();
  }
  if (permission() === 'unsupported') return 'unsupported';
  const granted = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (granted === 'granted') {
    watched.add(key);
    save(watched);
  }
  return granted;
}

/** Shows a notification for a new email when its mailbox (or every mailbox) is watched; a click opens it. */
export function notifyNewEmail(email: Email, open: (id: string) => void): void {
  if (permission() !== 'granted') return;
  const watched = watchedMailboxes();
  if (!watched.has(ALL) && !watched.has(email.team_id)) return;
  const notification = new Notification(email.subject || '(no subject)', {
    body: `From ${email.metadata?.from || email.from_address}\nTo ${email.to_addresses.join(', ')}`,
    // One notification per email, even if two tabs are open.
    tag: `sendbox-${email.id}`,
  });
  notification.onclick = () => {
    window.focus();
    open(email.id);
    notification.close();
  };
}
