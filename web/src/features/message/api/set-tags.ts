import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SandboxEmail, SandboxEmailList, SandboxEmailSummary } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { inboxKeys, messageKeys, tagKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function setTags({ id, tags }: { id: string; tags: string[] }): Promise<SandboxEmailSummary> {
  return api.put<SandboxEmailSummary>(apiPaths.emailTags(id), { tags });
}

/** Replaces an email's tags; the message and the rows show the server's answer (normalized tags). */
export function useSetTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTags,
    onSuccess: (summary) => {
      queryClient.setQueryData<SandboxEmail>(messageKeys.detail(summary.id), (old) => (old ? { ...old, tags: summary.tags } : old));
      queryClient.setQueriesData<SandboxEmailList>({ queryKey: inboxKeys.lists() }, (old) =>
        old ? { ...old, data: old.data.map((e) => (e.id === summary.id ? { ...e, tags: summary.tags } : e)) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}
