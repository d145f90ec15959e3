import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function deleteWebhook(id: string | number): Promise<unknown> {
  return api.delete(apiPaths.webhook(id));
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.webhooks() }),
  });
}
