import type { DomainErrorType, DomainStatus, RecordKey, RecordStatus } from '../../../shared/domain.js';
import { RECORD_KEYS } from '../../../shared/domain.js';
import type { DomainRow, RecordStatuses, VerificationUpdate } from '../storage/domains.js';

/**
 * Domain verification (CONTRACT §5), first match wins: a scripted outcome → the magic
 * `.test` names → real DNS (with --dns real) → every record success.
 */
export interface CheckResult {
  /** Per-record statuses; ignored when `overall` is temporary_failure. */
  records: Partial<Record<RecordKey, Exclude<RecordStatus, ''>>>;
  overall?: DomainStatus;
  errorType?: DomainErrorType;
  decidedBy: string;
}

export type Verifier = (domain: DomainRow) => Promise<CheckResult | null> | CheckResult | null;

const allRecords = (status: Exclude<RecordStatus, ''>) => Object.fromEntries(RECORD_KEYS.map((k) => [k, status])) as Record<RecordKey, Exclude<RecordStatus, ''>>;

/** `failed.acme.test`, `pending.acme.test`, `tempfail.acme.test` (RFC 2606 reserves .test). */
export const magicTestNames: Verifier = (domain) => {
  if (!domain.value.endsWith('.test')) return null;
  switch (domain.value.split('.')[0]) {
    case 'failed':
      return { records: allRecords('failed'), errorType: 'HOST_NOT_FOUND', decidedBy: 'test-domain' };
    case 'pending':
      return { records: allRecords('pending'), decidedBy: 'test-domain' };
    case 'tempfail':
      return { records: {}, overall: 'temporary_failure', errorType: 'DNS_SERVER_ERROR', decidedBy: 'test-domain' };
    default:
      return null;
  }
};

export const everythingSucceeds: Verifier = () => ({ records: allRecords('success'), decidedBy: 'default' });

/** Worst record wins: failed > pending > not_started > success. */
export function overallStatus(records: RecordStatuses): DomainStatus {
  const values = RECORD_KEYS.map((k) => records[k]).filter((s) => s !== '');
  for (const worst of ['failed', 'pending', 'not_started'] as const) if (values.includes(worst)) return worst;
  return 'success';
}

/** Applies a check to a domain: the new status, records, error type and dates. */
export function applyCheck(domain: DomainRow, result: CheckResult, now: number): VerificationUpdate {
  const previous = JSON.parse(domain.records) as RecordStatuses;
  if (result.overall === 'temporary_failure') {
    // The records keep their previous status; a verified domain stays able to send.
    return {
      status: 'temporary_failure',
      records: previous,
      errorType: result.errorType ?? 'DNS_SERVER_ERROR',
      checkedAt: now,
      verifiedAt: domain.verified_at,
      verifiedForSending: domain.verified_for_sending === 1,
    };
  }
  const records = { ...previous } as RecordStatuses;
  for (const key of RECORD_KEYS) {
    const next = result.records[key];
    if (next) records[key] = next;
    // DMARC's status follows the others after the first check.
    else if (key === 'dmarc' && records.dmarc === '') records.dmarc = overallStatus({ ...records, dmarc: '' }) as Exclude<RecordStatus, ''>;
  }
  const status = result.overall ?? overallStatus(records);
  const success = status === 'success';
  const errorType: DomainErrorType = status === 'failed' ? (result.errorType ?? 'INVALID_VALUE') : '';
  return {
    status,
    records,
    errorType,
    checkedAt: now,
    verifiedAt: success ? (domain.verified_at ?? now) : domain.verified_at,
    verifiedForSending: success,
  };
}

export async function runVerifiers(verifiers: Verifier[], domain: DomainRow): Promise<CheckResult> {
  for (const verifier of verifiers) {
    const result = await verifier(domain);
    if (result) return result;
  }
  return everythingSucceeds(domain) as CheckResult;
}
