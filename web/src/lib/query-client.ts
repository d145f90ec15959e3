import { QueryClient } from '@tanstack/react-query';

/**
 * The SSE stream keeps cached data fresh, so queries do not refetch on a timer; focus refetches
 * cover a laptop that slept through a dropped stream.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, gcTime: 5 * 60_000, retry: 1, refetchOnWindowFocus: true },
      mutations: { retry: 0 },
    },
  });
}
