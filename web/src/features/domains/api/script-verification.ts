import { useMutation } from '@tanstack/react-query';
import type { DomainStatus, RecordKey } from '../../../../../shared/domain';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';

/** What the next verification check(s) of a domain answer (CONTRACT §8, domain scripting). */
export type VerificationScript =
  | { status: DomainStatus }
  | { records: Partial<Record<RecordKey, 'success' | 'failed' | 'pending'>> }
  | { sequence: DomainStatus[] };

export function scriptVerification({ domain, team_id, script }: { domain: string; team_id?: string; script: VerificationScript }): Promise<unknown> {
  return api.put(apiPaths.domainVerification(domain), { ...script, team_id });
}

export function useScriptVerification() {
  return useMutation({ mutationFn: scriptVerification });
}
