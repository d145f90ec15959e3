import { useState, type FormEvent } from 'react';
import type { TagCount } from '../../../../../shared/tags';
import { Link } from '../../../components/link';
import { ConfirmButton } from '../../../components/confirm-button';
import { PencilIcon, XIcon } from '../../../components/icons';
import { InlineError } from '../../../components/states';
import { tagColour } from '../../../components/tag-chips';
import { formatNumber } from '../../../lib/format';
import { useTags } from '../api/get-tags';
import { useDeleteTag, useRenameTag } from '../api/edit-tag';

/** The tags in use in the mailbox, each a link to its search (`tag:x`), renamed or deleted on all its mail in place. */
export function TagList({ teamId, hrefFor }: { teamId: string | null; hrefFor: (tag: string) => string }) {
  const { data } = useTags(teamId);
  const rename = useRenameTag();
  const remove = useDeleteTag();
  if (!data || data.length === 0) return null;
  return (
    <nav aria-label="Tags" className="tag-list">
      <h2 className="sidebar-heading">Tags</h2>
      <ul>
        {data.map((tag) => (
          <TagItem key={tag.tag} tag={tag} href={hrefFor(tag.tag)} onRename={(name) => rename.mutate({ tag: tag.tag, name, teamId })} onDelete={() => remove.mutate({ tag: tag.tag, teamId })} />
        ))}
      </ul>
      <InlineError error={rename.error ?? remove.error} />
    </nav>
  );
}

function TagItem({ tag, href, onRename, onDelete }: { tag: TagCount; href: string; onRename: (name: string) => void; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(tag.tag);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() && draft.trim() !== tag.tag) onRename(draft.trim());
    setEditing(false);
  };
  if (editing) {
    return (
      <li className="tag-item">
        <form onSubmit={submit} className="tag-rename">
          <input className="input input-sm" aria-label={`New name for tag ${tag.tag}`} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
          <button type="submit" className="btn btn-primary btn-sm">Rename</button>
        </form>
      </li>
    );
  }
  return (
    <li className="tag-item">
      <Link to={href} className="tag-link" title={`Emails tagged ${tag.tag}`}>
        <span className={`tag-dot ${tagColour(tag.tag)}`} aria-hidden="true" />
        <span className="tag-name">{tag.tag}</span>
        <span className="tag-count">{formatNumber(tag.count)}</span>
      </Link>
      <span className="tag-tools">
        <button type="button" className="btn btn-ghost btn-icon btn-xs" aria-label={`Rename tag ${tag.tag}`} onClick={() => { setDraft(tag.tag); setEditing(true); }}>
          <PencilIcon size={12} />
        </button>
        <ConfirmButton className="btn btn-ghost btn-icon btn-xs" confirmLabel="Delete" onConfirm={onDelete}>
          <XIcon size={12} />
          <span className="visually-hidden">Delete tag {tag.tag}</span>
        </ConfirmButton>
      </span>
    </li>
  );
}
