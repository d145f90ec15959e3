import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DomainIdentity } from '../../../../../shared/domain';
import { api } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export interface AddDomainInput {
  team_id: string;
  value: string;
}

export function addDomain(input: AddDomainInput): Promise<DomainIdentity> {
  return api.post<DomainIdentity>(apiPaths.domains, input);
}

export function useAddDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainKeys.all }),
  });
}
