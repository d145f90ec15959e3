/**
 * Which outcome a recipient gets (CONTRACT §4), first match wins:
 * rule → X-Sendbox-Outcome header → plus-tag → simulator address → .invalid domain → chaos → delivered.
 * Each source is a small function; the scenario engine adds rules and chaos in front of the defaults.
 */
export const OUTCOMES = ['delivered', 'deferred', 'bounced', 'failed', 'complaint'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface OutcomeDecision {
  outcome: Outcome;
  /** Overrides the realistic default SMTP code/response. */
  code?: string;
  response?: string;
  /** Extra delay before the final step. */
  delayMs?: number;
  /** `rule:<id>`, `header`, `plus-tag`, `simulator`, `invalid-domain`, `chaos`, `default`. */
  decidedBy: string;
}

/** What a source sees of the email being decided. */
export interface OutcomeContext {
  teamId: string;
  from: string;
  subject: string;
  /** Header names lower-cased. */
  headers: Map<string, string>;
}

export type OutcomeSource = (recipient: string, context: OutcomeContext) => OutcomeDecision | null;

const isOutcome = (value: string): value is Outcome => (OUTCOMES as readonly string[]).includes(value);

export const fromHeader: OutcomeSource = (_recipient, context) => {
  const value = context.headers.get('x-sendbox-outcome')?.trim().toLowerCase();
  return value && isOutcome(value) ? { outcome: value, decidedBy: 'header' } : null;
};

export const fromPlusTag: OutcomeSource = (recipient) => {
  const local = recipient.slice(0, recipient.lastIndexOf('@'));
  const plus = local.indexOf('+');
  if (plus < 0) return null;
  const tag = local.slice(plus + 1).toLowerCase();
  return isOutcome(tag) ? { outcome: tag, decidedBy: 'plus-tag' } : null;
};

// Other providers' simulator mailboxes, so existing test data keeps working.
const SIMULATORS: Record<string, Record<string, Outcome>> = {
  'simulator.amazonses.com': { success: 'delivered', bounce: 'bounced', complaint: 'complaint', suppressionlist: 'bounced' },
  'resend.dev': { delivered: 'delivered', bounced: 'bounced', complained: 'complaint' },
};

export const fromSimulatorAddress: OutcomeSource = (recipient) => {
  const at = recipient.lastIndexOf('@');
  const domain = recipient.slice(at + 1).toLowerCase();
  const local = recipient.slice(0, at).toLowerCase().split('+')[0];
  const outcome = SIMULATORS[domain]?.[local];
  if (!outcome) return null;
  // SES's suppression-list address answers with its own rejection text.
  if (domain === 'simulator.amazonses.com' && local === 'suppressionlist') {
    return { outcome, code: '550', response: '5.1.1 Address is on the suppression list', decidedBy: 'simulator' };
  }
  return { outcome, decidedBy: 'simulator' };
};

// RFC 2606: .invalid never resolves, so mail to it bounces as "no such domain".
export const fromInvalidDomain: OutcomeSource = (recipient) =>
  /\.invalid$/i.test(recipient) ? { outcome: 'bounced', code: '550', response: '5.1.2 Host or domain name not found. Name service error for name=' + recipient.slice(recipient.lastIndexOf('@') + 1), decidedBy: 'invalid-domain' } : null;

export const BUILTIN_SOURCES: OutcomeSource[] = [fromHeader, fromPlusTag, fromSimulatorAddress, fromInvalidDomain];

/** Runs the sources in order; the first decision wins, else delivered. */
export function decideOutcome(sources: OutcomeSource[], recipient: string, context: OutcomeContext): OutcomeDecision {
  for (const source of sources) {
    const decision = source(recipient, context);
    if (decision) return decision;
  }
  return { outcome: 'delivered', decidedBy: 'default' };
}
