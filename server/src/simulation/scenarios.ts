import type { OutcomeSource } from './outcomes.js';
import { BUILTIN_SOURCES } from './outcomes.js';
import type { Verifier } from '../domains/verify.js';
import { magicTestNames } from '../domains/verify.js';
import type { Refusal } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import { RuleStore } from '../storage/rules.js';
import { RuleBook } from './rules.js';
import { Chaos, parseChaos, mulberry32, type RandomFactory } from './chaos.js';

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
  /** A rule's refusal of an API send (its code is the HTTP status), or null. */
  apiRefusal(context: SendContext): Refusal | null;
  /** A reply code to give at an SMTP stage instead of accepting, or null. */
  smtpRefusal(stage: SmtpStage, context: SmtpContext): SmtpRefusal | null;
  verifiers(): Verifier[];
  /** The sandbox rules (`/sandbox/rules`). */
  rules: RuleBook;
  /** Seeded random outcomes (`--chaos`, `/sandbox/chaos`). */
  chaos: Chaos;
  /** Registers cleanup for `POST /sandbox/reset` (e.g. scripted domain outcomes). */
  onReset(hook: (teamId: string | null) => void): void;
  /** Runs the reset hooks; the sandbox reset calls it after clearing rules. */
  runResetHooks(teamId: string | null): void;
}

export interface ScenarioOptions {
  db: Db;
  config: Pick<Config, 'chaos' | 'seed'>;
  logger: Logger;
  now: () => number;
  /** Domain verifiers in precedence order (CONTRACT §5); the chain ends in "every record success". */
  verifiers?: Verifier[];
  /** The chaos generator; injectable so tests are exact. */
  random?: RandomFactory;
}

/**
 * Outcome precedence (CONTRACT §4): rules → X-Sendbox-Outcome header → plus-tag →
 * simulator address → .invalid domain → seeded chaos → delivered (decideOutcome's default).
 * Throws ConfigError for a bad --chaos.
 */
export function createScenarios(options: ScenarioOptions): Scenarios {
  const rules = new RuleBook(new RuleStore(options.db), options.now, options.logger);
  const chaos = new Chaos(parseChaos(options.config.chaos), options.config.seed, options.random ?? mulberry32);
  if (chaos.enabled) {
    const { rates, seed } = chaos.settings();
    options.logger.info(`chaos ${Object.entries(rates).filter(([, r]) => r > 0).map(([o, r]) => `${o}=${r}`).join(',')} seed ${seed}`);
  }
  const verifiers = options.verifiers ?? [magicTestNames];
  const resetHooks: ((teamId: string | null) => void)[] = [];

  return {
    outcomeSources() {
      const ruleSource = rules.outcomeSource();
      // The common case (no rules, no chaos) shares one array: nothing is allocated per email.
      if (!ruleSource && !chaos.enabled) return BUILTIN_SOURCES;
      const sources = ruleSource ? [ruleSource, ...BUILTIN_SOURCES] : [...BUILTIN_SOURCES];
      if (chaos.enabled) sources.push(chaos.source);
      return sources;
    },
    apiRefusal: (context) => rules.apiRefusal(context),
    smtpRefusal: (stage, context) => rules.smtpRefusal(stage, context),
    verifiers: () => verifiers,
    rules,
    chaos,
    onReset: (hook) => void resetHooks.push(hook),
    runResetHooks: (teamId) => {
      for (const hook of resetHooks) hook(teamId);
    },
  };
}
