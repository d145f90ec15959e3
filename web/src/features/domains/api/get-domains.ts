import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DomainIdentity } from '../../../../../shared/domain';
import { api, withQuery } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getDomains(teamId: string | null, signal?: AbortSignal): Promise<DomainIdentity[]> {
  return api.get<DomainIdentity[]>(withQuery(apiPaths.domains, { team_id: teamId }), signal);
}

export const domainsQueryOptions = (teamId: string | null) =>
  queryOptions({
    queryKey: domainKeys.list(teamId),
    queryFn: ({ signal }) => getDomains(teamId, signal),
  });

/** The domains of one team, or of every team when teamId is null. */
export function useDomains(teamId: string | null) {
  return useQuery(domainsQueryOptions(teamId));
}
