import type { OutcomeSource } from '../delivery/outcomes.js';
import { BUILTIN_SOURCES } from '../delivery/outcomes.js';
import type { Verifier } from '../domains/verify.js';
import { magicTestNames } from '../domains/verify.js';
import type { ApiError } from '../http/errors.js';

/** What a rule may match on at the API stage of a send. */
export interface SendContext {
  teamId: string;
  from: string;
  recipients: string[];
  subject: string;
  headers: Map<string, string>;
}

/**
 * The scenario engine's seams: outcome sources in precedence order, API-stage
 * refusals and domain verifiers. The sandbox API (rules, chaos, scripts) plugs in here.
 */
export interface Scenarios {
  outcomeSources(): OutcomeSource[];
  /** An error to answer instead of accepting an API send, or null. */
  apiRefusal(context: SendContext): ApiError | null;
  verifiers(): Verifier[];
}

export function defaultScenarios(): Scenarios {
  return {
    outcomeSources: () => BUILTIN_SOURCES,
    apiRefusal: () => null,
    verifiers: () => [magicTestNames],
  };
}
