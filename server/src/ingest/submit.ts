import { addressDomain, parseAddress } from '../../../shared/address.js';
import type { Config } from '../config.js';
import type { DomainStore } from '../storage/domains.js';
import type { Scenarios } from '../simulation/scenarios.js';
import { Refused, type Refusal } from '../errors.js';
import type { Ingest, IngestInput, IngestResult } from './ingest.js';

/** Who submits: the key's team and id (SMTP without AUTH: team_smtp, key 0). */
export interface Submitter {
  teamId: string;
  apiKeyId: number;
}

/** A parsed message as both transports hand it over; `flags` are decided here. */
export type Submission = Omit<IngestInput, 'teamId' | 'apiKeyId' | 'flags'>;

export type Submit = (message: Submission, by: Submitter) => Promise<IngestResult>;

/**
 * The one door for mail, whichever way it arrives (STYLE 7): sender policy, the sandbox
 * rules that refuse a send (`api` for /v1/send, `data` for SMTP), then the ingest pipeline.
 * A refusal is thrown as `Refused` holding a transport-neutral value; the HTTP layer answers
 * it with the contract's JSON, the SMTP layer with a reply (after its delay, maybe closing).
 */
export function createSubmit(deps: { config: Pick<Config, 'defaultFrom' | 'strictSender'>; domains: DomainStore; scenarios: Scenarios; ingest: Ingest }): Submit {
  const { config, domains, scenarios, ingest } = deps;
  const defaultSender = parseAddress(config.defaultFrom)?.address.toLowerCase();

  // Not async: a suspended frame would hold the whole message until its commit. Whatever
  // throws on the way is still answered as a rejected promise, as before.
  return (message, by) => {
    try {
      return submitNow(message, by);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  function submitNow(message: Submission, by: Submitter): Promise<IngestResult> {
    const from = message.from.address;
    const verifiedSender = from.toLowerCase() === defaultSender || domains.isVerifiedForSending(by.teamId, addressDomain(from));
    // Before the rules, so a send refused anyway does not use up a rule's `times` or `nth`.
    if (config.strictSender && !verifiedSender) {
      throw new Refused({ stage: message.source === 'api' ? 'api' : 'data', reason: 'unverified_sender', code: null, message: `Sender ${from} is not at a verified domain of this team; verify ${addressDomain(from)} first`, retryAfter: null, delayMs: 0, disconnect: false });
    }
    const refusal = ruleRefusal(scenarios, message, by);
    if (refusal) throw new Refused(refusal);
    return ingest.ingest({ ...message, teamId: by.teamId, apiKeyId: by.apiKeyId, flags: verifiedSender ? {} : { unverified_sender: true } });
  }
}

function ruleRefusal(scenarios: Scenarios, message: Submission, by: Submitter): Refusal | null {
  const recipients = [...message.to, ...message.cc, ...message.bcc].map((a) => a.address);
  const context = { teamId: by.teamId, from: message.from.address, recipients, subject: message.subject, headers: message.headers };
  if (message.source === 'api') return scenarios.apiRefusal(context);
  const smtp = scenarios.smtpRefusal('data', context);
  return smtp && { stage: 'data', reason: 'rule', code: smtp.code, message: smtp.message, retryAfter: null, delayMs: smtp.delayMs, disconnect: smtp.disconnect };
}
