import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';
import type { DomainRef } from './verify-domain';

export function deleteDomain({ team_id, domain }: DomainRef): Promise<unknown> {
  return api.delete(withQuery(apiPaths.domains, { team_id, domain }));
}

export function useDeleteDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainKeys.all }),
  });
}
