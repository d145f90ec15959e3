import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { inboxKeys, messageKeys, tagKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export const renameTag = ({ tag, name }: { tag: string; name: string }) => api.put<{ count: number }>(apiPaths.tag(tag), { name });
export const deleteTag = (tag: string) => api.delete<{ count: number }>(apiPaths.tag(tag));

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

/** Renames a tag on every email. */
export const useRenameTag = () => useTagMutation(renameTag);
/** Removes a tag from every email. */
export const useDeleteTag = () => useTagMutation(deleteTag);
