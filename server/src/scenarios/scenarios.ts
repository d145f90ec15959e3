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

/** What an SMTP-stage rule sees: known so far at MAIL FROM, RCPT TO or DATA. */
export interface SmtpContext {
  teamId: string;
  from: string;
  /** The recipient being checked (rcpt), or all recipients (data). */
  recipients: string[];
  /** Only at DATA: the parsed subject and headers. */
  subject?: string;
  headers?: Map<string, string>;
}

export interface SmtpRefusal {
  code: number;
  message: string;
  delayMs: number;
  disconnect: boolean;
}

export type SmtpStage = 'mail' | 'rcpt' | 'data';

/**
 * The scenario engine's seams: outcome sources in precedence order, API-stage and
 * SMTP-stage refusals, and domain verifiers. The sandbox API (rules, chaos, scripts)
 * plugs in here; transports and storage only ever call these.
 */
export interface Scenarios {
  outcomeSources(): OutcomeSource[];
  /** An error to answer instead of accepting an API send, or null. */
  apiRefusal(context: SendContext): ApiError | null;
  /** A reply code to give at an SMTP stage instead of accepting, or null. */
  smtpRefusal(stage: SmtpStage, context: SmtpContext): SmtpRefusal | null;
  verifiers(): Verifier[];
}

export function defaultScenarios(): Scenarios {
  return {
    outcomeSources: () => BUILTIN_SOURCES,
    apiRefusal: () => null,
    smtpRefusal: () => null,
    verifiers: () => [magicTestNames],
  };
}
