import type { SandboxEmailSummary } from '../../../../../shared/sandbox';
import { EmailRow } from './email-row';
import { isSelected, type Selection } from '../use-selection';

/** The rows of one page. The page is at most 100 rows, so plain DOM stays smooth at any inbox size. */
export function EmailList({ emails, selectedId, hrefFor, selection, onToggle }: { emails: SandboxEmailSummary[]; selectedId: string | null; hrefFor: (id: string) => string; selection: Selection; onToggle: (id: string) => void }) {
  return (
    <ul className="email-list" aria-label="Emails">
      {emails.map((email) => (
        <EmailRow key={email.id} email={email} href={hrefFor(email.id)} selected={email.id === selectedId} checked={isSelected(selection, email.id)} onToggle={onToggle} />
      ))}
    </ul>
  );
}

export function EmailListSkeleton() {
  return (
    <ul className="email-list" aria-hidden="true">
      {Array.from({ length: 8 }, (_, i) => (
        <li key={i} className="email-row skeleton-row">
          <span className="skeleton" style={{ width: '45%', height: 12 }} />
          <span className="skeleton" style={{ width: '80%', height: 12 }} />
          <span className="skeleton" style={{ width: '65%', height: 10 }} />
        </li>
      ))}
    </ul>
  );
}
