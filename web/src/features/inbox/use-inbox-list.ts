import { useMemo } from 'react';
import { isFilteredList, type EmailListParams } from '../../lib/query-keys';
import { useEmails } from './api/get-emails';
import { readSearch, toListParams } from './search-query';

export const PAGE_SIZE = 50;

/** The list for a mailbox, a search text and a page: parsed, turned into request parameters, fetched. */
export function useInboxList({ teamId, query, page }: { teamId: string | null; query: string; page: number }) {
  const params = useMemo<EmailListParams>(() => {
    return { ...(teamId ? { team_id: teamId } : {}), ...toListParams(readSearch(query)), page, limit: PAGE_SIZE };
  }, [teamId, query, page]);
  const list = useEmails(params);
  return { params, list, filtered: isFilteredList(params) };
}
