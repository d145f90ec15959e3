import { z } from 'zod';
import { RECORD_KEYS } from '../../../shared/domain.js';
import type { ScriptStep, VerificationScript } from '../../../shared/domain-scripts.js';
import type { Services } from '../context.js';
import { ANY_TEAM, type DomainScriptRow, type DomainScriptStore } from '../storage/domain-scripts.js';
import { iso } from '../clock.js';
import { invalidFromZod, notFound } from '../errors.js';
import { domainName } from './service.js';
import type { CheckResult, Verifier } from './verify.js';

/**
 * Scripted verification outcomes (CONTRACT §5 step 1): `PUT /sandbox/domains/{domain}/verification`
 * stores a queue of steps; each check takes the next one, and an empty queue falls
 * back to the rest of the chain.
 */

const STATUSES = ['success', 'pending', 'failed', 'temporary_failure'] as const;
const RECORD_STATUSES = ['success', 'pending', 'failed'] as const;
const ERROR_TYPES = ['HOST_NOT_FOUND', 'TYPE_NOT_FOUND', 'INVALID_VALUE', 'DNS_SERVER_ERROR', 'SERVICE_ERROR'] as const;
const MAX_SEQUENCE = 100;
/** What a team id looks like (letters, digits, `_`, `.`, `-`), as /sandbox/reset accepts it. */
export const TEAM_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const status = z.enum(STATUSES, { error: `status must be one of ${STATUSES.join(', ')}` });
const recordStatus = z.enum(RECORD_STATUSES, { error: `a record status must be one of ${RECORD_STATUSES.join(', ')}` });
const records = z.strictObject(
  Object.fromEntries(RECORD_KEYS.map((key) => [key, recordStatus.optional()])) as Record<(typeof RECORD_KEYS)[number], z.ZodOptional<typeof recordStatus>>,
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `records takes only ${RECORD_KEYS.join(', ')}` : 'records must be an object such as {"dkim": "failed"}') },
);
const errorType = z.enum(ERROR_TYPES, { error: `error_type must be one of ${ERROR_TYPES.join(', ')}` });

const stepFields = { status: status.optional(), records: records.optional(), error_type: errorType.optional() };

function checkStep(step: ScriptStep, ctx: z.core.$RefinementCtx<unknown>): void {
  if (step.status === undefined && step.records === undefined) ctx.addIssue({ code: 'custom', message: 'give a status or records', path: ['status'] });
  if (step.status === 'temporary_failure' && step.records !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'temporary_failure keeps the previous record statuses, so it takes no records', path: ['records'] });
  }
}

// A sequence entry is a status ("pending") or a step ({"records": {...}}).
const sequenceStep = z.preprocess(
  (value) => (typeof value === 'string' ? { status: value } : value),
  z.strictObject(stepFields, { error: 'a sequence entry must be a status or an object {status?, records?, error_type?}' }).superRefine(checkStep),
).meta({ description: 'A status ("pending") or a step {status?, records?, error_type?}' });

/** The body of `PUT /sandbox/domains/{domain}/verification` (also the OpenAPI document's). */
export const verificationScriptRequestSchema = z
  .strictObject(
    { ...stepFields, sequence: z.array(sequenceStep, { error: 'sequence must be an array' }).min(1, 'sequence must not be empty').max(MAX_SEQUENCE, `sequence takes at most ${MAX_SEQUENCE} steps`).optional(), team_id: z.string({ error: 'team_id must be a string' }).regex(TEAM_ID, 'team_id must be a team id such as team_0123456789ab').optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}: use status, records, error_type, sequence or team_id` : undefined) },
  )
  .superRefine((body, ctx) => {
    if (body.sequence !== undefined) {
      if (body.status !== undefined || body.records !== undefined || body.error_type !== undefined) ctx.addIssue({ code: 'custom', message: 'give either a sequence or one status/records step, not both', path: ['sequence'] });
      return;
    }
    checkStep(body, ctx);
  });

/** Validates a script body (422 naming the field) and returns its steps. */
export function parseScript(body: unknown): { steps: ScriptStep[]; teamId?: string } {
  const parsed = verificationScriptRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const { sequence, team_id, ...step } = parsed.data;
  const clean = (s: ScriptStep): ScriptStep => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as ScriptStep;
  return { steps: (sequence ?? [step]).map(clean), teamId: team_id };
}

/** What a scripted step means for one check. */
export function scriptedCheck(step: ScriptStep): CheckResult {
  if (step.status === 'temporary_failure') {
    return { records: {}, overall: 'temporary_failure', errorType: step.error_type ?? 'DNS_SERVER_ERROR', decidedBy: 'script' };
  }
  // Records not named take the overall status, or succeed when only records were given.
  const base = step.status ?? 'success';
  const recordStatuses = Object.fromEntries(RECORD_KEYS.map((key) => [key, step.records?.[key] ?? base])) as CheckResult['records'];
  const anyFailed = Object.values(recordStatuses).includes('failed') || step.status === 'failed';
  return {
    records: recordStatuses,
    overall: step.status,
    // An unpublished record is the usual reason a new domain fails, as with failed.<name>.test.
    errorType: anyFailed ? (step.error_type ?? 'HOST_NOT_FOUND') : undefined,
    decidedBy: 'script',
  };
}

/** The first verifier of the chain: the next scripted step of this domain and team. */
export function scriptedOutcomes(store: DomainScriptStore): Verifier {
  return (domain) => {
    const step = store.take(domain.value, domain.team_id);
    return step ? scriptedCheck(step) : null;
  };
}

export function presentScript(row: DomainScriptRow): VerificationScript {
  return { domain: row.domain, team_id: row.team_id === ANY_TEAM ? null : row.team_id, steps: JSON.parse(row.steps) as ScriptStep[], created_at: iso(row.created_at) };
}

/**
 * Sets a script. With `team_id` it replaces that team's script; without, it replaces every
 * script of the domain with one per team that has it, or, when no team has it yet, one
 * waiting for the first team that checks it.
 */
export function setScript(services: Pick<Services, 'domains' | 'clock'>, store: DomainScriptStore, domainInput: string, body: unknown): VerificationScript[] {
  const domain = domainName(domainInput, 'domain');
  const { steps, teamId } = parseScript(body);
  const now = services.clock.now();
  if (teamId !== undefined) {
    store.set(domain, teamId, steps, now);
  } else {
    const teams = services.domains.findAllTeams(domain).map((row) => row.team_id);
    store.clear(domain);
    for (const team of teams.length ? teams : [ANY_TEAM]) store.set(domain, team, steps, now);
  }
  return store.list(domain).map(presentScript);
}

/** Drops the scripts of a domain (one team's with `teamId`); 404 when there was none. */
export function clearScript(store: DomainScriptStore, domainInput: string, teamId: string | undefined): number {
  const domain = domainName(domainInput, 'domain');
  const removed = store.clear(domain, teamId);
  if (removed === 0) throw notFound(`No verification script for ${domain}${teamId ? ` and team ${teamId}` : ''}`);
  return removed;
}
