import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { inboxKeys, mailboxKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

/** Empties one mailbox, or every mailbox when teamId is null. */
export function deleteAllEmails(teamId: string | null): Promise<unknown> {
  return api.delete(withQuery(apiPaths.emails, { team_id: teamId }));
}

export function useDeleteAllEmails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAllEmails,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
    },
  });
}
