import type { SandboxEmail } from '../../../../../shared/sandbox';
import { Link } from '../../../components/link';
import { ArrowLeftIcon, DownloadIcon, MailIcon, MailOpenIcon, TrashIcon } from '../../../components/icons';
import { InlineError } from '../../../components/states';
import { apiPaths } from '../../../paths';
import { useDeleteEmail } from '../api/delete-email';
import { useSetRead } from '../api/set-read';

/** Back (on narrow screens), read/unread, download .eml, delete. */
export function MessageToolbar({ email, backHref, onDeleted }: { email: SandboxEmail; backHref: string; onDeleted: () => void }) {
  const remove = useDeleteEmail();
  const setRead = useSetRead();
  return (
    <div className="message-toolbar">
      <Link to={backHref} className="btn btn-ghost btn-sm message-back" aria-label="Back to the list">
        <ArrowLeftIcon size={15} />
      </Link>
      <div className="message-toolbar-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRead.mutate({ id: email.id, read: !email.is_read })}>
          {email.is_read ? <MailIcon size={14} /> : <MailOpenIcon size={14} />}
          {email.is_read ? 'Mark unread' : 'Mark read'}
        </button>
        <a className="btn btn-ghost btn-sm" href={apiPaths.emailRaw(email.id)} download={`${email.id}.eml`}>
          <DownloadIcon size={14} /> Download .eml
        </a>
        <button type="button" className="btn btn-ghost btn-sm btn-danger" disabled={remove.isPending} onClick={() => remove.mutate(email.id, { onSuccess: onDeleted })} aria-keyshortcuts="Delete">
          <TrashIcon size={14} /> Delete
        </button>
      </div>
      <InlineError error={remove.error ?? setRead.error} />
    </div>
  );
}
