import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribeToLiveEvents, type LiveStatus } from '../lib/live-events';
import { navigate } from '../lib/router';
import { pagePaths } from '../paths';
import { notifyNewEmail } from '../features/notifications/notify';

/** Opens the one SSE stream for the whole app and reports whether it is connected. */
export function useLiveEvents(): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => subscribeToLiveEvents(queryClient, { onStatus: setStatus, onEmailCreated: (email) => notifyNewEmail(email, (id) => navigate(pagePaths.email(id))) }), [queryClient]);
  return status;
}
