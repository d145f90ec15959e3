import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HtmlCheckResult } from '../../../../../shared/lab';
import { api } from '../../../lib/api-client';
import { apiPaths } from '../../../paths';
import { labKeys } from './lab-keys';

export function getHtmlCheck(id: string, signal?: AbortSignal): Promise<HtmlCheckResult> {
  return api.get<HtmlCheckResult>(apiPaths.emailHtmlCheck(id), signal);
}

/** HTML and CSS client compatibility of one email (the stored HTML never changes: fetched once). */
export function useHtmlCheck(id: string) {
  return useQuery(queryOptions({ queryKey: labKeys.check(id, 'html-check'), queryFn: ({ signal }) => getHtmlCheck(id, signal), staleTime: Infinity }));
}
