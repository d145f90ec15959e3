import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { healthKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export interface Health {
  ok: boolean;
  emails: number;
  paused: boolean;
  retention?: { max_emails: number; max_age: string | null };
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => api.get<Health>(apiPaths.health, signal),
    // Retention is start-up configuration: it does not change while the inbox is open.
    staleTime: Infinity,
  });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
