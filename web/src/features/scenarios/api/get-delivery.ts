import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeliveryState } from '../../../../../shared/sandbox';
import { api } from '../../../lib/api-client';
import { scenarioKeys } from '../../../lib/query-keys';
import { apiPaths } from '../../../paths';

export function getDelivery(signal?: AbortSignal): Promise<DeliveryState> {
  return api.get<DeliveryState>(apiPaths.delivery, signal);
}

export const deliveryQueryOptions = () => queryOptions({ queryKey: scenarioKeys.delivery(), queryFn: ({ signal }) => getDelivery(signal) });

/** Whether the delivery clock is paused. */
export function useDelivery() {
  return useQuery(deliveryQueryOptions());
}
