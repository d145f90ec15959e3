import { useCallback, useEffect, useState } from 'react';

/** What the bulk actions apply to: some rows, or every email matching the current search. */
export type Selection = { kind: 'ids'; ids: Set<string> } | { kind: 'all' };

/** The inbox's selection; it empties whenever the list it was made in changes (mailbox, search). */
export function useSelection(listKey: string) {
  const [selection, setSelection] = useState<Selection>({ kind: 'ids', ids: new Set() });
  useEffect(() => setSelection({ kind: 'ids', ids: new Set() }), [listKey]);

  const toggle = useCallback((id: string) => {
    setSelection((old) => {
      const ids = new Set(old.kind === 'ids' ? old.ids : []);
      if (ids.has(id)) ids.delete(id);
      else ids.add(id);
      return { kind: 'ids', ids };
    });
  }, []);
  const setPage = useCallback((ids: string[], on: boolean) => setSelection({ kind: 'ids', ids: new Set(on ? ids : []) }), []);
  const selectAll = useCallback(() => setSelection({ kind: 'all' }), []);
  const clear = useCallback(() => setSelection({ kind: 'ids', ids: new Set() }), []);
  return { selection, toggle, setPage, selectAll, clear };
}

export const isSelected = (selection: Selection, id: string) => selection.kind === 'all' || selection.ids.has(id);
export const selectedCount = (selection: Selection, total: number) => (selection.kind === 'all' ? total : selection.ids.size);
