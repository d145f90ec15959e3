import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Rule, RuleInput } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function createRule(input: RuleInput): Promise<Rule> {
  return api.post<Rule>(apiPaths.rules, input);
}

export function useCreateRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.rules() }),
  });
}
