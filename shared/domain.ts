import { z } from 'zod';

export const DOMAIN_STATUSES = ['not_started', 'pending', 'success', 'failed', 'temporary_failure'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
/** A DNS record's own status; DMARC's is "" until the first check. */
export type RecordStatus = 'not_started' | 'pending' | 'success' | 'failed' | '';
export type DomainErrorType = '' | 'HOST_NOT_FOUND' | 'TYPE_NOT_FOUND' | 'INVALID_VALUE' | 'DNS_SERVER_ERROR' | 'SERVICE_ERROR';
export const RECORD_KEYS = ['dkim', 'spf', 'bounce', 'dmarc'] as const;
export type RecordKey = (typeof RECORD_KEYS)[number];

export interface DnsRecord {
  name: string;
  record_type: 'TXT' | 'CNAME';
  value: string;
  ttl: string;
  status: RecordStatus;
}

export interface DomainIdentity {
  id: string;
  value: string;
  team_id: string;
  status: DomainStatus;
  identity_type: 'domain';
  created_at: string;
  verified_at: string | null;
  attributes: {
    dkim_attributes: DnsRecord;
    mail_from_attributes: [DnsRecord, DnsRecord];
    dmarc_attributes: DnsRecord;
    verification_status: DomainStatus;
    verified_for_sending_status: boolean;
    error_type: DomainErrorType;
  };
  last_status_checked_at: string;
}

export const addDomainSchema = z.object({
  value: z.string({ error: 'value is required and must be a string' }),
});

/** `?domain=` on get, verify and delete. */
export const domainQuerySchema = z.object({
  domain: z.string({ error: 'query parameter domain is required' }).min(1, 'query parameter domain is required'),
});
