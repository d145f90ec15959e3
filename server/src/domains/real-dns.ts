import { Resolver } from 'node:dns/promises';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseDnsServer } from '../dns-server.js';
import type { DomainErrorType, RecordKey } from '../../../shared/domain.js';
import { RECORD_KEYS } from '../../../shared/domain.js';
import type { DomainRow } from '../storage/domains.js';
import type { CheckResult, Verifier } from './verify.js';

// Parsed in dns-server.ts, which config.ts uses too; kept exported here for existing callers.
export { parseDnsServer };

/**
 * `--dns real` (CONTRACT §5 step 3): each record is looked up in DNS and compared with
 * what sendbox asked the team to publish. Matching → success; absent → failed with
 * HOST_NOT_FOUND (NXDOMAIN) or TYPE_NOT_FOUND (the name exists without that type);
 * present but different → failed with INVALID_VALUE; any resolver error or timeout →
 * temporary_failure with DNS_SERVER_ERROR, so the records keep their previous status.
 */

export interface RealDnsOptions {
  /** `host[:port]`, `[v6]:port` or a bare IP; absent: the system's resolvers. */
  server?: string;
  /** Per query; short, because a person is waiting on the verify call. */
  timeoutMs: number;
  tries?: number;
}

/** One record's lookup: the values found, the name/type missing, or a resolver failure. */
type Lookup = { found: string[] } | { missing: 'HOST_NOT_FOUND' | 'TYPE_NOT_FOUND' } | { error: string };


/** `Resolver.setServers` takes IP addresses only, so a host name is looked up once. */
async function serverAddress(server: { host: string; port: number }): Promise<string> {
  const ip = isIP(server.host) ? server.host : (await lookup(server.host)).address;
  return isIP(ip) === 6 ? `[${ip}]:${server.port}` : `${ip}:${server.port}`;
}

function classify(error: unknown): Lookup {
  const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
  if (code === 'ENOTFOUND') return { missing: 'HOST_NOT_FOUND' };
  if (code === 'ENODATA') return { missing: 'TYPE_NOT_FOUND' };
  return { error: code };
}

async function txt(resolver: Resolver, name: string): Promise<Lookup> {
  try {
    // A long TXT value (a DKIM key) arrives as several ≤255-byte strings (RFC 7208 §3.3).
    return { found: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (error) {
    return classify(error);
  }
}

async function cname(resolver: Resolver, name: string): Promise<Lookup> {
  try {
    return { found: await resolver.resolveCname(name) };
  } catch (error) {
    return classify(error);
  }
}

/** DKIM tags (RFC 6376 §3.6.1): whitespace inside a value, such as a wrapped key, does not count. */
function dkimMatches(value: string, publicKey: string): boolean {
  const tags = new Map(value.split(';').map((tag) => {
    const at = tag.indexOf('=');
    return [tag.slice(0, at).trim().toLowerCase(), tag.slice(at + 1).replace(/\s+/g, '')] as const;
  }));
  const version = tags.get('v');
  return (version === undefined || version === 'DKIM1') && tags.get('p') === publicKey;
}

const hostEquals = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** What each record must look like to count as published. */
function matchers(row: DomainRow): Record<RecordKey, { lookup: (r: Resolver) => Promise<Lookup>; matches: (value: string) => boolean }> {
  const include = `include:${row.spf_include.toLowerCase()}`;
  return {
    dkim: { lookup: (r) => txt(r, `${row.selector}._domainkey.${row.value}`), matches: (v) => dkimMatches(v, row.dkim_public) },
    // Any SPF policy that includes our host: teams often add their own mechanisms.
    spf: { lookup: (r) => txt(r, `send.${row.value}`), matches: (v) => /^v=spf1(\s|$)/i.test(v.trim()) && v.toLowerCase().split(/\s+/).includes(include) },
    bounce: { lookup: (r) => cname(r, `bounce.${row.value}`), matches: (v) => hostEquals(v, row.bounce_host) },
    // Any DMARC policy counts: p=quarantine or p=reject is stricter than the p=none we suggest.
    dmarc: { lookup: (r) => txt(r, `_dmarc.${row.value}`), matches: (v) => /^v=DMARC1\s*(;|$)/i.test(v.trim()) },
  };
}

export function realDns(options: RealDnsOptions): Verifier {
  const server = options.server === undefined ? null : parseDnsServer(options.server);
  if (options.server !== undefined && !server) throw new Error(`--dns-server must be host[:port], got "${options.server}"`);
  let address: Promise<string> | null = null;

  return async (row): Promise<CheckResult> => {
    const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries ?? 2 });
    if (server) {
      try {
        address ??= serverAddress(server);
        resolver.setServers([await address]);
      } catch {
        address = null;
        return { records: {}, overall: 'temporary_failure', errorType: 'DNS_SERVER_ERROR', decidedBy: 'dns' };
      }
    }
    const checks = matchers(row);
    const lookups = await Promise.all(RECORD_KEYS.map((key) => checks[key].lookup(resolver)));
    if (lookups.some((l) => 'error' in l)) return { records: {}, overall: 'temporary_failure', errorType: 'DNS_SERVER_ERROR', decidedBy: 'dns' };

    const records: CheckResult['records'] = {};
    let errorType: DomainErrorType | undefined;
    RECORD_KEYS.forEach((key, i) => {
      const lookup = lookups[i];
      const reason = 'missing' in lookup ? lookup.missing : 'found' in lookup && !lookup.found.some(checks[key].matches) ? 'INVALID_VALUE' : null;
      records[key] = reason ? 'failed' : 'success';
      // The first failing record, in the order the records are listed, names the error.
      if (reason) errorType ??= reason;
    });
    return { records, errorType, decidedBy: 'dns' };
  };
}
