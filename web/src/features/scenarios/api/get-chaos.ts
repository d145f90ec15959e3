import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChaosSettings } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getChaos(signal?: AbortSignal): Promise<ChaosSettings> {
  return api.get<ChaosSettings>(apiPaths.chaos, signal);
}

export const chaosQueryOptions = () => queryOptions({ queryKey: scenarioKeys.chaos(), queryFn: ({ signal }) => getChaos(signal) });

export function useChaos() {
  return useQuery(chaosQueryOptions());
}
