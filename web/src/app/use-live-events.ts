import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribeToLiveEvents, type LiveStatus } from '../lib/live-events';

/** Opens the one SSE stream for the whole app and reports whether it is connected. */
export function useLiveEvents(): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => subscribeToLiveEvents(queryClient, { onStatus: setStatus }), [queryClient]);
  return status;
}
