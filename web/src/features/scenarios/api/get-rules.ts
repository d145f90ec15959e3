import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Rule } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getRules(signal?: AbortSignal): Promise<Rule[]> {
  return api.get<Rule[]>(apiPaths.rules, signal);
}

export const rulesQueryOptions = () => queryOptions({ queryKey: scenarioKeys.rules(), queryFn: ({ signal }) => getRules(signal) });

export function useRules() {
  return useQuery(rulesQueryOptions());
}
