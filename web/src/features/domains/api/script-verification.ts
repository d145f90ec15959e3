import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VerificationScript, VerificationScriptInput } from '../../../../../shared/domain-scripts';
import { api } from '../../../lib/api-client';
import { domainKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function scriptVerification({ domain, script }: { domain: string; script: VerificationScriptInput }): Promise<VerificationScript> {
  return api.put<VerificationScript>(apiPaths.domainVerification(domain), script);
}

/** Decides what the next verification check(s) of a domain answer (CONTRACT §8, domain scripting). */
export function useScriptVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scriptVerification,
    onSettled: (_data, _error, { domain }) => queryClient.invalidateQueries({ queryKey: domainKeys.scripts(domain) }),
  });
}
