import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { DnsRecord, DomainIdentity, RecordStatus } from '../../../shared/domain.js';
import type { DomainRow, RecordStatuses } from '../storage/domains.js';
import { iso } from '../clock.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/** A fresh 2048-bit RSA key pair for DKIM, generated off the event loop. */
export async function generateDkimKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: (publicKey as Buffer).toString('base64'), privateKey: privateKey as string };
}

/** Lowercase letters and digits, new for each identity. */
export function newSelector(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return 'sb' + [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

export const NEW_RECORD_STATUSES: RecordStatuses = { dkim: 'not_started', spf: 'not_started', bounce: 'not_started', dmarc: '' };

/** The DNS records a team publishes for a domain (CONTRACT §3). */
export function dnsRecords(row: Pick<DomainRow, 'value' | 'selector' | 'dkim_public' | 'spf_include' | 'bounce_host'>, status: RecordStatuses) {
  const record = (name: string, record_type: 'TXT' | 'CNAME', value: string, ttl: string, s: RecordStatus): DnsRecord => ({ name, record_type, value, ttl, status: s });
  return {
    dkim: record(`${row.selector}._domainkey.${row.value}`, 'TXT', `v=DKIM1; k=rsa; p=${row.dkim_public}`, 'auto', status.dkim),
    spf: record(`send.${row.value}`, 'TXT', `v=spf1 include:${row.spf_include} ~all`, '3600', status.spf),
    bounce: record(`bounce.${row.value}`, 'CNAME', row.bounce_host, '3600', status.bounce),
    dmarc: record('_dmarc', 'TXT', 'v=DMARC1; p=none;', 'auto', status.dmarc),
  };
}

export function presentDomain(row: DomainRow): DomainIdentity {
  const statuses = JSON.parse(row.records) as RecordStatuses;
  const records = dnsRecords(row, statuses);
  return {
    id: row.public_id,
    value: row.value,
    team_id: row.team_id,
    status: row.status,
    identity_type: 'domain',
    created_at: iso(row.created_at),
    verified_at: row.verified_at === null ? null : iso(row.verified_at),
    attributes: {
      dkim_attributes: records.dkim,
      mail_from_attributes: [records.spf, records.bounce],
      dmarc_attributes: records.dmarc,
      verification_status: row.status,
      verified_for_sending_status: row.verified_for_sending === 1,
      error_type: row.error_type,
    },
    last_status_checked_at: iso(row.last_checked_at),
  };
}
