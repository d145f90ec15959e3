import type { Outcome } from './outcomes.js';

/**
 * Realistic SMTP replies of a receiving server, per stage. Codes follow RFC 5321 §4.2
 * and the enhanced status codes of RFC 3463.
 */
export interface Reply {
  code: string;
  response: string;
}

export const mxHost = (recipient: string) => `mx.${recipient.slice(recipient.lastIndexOf('@') + 1).toLowerCase()}`;

export function queuedReply(emailId: string): Reply {
  return { code: '250', response: `2.0.0 Ok: queued as ${emailId}` };
}

export function deferredReply(): Reply {
  return { code: '451', response: '4.7.1 Greylisted: please try again later' };
}

/** The final reply for an outcome, unless a rule or source gave its own. */
export function finalReply(outcome: Exclude<Outcome, 'deferred' | 'complaint'>, recipient: string, emailId: string, time: number): Reply {
  switch (outcome) {
    case 'delivered':
      return { code: '250', response: `2.0.0 OK ${Math.floor(time / 1000)} ${emailId} - accepted for delivery` };
    case 'bounced':
      return { code: '550', response: `5.1.1 <${recipient}>: Recipient address rejected: User unknown in virtual mailbox table` };
    case 'failed':
      return { code: '554', response: '5.7.1 Message rejected: content policy violation' };
  }
}

export const complaintReply: Reply = { code: '', response: 'Complaint received: the recipient marked this email as spam (feedback loop report)' };

// RFC 3463 enhanced codes that usually come with each basic reply code.
const TEXT_BY_CODE: Record<string, string> = {
  '250': '2.0.0 OK',
  '421': '4.3.2 Service not available, closing transmission channel',
  '450': '4.2.1 Mailbox temporarily unavailable',
  '451': '4.7.1 Temporary local problem, please try again later',
  '452': '4.2.2 Mailbox full, try again later',
  '550': '5.1.1 Mailbox unavailable: user unknown',
  '551': '5.1.6 User not local',
  '552': '5.2.2 Mailbox full',
  '553': '5.1.3 Mailbox name not allowed',
  '554': '5.7.1 Transaction failed: message rejected',
};

/** A realistic reply text for a code a rule gave without one. */
export function defaultResponse(code: string | number): string {
  const value = String(code);
  return TEXT_BY_CODE[value] ?? `${value[0]}.0.0 ${value[0] === '2' ? 'OK' : value[0] === '4' ? 'Temporary failure, please try again later' : 'Permanent failure'}`;
}
