import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DomainIdentity } from '../../../../../shared/domain';
import { api, withQuery } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export interface DomainRef {
  team_id: string;
  domain: string;
}

export function verifyDomain({ team_id, domain }: DomainRef): Promise<DomainIdentity> {
  return api.post<DomainIdentity>(withQuery(apiPaths.domainVerify, { team_id, domain }));
}

/** Runs a verification check now; the answer carries every record's new status. */
export function useVerifyDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyDomain,
    onSuccess: (identity) => {
      queryClient.setQueriesData<DomainIdentity[]>({ queryKey: domainKeys.lists() }, (old) => old?.map((d) => (d.id === identity?.id ? identity : d)));
      void queryClient.invalidateQueries({ queryKey: domainKeys.all });
    },
  });
}
