import { useCallback } from 'react';
import { EmptyState } from '../../components/states';
import { MailIcon } from '../../components/icons';
import { navigate, useLocation, withParams } from '../../lib/router';
import { pagePaths } from '../../paths';
import { InboxPane } from '../../features/inbox/components/inbox-pane';
import { SEARCH_INPUT_ID } from '../../features/inbox/components/search-box';
import { useInboxList } from '../../features/inbox/use-inbox-list';
import { MessageView } from '../../features/message/components/message-view';
import { isMessageTab, type MessageTab } from '../../features/message/components/message-tabs';
import { useDeleteEmail } from '../../features/message/api/delete-email';
import { NotifyToggle } from '../../features/notifications/components/notify-toggle';
import { neighbourOf, useInboxKeyboard } from '../use-inbox-keyboard';

/**
 * The inbox page: list and open email side by side (one at a time on narrow screens).
 * Mailbox, search, page and tab live in the URL, so back/forward and links work.
 */
export function InboxRoute({ emailId }: { emailId: string | null }) {
  const { pathname, search } = useLocation();
  const team = search.get('team');
  const query = search.get('q') ?? '';
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const tabParam = search.get('tab');
  const tab: MessageTab | null = isMessageTab(tabParam) ? tabParam : null;
  const { list, filtered } = useInboxList({ teamId: team, query, page });
  const ids = list.data?.data.map((e) => e.id) ?? [];
  const remove = useDeleteEmail();

  const emailHref = useCallback((id: string) => withParams(pagePaths.email(id), search, {}), [search]);
  const listHref = withParams(pagePaths.inbox, search, { tab: null });
  const index = emailId ? ids.indexOf(emailId) : -1;
  const info = list.data?.pagination;
  const neighbours = {
    newerHref: index > 0 ? emailHref(ids[index - 1]) : null,
    olderHref: index >= 0 && index < ids.length - 1 ? emailHref(ids[index + 1]) : null,
    position: index >= 0 && info ? `${(info.page - 1) * info.limit + index + 1} of ${info.total_records.toLocaleString()}` : null,
  };
  const afterDelete = (id: string) => {
    const next = neighbourOf(ids, id);
    navigate(next ? emailHref(next) : listHref, { replace: true });
  };

  useInboxKeyboard({
    ids,
    selectedId: emailId,
    open: (id) => navigate(emailHref(id)),
    remove: (id) => remove.mutate(id, { onSuccess: () => afterDelete(id) }),
    focusSearch: () => document.getElementById(SEARCH_INPUT_ID)?.focus(),
  });

  return (
    <div className="inbox" data-view={emailId ? 'message' : 'list'}>
      <InboxPane
        teamId={team}
        title={team ?? 'All mailboxes'}
        query={query}
        list={list}
        filtered={filtered}
        selectedId={emailId}
        hrefFor={emailHref}
        onQueryChange={(q) => navigate(withParams(pathname, search, { q, page: null }), { replace: true })}
        onPage={(p) => navigate(withParams(pathname, search, { page: p > 1 ? p : null }))}
        actions={<NotifyToggle teamId={team} />}
      />
      <section className="message-pane" aria-label="Message">
        {emailId ? (
          <MessageView key={emailId} id={emailId} neighbours={neighbours} tab={tab} onTab={(t) => navigate(withParams(pathname, search, { tab: t }), { replace: true })} backHref={listHref} onDeleted={() => afterDelete(emailId)} />
        ) : (
          <EmptyState icon={<MailIcon size={30} />} title="No email selected">
            <p>
              Pick one from the list, or press <kbd>j</kbd> / <kbd>k</kbd> to move through it and <kbd>/</kbd> to search.
            </p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}
