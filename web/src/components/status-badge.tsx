import type { EmailStatus } from '../../../shared/email';
import type { DomainStatus, RecordStatus } from '../../../shared/domain';

type Tone = 'green' | 'red' | 'amber' | 'blue' | 'purple' | 'gray';

const TONES: Record<string, Tone> = {
  delivered: 'green',
  success: 'green',
  verified: 'green',
  queued: 'blue',
  processing: 'gray',
  pending: 'amber',
  deferred: 'amber',
  temporary_failure: 'amber',
  not_started: 'gray',
  bounced: 'red',
  failed: 'red',
  complaint: 'purple',
  error: 'red',
  warning: 'amber',
  info: 'blue',
};

const LABELS: Record<string, string> = {
  temporary_failure: 'temporary failure',
  not_started: 'not started',
  '': 'not checked',
};

/** A colored pill for any status word the inbox shows; the word itself is always the text. */
export function StatusBadge({ status, label }: { status: EmailStatus | DomainStatus | RecordStatus | string; label?: string }) {
  const tone = TONES[status] ?? 'gray';
  return <span className={`badge tone-${tone}`}>{label ?? LABELS[status] ?? status}</span>;
}
