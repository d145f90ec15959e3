import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkRequest, BulkResult } from '../../../../../shared/tags';
import { api } from '../../../lib/api-client';
import { inboxKeys, mailboxKeys, tagKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function bulkEmails(request: BulkRequest): Promise<BulkResult> {
  return api.post<BulkResult>(apiPaths.emailsBulk, request);
}

/**
 * One action on the selected emails, or on every email matching the search. The server's one
 * `emails.changed` event updates the rows in place; this refetch covers a missed stream.
 */
export function useBulkEmails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkEmails,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
