import { Resolver } from 'node:dns/promises';
import type { AuthResult, AuthVerdict, BulkSenderCheck, DkimSignatureResult } from '../../../shared/lab.js';
import type { Config } from '../config.js';
import type { DomainRow, DomainStore } from '../storage/domains.js';
import type { EmailRow } from '../storage/emails.js';
import { dnsRecords } from '../domains/records.js';
import { parseDnsServer } from '../domains/real-dns.js';

/**
 * Authentication as the provider and a receiver would do it (CONTRACT §9).
 *
 * Signing: mail from a domain of the sending team is DKIM-signed with that domain's key
 * (d=<domain>, s=<selector>, t=<the email's creation time>). RSA-SHA256 (PKCS#1 v1.5) is
 * deterministic, so the signature is computed when the message is read — the `.eml`
 * download, /auth, /spam — and is the same bytes every time: `/v1/send` never waits for
 * an RSA operation, and nothing extra is stored. A domain added after the email was sent
 * did not sign it.
 *
 * Verifying: mailauth checks DKIM, SPF and DMARC on that message, as a receiving MX
 * would, with the DNS answers a receiver would get: the records sendbox generated for a
 * verified domain (as if published), real DNS with `--dns real`, nothing for an
 * unverified or unknown domain.
 */

// mailauth (and the joi, undici… it pulls in) loads on first use, not at start-up.
let mailauthModule: Promise<[typeof import('mailauth'), typeof import('mailauth/lib/dkim/sign.js')]> | null = null;
const mailauth = () => (mailauthModule ??= Promise.all([import('mailauth'), import('mailauth/lib/dkim/sign.js')]));

/** The simulated provider's outbound MTA: a documentation address (RFC 5737), never routable. */
export const OUTBOUND_IP = '192.0.2.25';
const RECEIVER = 'mx.receiver.test';

// mailauth's defaults plus List-Unsubscribe-Post, which bulk-sender rules want signed (RFC 8058 §4).
const SIGNED_HEADERS = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc', 'MIME-Version', 'Content-Type', 'Content-Transfer-Encoding',
  'Content-ID', 'Content-Description', 'In-Reply-To', 'References', 'List-Id', 'List-Help', 'List-Unsubscribe', 'List-Unsubscribe-Post',
  'List-Subscribe', 'List-Post', 'List-Owner', 'List-Archive', 'Feedback-ID',
];

export interface AuthDeps {
  domains: DomainStore;
  config: Pick<Config, 'dns' | 'dnsServer' | 'dnsTimeoutMs' | 'messageHost'>;
}

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '');

/** The team's domain that signs this email: the From domain, if the team had it when the email was created. */
export function signingDomain(deps: Pick<AuthDeps, 'domains'>, row: EmailRow): DomainRow | null {
  const domain = deps.domains.find(row.team_id, domainOf(row.from_address));
  return domain && domain.created_at <= row.created_at ? domain : null;
}

const signedCache = new Map<string, Buffer>();
const SIGNED_CACHE_SIZE = 64;

/** The message as a receiver gets it: with sendbox's DKIM-Signature on top when its domain signs. */
export async function receivedMessage(deps: Pick<AuthDeps, 'domains'>, row: EmailRow, raw: Buffer): Promise<{ raw: Buffer; signer: DomainRow | null }> {
  const signer = signingDomain(deps, row);
  if (!signer) return { raw, signer: null };
  // Ids can be reused after a reset: the creation time and the selector (new per identity) tell emails and keys apart.
  const key = `${row.id}:${row.created_at}:${row.size}:${signer.selector}`;
  let signed = signedCache.get(key);
  if (!signed) {
    const [, { dkimSign }] = await mailauth();
    // The implementation takes `signatureData` (one entry per signature); its .d.ts says otherwise.
    const options = {
      canonicalization: 'relaxed/relaxed',
      algorithm: 'rsa-sha256',
      signTime: new Date(row.created_at),
      headerList: SIGNED_HEADERS.join(':'),
      signatureData: [{ signingDomain: signer.value, selector: signer.selector, privateKey: signer.dkim_private }],
    };
    const result = await dkimSign(raw, options as unknown as Parameters<typeof dkimSign>[1]);
    // A message without a From header cannot be signed (RFC 6376 §5.4): it goes out unsigned.
    if (!result.signatures.trim()) return { raw, signer: null };
    signed = Buffer.concat([Buffer.from(result.signatures), raw]);
    signedCache.set(key, signed);
    if (signedCache.size > SIGNED_CACHE_SIZE) signedCache.delete(signedCache.keys().next().value!);
  }
  return { raw: signed, signer };
}

type Zone = Map<string, { TXT?: string[][]; CNAME?: string[] }>;

/** What a receiver finds in DNS: the generated records of a verified domain, plus the provider's own SPF host. */
function simulatedZone(deps: AuthDeps, fromDomain: DomainRow | null, spfInclude: string): Zone {
  const zone: Zone = new Map();
  // sendbox stands in for the provider, whose outbound MTA its SPF include names.
  zone.set(spfInclude.toLowerCase(), { TXT: [[`v=spf1 ip4:${OUTBOUND_IP} -all`]] });
  zone.set(deps.config.messageHost.toLowerCase(), { TXT: [[`v=spf1 include:${spfInclude} ~all`]] });
  if (fromDomain && fromDomain.verified_for_sending === 1) {
    const records = dnsRecords(fromDomain, { dkim: 'success', spf: 'success', bounce: 'success', dmarc: 'success' });
    zone.set(records.dkim.name.toLowerCase(), { TXT: [[records.dkim.value]] });
    zone.set(records.spf.name.toLowerCase(), { TXT: [[records.spf.value]] });
    zone.set(`bounce.${fromDomain.value}`, { CNAME: [records.bounce.value] });
    zone.set(`_dmarc.${fromDomain.value}`, { TXT: [[records.dmarc.value]] });
  }
  return zone;
}

const notFound = (name: string) => Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });

function resolverFor(deps: AuthDeps, domain: DomainRow | null): (name: string, type: string) => Promise<unknown> {
  const spfInclude = domain?.spf_include ?? 'spf.sendbox.local';
  const zone = simulatedZone(deps, domain, spfInclude);
  if (deps.config.dns !== 'real') {
    return async (name, type) => {
      const entry = zone.get(name.toLowerCase().replace(/\.$/, ''))?.[type as 'TXT' | 'CNAME'];
      if (!entry) throw notFound(name);
      return entry;
    };
  }
  // --dns real: every name is looked up in DNS, except the provider's own SPF host, which sendbox simulates.
  const resolver = new Resolver({ timeout: deps.config.dnsTimeoutMs, tries: 2 });
  const server = deps.config.dnsServer ? parseDnsServer(deps.config.dnsServer) : null;
  if (server) resolver.setServers([`${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`]);
  return async (name, type) => {
    const own = zone.get(name.toLowerCase().replace(/\.$/, ''));
    if (own && name.toLowerCase() === spfInclude.toLowerCase()) return own[type as 'TXT'] ?? Promise.reject(notFound(name));
    return resolver.resolve(name, type);
  };
}

interface HeaderLine {
  name: string;
  value: string;
}

/** The header section of a raw message, unfolded (RFC 5322 §2.2.3). */
export function headerLines(raw: Buffer): HeaderLine[] {
  const text = raw.subarray(0, Math.min(raw.length, 256 * 1024)).toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const head = end < 0 ? text : text.slice(0, end);
  return head
    .replace(/\r?\n(?=[ \t])/g, '')
    .split(/\r?\n/)
    .map((line) => ({ name: line.slice(0, Math.max(0, line.indexOf(':'))).trim(), value: line.slice(line.indexOf(':') + 1).trim() }))
    .filter((h) => h.name);
}

const verdict = (value: unknown): AuthVerdict => {
  const v = String(value ?? 'none').toLowerCase();
  return (['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy'].includes(v) ? v : 'none') as AuthVerdict;
};

/** Relaxed alignment (RFC 7489 §3.1): the same organizational domain, approximated as the same last two labels. */
const aligned = (a: string, b: string) => {
  const org = (d: string) => d.toLowerCase().split('.').slice(-2).join('.');
  return a !== '' && b !== '' && org(a) === org(b);
};

export async function authenticateEmail(deps: AuthDeps, row: EmailRow, stored: Buffer, emailId: string, visibleText = ''): Promise<AuthResult> {
  const fromDomain = domainOf(row.from_address);
  const teamDomain = deps.domains.find(row.team_id, fromDomain) ?? null;
  const { raw, signer } = await receivedMessage(deps, row, stored);
  const mailFrom = signer ? `${emailId}@send.${signer.value}` : `${emailId}@${deps.config.messageHost}`;
  const [{ authenticate }] = await mailauth();
  const result = await authenticate(raw, {
    ip: OUTBOUND_IP,
    helo: `outbound.${deps.config.messageHost}`,
    sender: mailFrom,
    mta: RECEIVER,
    resolver: resolverFor(deps, signer) as never,
    disableArc: true,
    disableBimi: true,
  } as Parameters<typeof authenticate>[1]);

  const authenticationResults = reportBodyHashFailures(result);
  // An unsigned message has one result without a domain ("message not signed"): no signature to describe.
  const dkim: DkimSignatureResult[] = result.dkim.results.filter((r) => Boolean(r.signingDomain)).map((r) => {
    const raw = r as typeof r & { bodyHash?: string; bodyHashExpecting?: string; signingHeaders?: { keys?: string }; algo?: string; signature?: string };
    return {
      result: verdict(r.status.result),
      domain: r.signingDomain,
      selector: r.selector ?? '',
      algorithm: raw.algo ?? r.algorithm ?? '',
      signature: raw.signature ?? '',
      body_hash: raw.bodyHashExpecting ?? '',
      computed_body_hash: raw.bodyHash ?? '',
      body_hash_matches: raw.bodyHash && raw.bodyHashExpecting ? raw.bodyHash === raw.bodyHashExpecting : null,
      signed_headers: (raw.signingHeaders?.keys ?? '').split(':').map((k) => k.trim()).filter(Boolean),
      aligned: aligned(r.signingDomain, fromDomain),
      comment: (r.status as { comment?: string }).comment ?? '',
    };
  });
  const spfStatus = result.spf ? result.spf.status : null;
  const spf = {
    result: verdict(spfStatus?.result),
    mail_from: mailFrom,
    domain: domainOf(mailFrom),
    ip: OUTBOUND_IP,
    comment: (spfStatus as { comment?: string } | null)?.comment ?? '',
  };
  const dmarcResult = result.dmarc || null;
  const dkimAligned = dkim.some((d) => d.result === 'pass' && d.aligned);
  const spfAligned = spf.result === 'pass' && aligned(spf.domain, fromDomain);
  const dmarc = {
    result: verdict(dmarcResult?.status.result),
    from_domain: fromDomain,
    policy: dmarcResult?.p ?? null,
    aligned_dkim: dkimAligned,
    aligned_spf: spfAligned,
    comment: (dmarcResult?.status as { comment?: string } | undefined)?.comment ?? (dmarcResult ? '' : 'no DMARC record'),
  };
  const headers = headerLines(raw);
  return {
    from_domain: fromDomain,
    team_domain: teamDomain ? { value: teamDomain.value, status: teamDomain.status, verified: teamDomain.verified_for_sending === 1 } : null,
    dns: deps.config.dns === 'real' ? 'real' : 'simulated',
    signed_by_sendbox: signer !== null,
    summary: summarize({ fromDomain, teamDomain, signer, dkim, spf, dmarc, real: deps.config.dns === 'real' }),
    dkim,
    spf,
    dmarc,
    bulk_sender: bulkSenderChecks(headers, dkim, visibleText),
    authentication_results: authenticationResults,
  };
}

const BODY_HASH_FAILED = 'body hash did not verify';

/**
 * RFC 6376 §6.1.3 step 3: a body hash that does not match is a PERMFAIL, which RFC 8601
 * §2.7.1 reports as dkim=fail. mailauth 4 writes neutral, as Gmail does (mailauth 7 writes
 * fail in its strict mode, but needs Node 22): sendbox answers what the RFCs say, in the
 * results and in the Authentication-Results header. Returns that header.
 */
function reportBodyHashFailures(result: { dkim: { results: { status: { result?: unknown; comment?: unknown } }[] }; headers: string }): string {
  let header = result.headers.trim();
  for (const row of result.dkim.results) {
    if (row.status.result !== 'neutral' || row.status.comment !== BODY_HASH_FAILED) continue;
    row.status.result = 'fail';
    header = header.replace(`dkim=neutral (${BODY_HASH_FAILED})`, `dkim=fail (${BODY_HASH_FAILED})`);
  }
  return header;
}

function summarize(s: { fromDomain: string; teamDomain: DomainRow | null; signer: DomainRow | null; dkim: DkimSignatureResult[]; spf: AuthResult['spf']; dmarc: AuthResult['dmarc']; real: boolean }): string {
  const { fromDomain, teamDomain, signer, dkim, spf, dmarc } = s;
  if (!teamDomain) {
    return `${fromDomain} is not a domain of this team, so sendbox does not sign for it: a receiver sees ${dkim.length ? `dkim=${dkim[0].result} for ${dkim[0].domain}${dkim[0].result !== 'pass' && dkim[0].comment ? ` (${dkim[0].comment})` : ''}` : 'no DKIM signature'}, SPF ${spf.result} for ${spf.domain} (not aligned with From) and dmarc=${dmarc.result}.`;
  }
  if (!signer) return `${fromDomain} was added to the team after this email was sent, so it went out unsigned: dmarc=${dmarc.result}.`;
  if (teamDomain.verified_for_sending !== 1 && !s.real) {
    return `${fromDomain} is not verified, so its DKIM, SPF and DMARC records count as unpublished: a receiver finds no key for the signature (dkim=${dkim[0]?.result ?? 'none'}) and dmarc=${dmarc.result}.`;
  }
  const own = dkim.find((d) => d.domain === signer.value);
  if (own && own.result !== 'pass') {
    return `DKIM does not pass for ${signer.value} (dkim=${own.result}${own.comment ? `, ${own.comment}` : ''})${own.body_hash_matches === false ? ': the body changed after sendbox signed it' : ''}, so dmarc=${dmarc.result}.`;
  }
  if (dmarc.result === 'pass') return `Authenticates: DKIM passes for ${signer.value} (s=${signer.selector}), SPF ${spf.result} for ${spf.domain}, and DMARC passes aligned with From.`;
  return `dkim=${own?.result ?? 'none'}, spf=${spf.result} for ${spf.domain}, dmarc=${dmarc.result}${dmarc.comment ? ` (${dmarc.comment})` : ''}.`;
}

/** Gmail's and Yahoo's 2024 bulk-sender rules: one-click unsubscribe (RFC 8058), signed. */
export function bulkSenderChecks(headers: HeaderLine[], dkim: DkimSignatureResult[], visibleText = ''): BulkSenderCheck[] {
  const get = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;
  const unsubscribe = get('list-unsubscribe');
  const post = get('list-unsubscribe-post');
  const uris = unsubscribe ? [...unsubscribe.matchAll(/<([^>]*)>/g)].map((m) => m[1].trim()) : [];
  const https = uris.find((u) => /^https:\/\//i.test(u));
  const signed = dkim.find((d) => d.result === 'pass' && d.aligned);
  const signedNames = new Set((signed?.signed_headers ?? []).map((h) => h.toLowerCase()));
  const coversBoth = signedNames.has('list-unsubscribe') && signedNames.has('list-unsubscribe-post');
  const checks: BulkSenderCheck[] = [
    {
      id: 'list-unsubscribe-https',
      ok: Boolean(https),
      message: https ? `List-Unsubscribe offers ${https}.` : unsubscribe ? 'List-Unsubscribe has no https URI: one-click unsubscribe needs one (a mailto: alone is not enough).' : 'No List-Unsubscribe header: Gmail and Yahoo require one with an https URI from bulk senders.',
    },
    {
      id: 'list-unsubscribe-one-click',
      ok: post !== null && /^List-Unsubscribe=One-Click$/i.test(post.trim()),
      message: post === null ? 'No List-Unsubscribe-Post: List-Unsubscribe=One-Click header (RFC 8058).' : /^List-Unsubscribe=One-Click$/i.test(post.trim()) ? 'List-Unsubscribe-Post asks for one-click unsubscribe (RFC 8058).' : `List-Unsubscribe-Post must be exactly "List-Unsubscribe=One-Click", not "${post.slice(0, 80)}".`,
    },
    {
      id: 'list-unsubscribe-signed',
      ok: Boolean(unsubscribe && post && coversBoth),
      message: !signed ? 'No passing DKIM signature aligned with From covers the unsubscribe headers.' : coversBoth ? `The DKIM signature of ${signed.domain} covers List-Unsubscribe and List-Unsubscribe-Post.` : 'The DKIM signature does not cover both List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 §4 wants both signed).',
    },
  ];
  // Marketing-looking mail should also let a reader unsubscribe from the body (Gmail's sender guidelines).
  if (unsubscribe !== null || get('list-id') !== null || /^(bulk|list)$/i.test(get('precedence') ?? '')) {
    const visible = VISIBLE_UNSUBSCRIBE.test(visibleText);
    checks.push({ id: 'visible-unsubscribe', ok: visible, message: visible ? 'The body shows an unsubscribe link or instruction.' : 'This looks like bulk mail but the body shows no way to unsubscribe: Gmail asks for a clearly visible one too.' });
  }
  return checks;
}

const VISIBLE_UNSUBSCRIBE = /unsubscribe|opt[- ]out|abmelden|abbestellen|désabonner|désinscri|darse de baja|cancelar (?:la )?suscripci|disiscriviti|afmelden|отписаться|退订|取消订阅|配信停止|登録解除|수신 ?거부/i;
