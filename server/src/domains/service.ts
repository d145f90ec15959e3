import { randomUUID } from 'node:crypto';
import type { DomainIdentity } from '../../../shared/domain.js';
import type { Services } from '../context.js';
import type { DomainRow } from '../storage/domains.js';
import { conflict, invalid, notFound } from '../errors.js';
import { normalizeDomain } from './names.js';
import { generateDkimKeys, newSelector, NEW_RECORD_STATUSES, presentDomain } from './records.js';
import { applyCheck, runVerifiers } from './verify.js';

type DomainServices = Pick<Services, 'domains' | 'config' | 'clock' | 'events' | 'scenarios' | 'logger'>;

/*
 * The domains service: the one place that changes a team's domains and publishes
 * domain.* events. Errors are domain values (errors.ts); routes stay thin.
 */

/** Validates and normalizes a name, 422 when invalid. */
export function domainName(input: string, field = 'value'): string {
  const result = normalizeDomain(input);
  if ('error' in result) throw invalid(`Invalid domain name: ${result.error}`, [{ field, message: result.error }]);
  return result.value;
}

/** Finds a team's domain by `?domain=`, case-insensitively and ignoring a trailing dot; 404 otherwise. */
export function findDomain(services: Pick<Services, 'domains'>, teamId: string, input: string): DomainRow {
  const result = normalizeDomain(input);
  const row = 'value' in result ? services.domains.find(teamId, result.value) : undefined;
  if (!row) throw notFound(`Domain ${input} not found`);
  return row;
}

export async function addDomain(services: DomainServices, teamId: string, input: string): Promise<DomainIdentity> {
  const value = domainName(input);
  if (services.domains.find(teamId, value)) throw conflict(`Domain ${value} already exists for this team`);
  const keys = await generateDkimKeys();
  // Re-check after the await: a concurrent add of the same name may have won.
  if (services.domains.find(teamId, value)) throw conflict(`Domain ${value} already exists for this team`);
  const now = services.clock.now();
  const row = services.domains.insert({
    public_id: randomUUID(),
    team_id: teamId,
    value,
    created_at: now,
    last_checked_at: now,
    status: 'not_started',
    selector: newSelector(),
    dkim_public: keys.publicKey,
    dkim_private: keys.privateKey,
    spf_include: services.config.spfInclude,
    bounce_host: services.config.bounceHost,
    records: JSON.stringify(NEW_RECORD_STATUSES),
  });
  const identity = presentDomain(row);
  services.events.publish({ type: 'domain.created', data: identity });
  return identity;
}

export async function verifyDomain(services: DomainServices, row: DomainRow): Promise<DomainIdentity> {
  const result = await runVerifiers(services.scenarios.verifiers(), row);
  // The row may have been deleted while a real DNS lookup was in flight.
  const current = services.domains.get(row.id);
  if (!current) throw notFound(`Domain ${row.value} not found`);
  const update = applyCheck(current, result, services.clock.now());
  const identity = presentDomain(services.domains.updateVerification(current, update));
  services.logger.debug(`verified ${current.value} for ${current.team_id}: ${update.status} (${result.decidedBy})`);
  services.events.publish({ type: 'domain.updated', data: identity });
  return identity;
}

export function deleteDomain(services: DomainServices, row: DomainRow): void {
  services.domains.delete(row.id);
  announceDeleted(services, [row]);
}

/** domain.deleted for rows already removed (one delete, or a reset in its own transaction). */
export function announceDeleted(services: Pick<Services, 'events'>, rows: DomainRow[]): void {
  for (const row of rows) services.events.publish({ type: 'domain.deleted', data: { id: row.public_id, value: row.value, team_id: row.team_id } });
}
