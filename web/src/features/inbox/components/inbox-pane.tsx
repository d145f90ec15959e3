import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { SandboxEmailList } from '../../../../../shared/sandbox';
import { ConfirmButton } from '../../../components/confirm-button';
import { EmptyState, ErrorState, InlineError } from '../../../components/states';
import { TrashIcon } from '../../../components/icons';
import { formatNumber } from '../../../lib/format';
import { useDeleteAllEmails } from '../api/delete-all-emails';
import { EmailList, EmailListSkeleton } from './email-list';
import { InboxEmpty } from './inbox-empty';
import { Pagination } from './pagination';
import { SearchBox } from './search-box';
import { StatusFilter } from './status-filter';
import { BulkBar } from './bulk-bar';
import { RetentionNote } from './retention-note';
import { readSearch } from '../search-query';
import { useSelection, type Selection } from '../use-selection';

interface InboxPaneProps {
  teamId: string | null;
  title: string;
  query: string;
  list: UseQueryResult<SandboxEmailList>;
  filtered: boolean;
  selectedId: string | null;
  hrefFor: (id: string) => string;
  onQueryChange: (query: string) => void;
  onPage: (page: number) => void;
  /** More toolbar buttons, from other features (the notification toggle). */
  actions?: ReactNode;
}

/** The list column: search and filters, the rows of the current page, paging. */
export function InboxPane({ teamId, title, query, list, filtered, selectedId, hrefFor, onQueryChange, onPage, actions }: InboxPaneProps) {
  const deleteAll = useDeleteAllEmails();
  const total = list.data?.pagination.total_records ?? 0;
  const q = readSearch(query).q;
  const { selection, toggle, setPage, selectAll, clear } = useSelection(`${teamId ?? ''}\n${q}`);
  const pageIds = list.data?.data.map((e) => e.id) ?? [];
  const wholePage = selection.kind === 'all' || (pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id)));

  return (
    <section className="inbox-pane" aria-label="Inbox">
      <div className="inbox-toolbar">
        <div className="inbox-title">
          <h1 title={title}>{title}</h1>
          {list.isFetching && !list.isPending && <span className="spinner spinner-sm" aria-hidden="true" />}
          <span className="inbox-actions">
            {actions}
            <ConfirmButton className="btn btn-ghost btn-sm" confirmLabel={teamId ? 'Delete every email here' : 'Delete every email'} onConfirm={() => deleteAll.mutate(teamId)} disabled={!filtered && total === 0}>
              <TrashIcon size={14} /> Delete all
            </ConfirmButton>
          </span>
        </div>
        <div className="inbox-filters">
          <input type="checkbox" className="select-page" aria-label="Select every email on this page" checked={wholePage} disabled={pageIds.length === 0} onChange={(e) => setPage(pageIds, e.target.checked)} />
          <SearchBox value={query} onChange={onQueryChange} />
          <StatusFilter query={query} onChange={onQueryChange} />
        </div>
        <InlineError error={deleteAll.error} />
        <BulkBar selection={selection} pageIds={pageIds} total={total} q={q} teamId={teamId} onSelectAll={selectAll} onDone={clear} />
      </div>
      <InboxBody list={list} filtered={filtered} selectedId={selectedId} hrefFor={hrefFor} onPage={onPage} selection={selection} onToggle={toggle} />
      <RetentionNote />
      {list.data && list.data.pagination.total_records > 0 && <Pagination info={list.data.pagination} onPage={onPage} />}
      <span className="visually-hidden" aria-live="polite">
        {list.data ? `${formatNumber(total)} emails` : ''}
      </span>
    </section>
  );
}

function InboxBody({ list, filtered, selectedId, hrefFor, onPage, selection, onToggle }: Pick<InboxPaneProps, 'list' | 'filtered' | 'selectedId' | 'hrefFor' | 'onPage'> & { selection: Selection; onToggle: (id: string) => void }) {
  if (list.isPending) return <EmailListSkeleton />;
  if (!list.data) return <ErrorState error={list.error} title="The inbox could not be loaded" onRetry={() => void list.refetch()} />;
  if (list.data.data.length === 0 && list.data.pagination.total_records > 0) {
    return (
      <EmptyState title="Nothing on this page">
        <button type="button" className="btn" onClick={() => onPage(1)}>
          Go to the first page
        </button>
      </EmptyState>
    );
  }
  if (list.data.data.length === 0) return <InboxEmpty filtered={filtered} />;
  return (
    <div className="email-scroll">
      <EmailList emails={list.data.data} selectedId={selectedId} hrefFor={hrefFor} selection={selection} onToggle={onToggle} />
    </div>
  );
}
