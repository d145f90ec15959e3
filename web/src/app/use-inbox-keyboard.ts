import { useEffect, useRef } from 'react';

interface InboxKeys {
  ids: string[];
  selectedId: string | null;
  open: (id: string) => void;
  remove: (id: string) => void;
  focusSearch: () => void;
}

/** True when a key press is typing into a field, not an inbox shortcut. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** j / k: next / previous email, / : search, Delete: delete the open email. */
export function useInboxKeyboard(keys: InboxKeys): void {
  const latest = useRef(keys);
  latest.current = keys;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || typingInto(event.target)) return;
      const { ids, selectedId, open, remove, focusSearch } = latest.current;
      const index = selectedId ? ids.indexOf(selectedId) : -1;
      if (event.key === 'j' || event.key === 'k') {
        const next = event.key === 'j' ? (index < 0 ? 0 : index + 1) : index < 0 ? 0 : index - 1;
        if (ids[next]) open(ids[next]);
        event.preventDefault();
      } else if (event.key === '/') {
        event.preventDefault();
        focusSearch();
      } else if (event.key === 'Delete' && selectedId) {
        event.preventDefault();
        remove(selectedId);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** After deleting `id`, the email to show: the next (older) one, else the previous one. */
export function neighbourOf(ids: string[], id: string): string | null {
  const index = ids.indexOf(id);
  if (index < 0) return null;
  return ids[index + 1] ?? ids[index - 1] ?? null;
}
