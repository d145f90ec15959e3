import type { Config } from '../config.js';
import type { DomainScriptStore } from '../storage/domain-scripts.js';
import { realDns } from './real-dns.js';
import { scriptedOutcomes } from './scripts.js';
import { magicTestNames, type Verifier } from './verify.js';

/**
 * The verifier chain of CONTRACT §5, first match wins: a scripted outcome → the magic
 * `.test` names → real DNS (with --dns real). `runVerifiers` ends it with every record
 * success. Built once: the real-DNS verifier caches the resolver address.
 */
export function domainVerifiers(scripts: DomainScriptStore, config: Pick<Config, 'dns' | 'dnsServer' | 'dnsTimeoutMs'>): Verifier[] {
  const chain: Verifier[] = [scriptedOutcomes(scripts), magicTestNames];
  if (config.dns === 'real') chain.push(realDns({ server: config.dnsServer, timeoutMs: config.dnsTimeoutMs }));
  return chain;
}
