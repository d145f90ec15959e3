import { useMutation } from '@tanstack/react-query';
import type { LinkCheckResult } from '../../../../../shared/lab';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';

export function checkLinks({ id, maxLinks }: { id: string; maxLinks?: number }): Promise<LinkCheckResult> {
  return api.post<LinkCheckResult>(apiPaths.emailLinkCheck(id), maxLinks === undefined ? {} : { max_links: maxLinks });
}

/** Fetching an email's links reaches other servers, so it runs only when the user asks. */
export function useCheckLinks() {
  return useMutation({ mutationFn: checkLinks });
}
