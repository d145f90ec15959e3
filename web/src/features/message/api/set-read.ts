import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SandboxEmail, SandboxEmailList } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { inboxKeys, mailboxKeys, messageKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function setRead({ id, read }: { id: string; read: boolean }): Promise<unknown> {
  return api.patch(apiPaths.email(id), { read });
}

/** Marks an email read or unread, showing the change at once (the row's weight, the counts). */
export function useSetRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setRead,
    onMutate: ({ id, read }) => {
      queryClient.setQueryData<SandboxEmail>(messageKeys.detail(id), (old) => (old ? { ...old, is_read: read } : old));
      queryClient.setQueriesData<SandboxEmailList>({ queryKey: inboxKeys.lists() }, (old) =>
        old ? { ...old, data: old.data.map((e) => (e.id === id ? { ...e, is_read: read } : e)) } : old,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
    },
  });
}
