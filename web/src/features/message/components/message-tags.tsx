import { useState, type FormEvent } from 'react';
import type { SandboxEmail } from '../../../../../shared/sandbox';
import { TagChips } from '../../../components/tag-chips';
import { PlusIcon } from '../../../components/icons';
import { InlineError } from '../../../components/states';
import { useSetTags } from '../api/set-tags';

/** The email's tags as coloured chips, each removable, and a field to add more (a comma list works). */
export function MessageTags({ email }: { email: SandboxEmail }) {
  const setTags = useSetTags();
  const [draft, setDraft] = useState('');
  const tags = email.tags ?? [];

  const add = (event: FormEvent) => {
    event.preventDefault();
    const added = draft.split(',').map((t) => t.trim()).filter(Boolean);
    if (added.length === 0) return;
    setTags.mutate({ id: email.id, tags: [...tags, ...added] }, { onSuccess: () => setDraft('') });
  };

  return (
    <div className="message-tags">
      <TagChips tags={tags} label="Tags of this email" onRemove={(tag) => setTags.mutate({ id: email.id, tags: tags.filter((t) => t !== tag) })} />
      <form className="message-tags-add" onSubmit={add}>
        <label className="visually-hidden" htmlFor="message-tag-input">Add a tag</label>
        <input id="message-tag-input" className="message-tags-input" placeholder={tags.length ? 'Add tag' : 'Add a tag'} value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className="btn btn-ghost btn-sm btn-icon" aria-label="Add tag" disabled={!draft.trim() || setTags.isPending}>
          <PlusIcon size={13} />
        </button>
      </form>
      <InlineError error={setTags.error} />
    </div>
  );
}
