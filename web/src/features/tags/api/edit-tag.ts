import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { inboxKeys, messageKeys, tagKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

/** teamId: only that mailbox's emails (the sidebar lists that mailbox's tags); null: every email. */
export const renameTag = ({ tag, name, teamId }: { tag: string; name: string; teamId: string | null }) => api.put<{ count: number }>(apiPaths.tag(tag), { name, ...(teamId ? { team_id: teamId } : {}) });
export const deleteTag = ({ tag, teamId }: { tag: string; teamId: string | null }) => api.delete<{ count: number }>(withQuery(apiPaths.tag(tag), { team_id: teamId }));

function useTagMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // The server's emails.changed event updates rows in place; this covers a missed stream.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}

/** Renames a tag on every email (of the mailbox). */
export const useRenameTag = () => useTagMutation(renameTag);
/** Removes a tag from every email (of the mailbox). */
export const useDeleteTag = () => useTagMutation(deleteTag);
