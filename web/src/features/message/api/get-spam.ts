import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SpamResult } from '../../../../../shared/lab';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';
import { labKeys } from './lab-keys';

export function getSpam(id: string, signal?: AbortSignal): Promise<SpamResult> {
  return api.get<SpamResult>(apiPaths.emailSpam(id), signal);
}

/** The spam filter's score (the server caches it per email); a filter that is down is not retried in a loop. */
export function useSpam(id: string) {
  return useQuery(queryOptions({ queryKey: labKeys.check(id, 'spam'), queryFn: ({ signal }) => getSpam(id, signal), staleTime: Infinity, retry: false }));
}
