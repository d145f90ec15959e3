import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChaosSettings } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function updateChaos(settings: ChaosSettings): Promise<ChaosSettings> {
  return api.put<ChaosSettings>(apiPaths.chaos, settings);
}

export function useUpdateChaos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChaos,
    onSuccess: (settings) => queryClient.setQueryData(scenarioKeys.chaos(), settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.chaos() }),
  });
}
