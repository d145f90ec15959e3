import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TagCount } from '../../../../../shared/tags';
import { api, withQuery } from '../../../lib/api-client';
import { tagKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export const tagsQueryOptions = (teamId: string | null) =>
  queryOptions({
    queryKey: tagKeys.list(teamId),
    queryFn: ({ signal }) => api.get<TagCount[]>(withQuery(apiPaths.tags, { team_id: teamId }), signal),
  });

/** The tags in use (in one mailbox, or all) with their email counts. */
export function useTags(teamId: string | null) {
  return useQuery(tagsQueryOptions(teamId));
}
