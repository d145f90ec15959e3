import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';
import type { Webhook, WebhookInput } from './webhook-types';

export function createWebhook(input: WebhookInput): Promise<Webhook> {
  return api.post<Webhook>(apiPaths.webhooks, input);
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.webhooks() }),
  });
}
