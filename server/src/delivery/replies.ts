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
