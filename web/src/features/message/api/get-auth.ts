import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthResult } from '../../../../../shared/lab';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';
import { labKeys } from './lab-keys';

export function getAuth(id: string, signal?: AbortSignal): Promise<AuthResult> {
  return api.get<AuthResult>(apiPaths.emailAuth(id), signal);
}

/** DKIM, SPF and DMARC as a receiver sees them; refetched on focus, since verifying the domain changes the verdict. */
export function useAuth(id: string) {
  return useQuery(queryOptions({ queryKey: labKeys.check(id, 'auth'), queryFn: ({ signal }) => getAuth(id, signal) }));
}
