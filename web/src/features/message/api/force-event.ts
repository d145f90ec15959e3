import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForceEventInput } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { inboxKeys, messageKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function forceEvent({ id, ...input }: ForceEventInput & { id: string }): Promise<unknown> {
  return api.post(apiPaths.emailEvents(id), input);
}

/** Simulates an open, a click, a bounce… for one recipient (or all). */
export function useForceEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forceEvent,
    onSettled: (_data, _error, { id }) => {
      void queryClient.invalidateQueries({ queryKey: messageKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
    },
  });
}
