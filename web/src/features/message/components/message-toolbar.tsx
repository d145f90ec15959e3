import { useState, type ReactNode } from 'react';
import type { SandboxEmail } from '../../../../../shared/sandbox';
import { Link } from '../../../components/link';
import { ArrowLeftIcon, ChevronLeftIcon, ChevronRightIcon, DownloadIcon, MailIcon, MailOpenIcon, SendIcon, TrashIcon } from '../../../components/icons';
import { InlineError } from '../../../components/states';
import { apiPaths } from '../../../paths';
import { useDeleteEmail } from '../api/delete-email';
import { useSetRead } from '../api/set-read';
import type { MessageNeighbours } from './message-view';
import { ReleaseForm } from './release-form';

/** Back (on narrow screens), newer/older, read/unread, release, download .eml, delete. */
export function MessageToolbar({ email, neighbours, backHref, onDeleted }: { email: SandboxEmail; neighbours: MessageNeighbours; backHref: string; onDeleted: () => void }) {
  const remove = useDeleteEmail();
  const setRead = useSetRead();
  const [releasing, setReleasing] = useState(false);
  return (
    <div className="message-toolbar">
      <Link to={backHref} className="btn btn-ghost btn-sm message-back" aria-label="Back to the list">
        <ArrowLeftIcon size={15} />
      </Link>
      <nav className="message-nav" aria-label="Newer and older emails">
        <StepLink href={neighbours.newerHref} label="Newer email" shortcut="k">
          <ChevronLeftIcon size={15} />
        </StepLink>
        <StepLink href={neighbours.olderHref} label="Older email" shortcut="j">
          <ChevronRightIcon size={15} />
        </StepLink>
        {neighbours.position && <span className="message-position">{neighbours.position}</span>}
      </nav>
      <div className="message-toolbar-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRead.mutate({ id: email.id, read: !email.is_read })}>
          {email.is_read ? <MailIcon size={14} /> : <MailOpenIcon size={14} />}
          {email.is_read ? 'Mark unread' : 'Mark read'}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" aria-expanded={releasing} onClick={() => setReleasing(!releasing)}>
          <SendIcon size={14} /> Release
        </button>
        <a className="btn btn-ghost btn-sm" href={apiPaths.emailRaw(email.id)} download={`${email.id}.eml`}>
          <DownloadIcon size={14} /> Download .eml
        </a>
        <button type="button" className="btn btn-ghost btn-sm btn-danger" disabled={remove.isPending} onClick={() => remove.mutate(email.id, { onSuccess: onDeleted })} aria-keyshortcuts="Delete">
          <TrashIcon size={14} /> Delete
        </button>
      </div>
      <InlineError error={remove.error ?? setRead.error} />
      {releasing && <ReleaseForm key={email.id} email={email} onClose={() => setReleasing(false)} />}
    </div>
  );
}

function StepLink({ href, label, shortcut, children }: { href: string | null; label: string; shortcut: string; children: ReactNode }) {
  if (!href) {
    return (
      <span className="btn btn-ghost btn-sm btn-icon" aria-disabled="true" aria-label={label} role="link">
        {children}
      </span>
    );
  }
  return (
    <Link to={href} className="btn btn-ghost btn-sm btn-icon" aria-label={label} title={`${label} (${shortcut})`} aria-keyshortcuts={shortcut}>
      {children}
    </Link>
  );
}
