import { useState, type FormEvent } from 'react';
import type { BulkAction, BulkRequest } from '../../../../../shared/tags';
import { ConfirmButton } from '../../../components/confirm-button';
import { MailIcon, MailOpenIcon, TagIcon, TrashIcon } from '../../../components/icons';
import { InlineError } from '../../../components/states';
import { formatNumber } from '../../../lib/format';
import { useBulkEmails } from '../api/bulk-emails';
import { selectedCount, type Selection } from '../use-selection';

interface BulkBarProps {
  selection: Selection;
  /** Rows on this page and emails matching the search. */
  pageIds: string[];
  total: number;
  /** The search and mailbox "all matching" means. */
  q: string;
  teamId: string | null;
  onSelectAll: () => void;
  onDone: () => void;
}

/** Actions on the selection: read, unread, tag, untag, delete; and "select all N matching". */
export function BulkBar({ selection, pageIds, total, q, teamId, onSelectAll, onDone }: BulkBarProps) {
  const bulk = useBulkEmails();
  const [tagMode, setTagMode] = useState<'tag' | 'untag' | null>(null);
  const [tagDraft, setTagDraft] = useState('');
  const count = selectedCount(selection, total);
  if (count === 0) return null;

  const run = (action: BulkAction, tags?: string[]) => {
    const target: Pick<BulkRequest, 'ids' | 'q' | 'team_id'> = selection.kind === 'all' ? { q, ...(teamId ? { team_id: teamId } : {}) } : { ids: [...selection.ids] };
    bulk.mutate({ ...target, action, ...(tags ? { tags } : {}) }, { onSuccess: () => { setTagMode(null); setTagDraft(''); if (action === 'delete') onDone(); } });
  };
  const submitTags = (event: FormEvent) => {
    event.preventDefault();
    const tags = tagDraft.split(',').map((t) => t.trim()).filter(Boolean);
    if (tags.length && tagMode) run(tagMode, tags);
  };
  const wholePage = selection.kind === 'ids' && pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id));

  return (
    <div className="bulk-bar" role="region" aria-label="Selected emails">
      <div className="bulk-bar-row">
        <strong className="bulk-count">{selection.kind === 'all' ? `All ${formatNumber(total)} matching` : `${formatNumber(count)} selected`}</strong>
        {wholePage && total > pageIds.length && (
          <button type="button" className="btn btn-link btn-sm" onClick={onSelectAll}>
            Select all {formatNumber(total)} {q ? 'matching this search' : 'in this mailbox'}
          </button>
        )}
        <button type="button" className="btn btn-link btn-sm bulk-clear" onClick={onDone}>Clear</button>
      </div>
      <div className="bulk-bar-row bulk-actions">
        <button type="button" className="btn btn-ghost btn-sm" disabled={bulk.isPending} onClick={() => run('read')}><MailOpenIcon size={14} /> Mark read</button>
        <button type="button" className="btn btn-ghost btn-sm" disabled={bulk.isPending} onClick={() => run('unread')}><MailIcon size={14} /> Mark unread</button>
        <button type="button" className="btn btn-ghost btn-sm" aria-pressed={tagMode === 'tag'} onClick={() => setTagMode(tagMode === 'tag' ? null : 'tag')}><TagIcon size={14} /> Tag</button>
        <button type="button" className="btn btn-ghost btn-sm" aria-pressed={tagMode === 'untag'} onClick={() => setTagMode(tagMode === 'untag' ? null : 'untag')}>Untag</button>
        <ConfirmButton className="btn btn-ghost btn-sm btn-danger" confirmLabel={`Delete ${formatNumber(count)}`} onConfirm={() => run('delete')} disabled={bulk.isPending}>
          <TrashIcon size={14} /> Delete
        </ConfirmButton>
      </div>
      {tagMode && (
        <form className="bulk-bar-row bulk-tags" onSubmit={submitTags}>
          <label htmlFor="bulk-tags-input">{tagMode === 'tag' ? 'Add tags' : 'Remove tags'}</label>
          <input id="bulk-tags-input" className="input input-sm" placeholder="e.g. invoice, q4" value={tagDraft} autoFocus onChange={(e) => setTagDraft(e.target.value)} />
          <button type="submit" className="btn btn-primary btn-sm" disabled={!tagDraft.trim() || bulk.isPending}>{tagMode === 'tag' ? 'Tag' : 'Untag'} {formatNumber(count)}</button>
        </form>
      )}
      <InlineError error={bulk.error} />
    </div>
  );
}
