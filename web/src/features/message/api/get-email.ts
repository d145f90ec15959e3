import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SandboxEmail } from '../../../../../shared/sandbox';
import { api, ApiError } from '../../../lib/api-client';
import { messageKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getEmail(id: string, signal?: AbortSignal): Promise<SandboxEmail> {
  return api.get<SandboxEmail>(apiPaths.email(id), signal);
}

export const emailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: messageKeys.detail(id),
    queryFn: ({ signal }) => getEmail(id, signal),
    // A 404 is an answer (deleted or never existed), not a hiccup worth retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

/** The full sandbox view of one email. */
export function useEmail(id: string) {
  return useQuery(emailQueryOptions(id));
}
