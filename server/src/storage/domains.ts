import type { Db } from './db.js';
import type { DomainErrorType, DomainStatus, RecordKey, RecordStatus } from '../../../shared/domain.js';

export type RecordStatuses = Record<RecordKey, RecordStatus>;

export interface DomainRow {
  id: number;
  public_id: string;
  team_id: string;
  value: string;
  created_at: number;
  verified_at: number | null;
  last_checked_at: number;
  status: DomainStatus;
  error_type: DomainErrorType;
  selector: string;
  dkim_public: string;
  dkim_private: string;
  spf_include: string;
  bounce_host: string;
  records: string;
  verified_for_sending: number;
}

export type NewDomain = Omit<DomainRow, 'id' | 'verified_at' | 'verified_for_sending' | 'error_type'>;

export interface VerificationUpdate {
  status: DomainStatus;
  records: RecordStatuses;
  errorType: DomainErrorType;
  checkedAt: number;
  verifiedAt: number | null;
  verifiedForSending: boolean;
}

export class DomainStore {
  private readonly verifiedStmt;
  /** `team_id domain` → verified for sending; every API send asks, domains rarely change. */
  private readonly verifiedCache = new Map<string, boolean>();

  constructor(private readonly db: Db) {
    // Checked on every API send (unverified-sender flag, strict sender mode).
    this.verifiedStmt = db.prepare('SELECT verified_for_sending FROM domains WHERE team_id = ? AND value = ?').pluck();
  }

  insert(domain: NewDomain): DomainRow {
    this.verifiedCache.clear();
    this.db.prepare(`INSERT INTO domains (public_id, team_id, value, created_at, last_checked_at, status, selector, dkim_public, dkim_private, spf_include, bounce_host, records)
      VALUES (@public_id, @team_id, @value, @created_at, @last_checked_at, @status, @selector, @dkim_public, @dkim_private, @spf_include, @bounce_host, @records)`).run(domain);
    return this.find(domain.team_id, domain.value)!;
  }

  find(teamId: string, value: string): DomainRow | undefined {
    return this.db.prepare('SELECT * FROM domains WHERE team_id = ? AND value = ?').get(teamId, value) as DomainRow | undefined;
  }

  /** Every team's identity for this name (sandbox scripting, real-DNS checks). */
  findAllTeams(value: string): DomainRow[] {
    return this.db.prepare('SELECT * FROM domains WHERE value = ? ORDER BY id').all(value) as DomainRow[];
  }

  list(teamId: string | null): DomainRow[] {
    return teamId === null
      ? (this.db.prepare('SELECT * FROM domains ORDER BY team_id, value').all() as DomainRow[])
      : (this.db.prepare('SELECT * FROM domains WHERE team_id = ? ORDER BY value').all(teamId) as DomainRow[]);
  }

  isVerifiedForSending(teamId: string, value: string): boolean {
    const key = `${teamId} ${value}`;
    let verified = this.verifiedCache.get(key);
    if (verified === undefined) {
      if (this.verifiedCache.size > 10_000) this.verifiedCache.clear();
      verified = this.verifiedStmt.get(teamId, value) === 1;
      this.verifiedCache.set(key, verified);
    }
    return verified;
  }

  /** Writes a check's result; answers the row as it now is, without reading it back. */
  updateVerification(row: DomainRow, update: VerificationUpdate): DomainRow {
    this.verifiedCache.clear();
    const next: DomainRow = { ...row, status: update.status, records: JSON.stringify(update.records), error_type: update.errorType, last_checked_at: update.checkedAt, verified_at: update.verifiedAt, verified_for_sending: update.verifiedForSending ? 1 : 0 };
    this.db.prepare('UPDATE domains SET status = ?, records = ?, error_type = ?, last_checked_at = ?, verified_at = ?, verified_for_sending = ? WHERE id = ?')
      .run(next.status, next.records, next.error_type, next.last_checked_at, next.verified_at, next.verified_for_sending, row.id);
    return next;
  }

  delete(id: number): void {
    this.verifiedCache.clear();
    this.db.prepare('DELETE FROM domains WHERE id = ?').run(id);
  }

  deleteTeam(teamId: string | null): number {
    this.verifiedCache.clear();
    return teamId === null ? this.db.prepare('DELETE FROM domains').run().changes : this.db.prepare('DELETE FROM domains WHERE team_id = ?').run(teamId).changes;
  }

  get(id: number): DomainRow | undefined {
    return this.db.prepare('SELECT * FROM domains WHERE id = ?').get(id) as DomainRow | undefined;
  }
}
