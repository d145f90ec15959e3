/**
 * Scripted domain verification (CONTRACT §5, §8): the body of
 * `PUT /sandbox/domains/{domain}/verification` and what the sandbox answers.
 * Plain types only, so the typed client stays dependency-free.
 */
import type { DomainErrorType, RecordKey } from './domain.js';

/** What a check may be scripted to answer overall. */
export type ScriptedStatus = 'success' | 'pending' | 'failed' | 'temporary_failure';
/** What a check may be scripted to answer for one record. */
export type ScriptedRecordStatus = 'success' | 'pending' | 'failed';

/** The outcome of one check. Records not listed get `status` (or `success` without it). */
export interface ScriptStep {
  status?: ScriptedStatus;
  records?: Partial<Record<RecordKey, ScriptedRecordStatus>>;
  /** Overrides the error type of a failed or temporary_failure check. */
  error_type?: Exclude<DomainErrorType, ''>;
}

/**
 * One check (`{status}`, `{records}`, both) or a sequence consumed one per check
 * (`{sequence: ["pending", "success"]}`; entries are statuses or steps).
 * Without `team_id`, it applies to every team that has the domain.
 */
export type VerificationScriptInput = (ScriptStep | { sequence: (ScriptedStatus | ScriptStep)[] }) & { team_id?: string };

/** A pending script: `team_id` null means "the first team that checks this domain". */
export interface VerificationScript {
  domain: string;
  team_id: string | null;
  /** The steps still to be consumed, the next one first. */
  steps: ScriptStep[];
  created_at: string;
}
