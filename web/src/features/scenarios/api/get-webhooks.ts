import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';
import type { Webhook } from './webhook-types';

export function getWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return api.get<Webhook[]>(apiPaths.webhooks, signal);
}

export const webhooksQueryOptions = () => queryOptions({ queryKey: scenarioKeys.webhooks(), queryFn: ({ signal }) => getWebhooks(signal) });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
