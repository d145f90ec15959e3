import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeliveryState } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function setDeliveryPaused(paused: boolean): Promise<DeliveryState> {
  return api.post<DeliveryState>(paused ? apiPaths.deliveryPause : apiPaths.deliveryResume);
}

/** Pauses (emails wait in queued) or resumes the simulated delivery. */
export function useSetDeliveryPaused() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDeliveryPaused,
    onSuccess: (state, paused) => queryClient.setQueryData<DeliveryState>(scenarioKeys.delivery(), state && typeof state.paused === 'boolean' ? state : { paused }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.delivery() }),
  });
}
