import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Mailbox } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { mailboxKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getMailboxes(signal?: AbortSignal): Promise<Mailbox[]> {
  return api.get<Mailbox[]>(apiPaths.teams, signal);
}

export const mailboxesQueryOptions = () =>
  queryOptions({
    queryKey: mailboxKeys.all,
    queryFn: ({ signal }) => getMailboxes(signal),
  });

/** Every team as a mailbox, with total and unread counts. */
export function useMailboxes() {
  return useQuery(mailboxesQueryOptions());
}
