import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { inboxKeys, mailboxKeys, messageKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function deleteEmail(id: string): Promise<unknown> {
  return api.delete(apiPaths.email(id));
}

export function useDeleteEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmail,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: messageKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
    },
  });
}
