import type { DnsRecord, DomainIdentity, RecordKey } from '../../../../shared/domain';

export interface RecordRow {
  key: RecordKey;
  label: string;
  purpose: string;
  record: DnsRecord;
}

/** The four records of an identity in the order a DNS panel lists them, each with what it is for. */
export function recordRows(identity: DomainIdentity): RecordRow[] {
  const a = identity.attributes;
  return [
    { key: 'dkim', label: 'DKIM', purpose: 'Public key receivers use to check the signature on your mail.', record: a.dkim_attributes },
    { key: 'spf', label: 'SPF', purpose: 'Allows the provider to send for the MAIL FROM subdomain.', record: a.mail_from_attributes[0] },
    { key: 'bounce', label: 'Bounce', purpose: 'Routes bounces of the MAIL FROM subdomain back to the provider.', record: a.mail_from_attributes[1] },
    { key: 'dmarc', label: 'DMARC', purpose: 'Tells receivers what to do with mail that fails DKIM and SPF.', record: a.dmarc_attributes },
  ];
}

/** The name to type into a DNS panel: DMARC is relative (`_dmarc`); the others are written as given. */
export function recordHost(row: RecordRow): string {
  return row.record.name;
}
