import type { LiveStatus } from '../lib/live-events';

const TEXT: Record<LiveStatus, string> = { connecting: 'Connecting…', live: 'Live', offline: 'Reconnecting…' };

/** Whether new mail will show up by itself (the SSE stream is open). */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <span className={`live live-${status}`} role="status" title={status === 'live' ? 'New emails appear without reloading' : 'Live updates are not connected'}>
      <span className="live-dot" aria-hidden="true" />
      {TEXT[status]}
    </span>
  );
}
