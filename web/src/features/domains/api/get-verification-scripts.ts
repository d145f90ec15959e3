import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VerificationScript } from '../../../../../shared/domain-scripts';
import { api } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getVerificationScripts(domain: string, signal?: AbortSignal): Promise<VerificationScript[]> {
  return api.get<VerificationScript[]>(apiPaths.domainVerification(domain), signal);
}

export const verificationScriptsQueryOptions = (domain: string) =>
  queryOptions({ queryKey: domainKeys.scripts(domain), queryFn: ({ signal }) => getVerificationScripts(domain, signal) });

/** The scripted outcomes still waiting for the next checks of a domain. */
export function useVerificationScripts(domain: string) {
  return useQuery(verificationScriptsQueryOptions(domain));
}
