import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { RelayInfo, ReleaseResult } from '../../../../../shared/release';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';

// The relay settings are fixed for the life of the server: fetched once.
const relayKey = ['relay'] as const;

export const relayQueryOptions = () =>
  queryOptions({ queryKey: relayKey, queryFn: ({ signal }) => api.get<RelayInfo>(apiPaths.relay, signal), staleTime: Infinity });

/** Whether release is set up (`--relay`), where it goes and to whom it may. */
export function useRelay() {
  return useQuery(relayQueryOptions());
}

export function releaseEmail({ id, to }: { id: string; to: string[] }): Promise<ReleaseResult> {
  return api.post<ReleaseResult>(apiPaths.emailRelease(id), { to });
}

/** Sends the stored message to real recipients through the relay. */
export function useReleaseEmail() {
  return useMutation({ mutationFn: releaseEmail });
}
