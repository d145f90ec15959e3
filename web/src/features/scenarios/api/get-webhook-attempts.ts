import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';
import type { WebhookAttempt } from './webhook-types';

export function getWebhookAttempts(id: string | number, signal?: AbortSignal): Promise<WebhookAttempt[]> {
  return api.get<WebhookAttempt[]>(apiPaths.webhookAttempts(id), signal);
}

export const webhookAttemptsQueryOptions = (id: string | number) =>
  queryOptions({
    queryKey: scenarioKeys.attempts(id),
    queryFn: ({ signal }) => getWebhookAttempts(id, signal),
    // Retries happen on the server's clock, with no SSE event: look again every few seconds while open.
    refetchInterval: 3000,
  });

/** The delivery attempts of one webhook, newest first as the server sends them. */
export function useWebhookAttempts(id: string | number) {
  return useQuery(webhookAttemptsQueryOptions(id));
}
