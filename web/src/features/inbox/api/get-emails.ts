import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SandboxEmailList } from '../../../../../shared/sandbox';
import { api, withQuery } from '../../../lib/api-client';
import { inboxKeys, type EmailListParams } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getEmails(params: EmailListParams, signal?: AbortSignal): Promise<SandboxEmailList> {
  return api.get<SandboxEmailList>(withQuery(apiPaths.emails, { ...params }), signal);
}

export const emailsQueryOptions = (params: EmailListParams) =>
  queryOptions({
    queryKey: inboxKeys.list(params),
    queryFn: ({ signal }) => getEmails(params, signal),
    // Paging and typing a search keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });

/** One page of the inbox list. */
export function useEmails(params: EmailListParams) {
  return useQuery(emailsQueryOptions(params));
}
