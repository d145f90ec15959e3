import type { Db } from './db.js';
import type { ScriptStep } from '../../../shared/domain-scripts.js';

/** `team_id` '' is a script waiting for the first team that checks the domain. */
export const ANY_TEAM = '';

export interface DomainScriptRow {
  domain: string;
  team_id: string;
  steps: string;
  created_at: number;
}

/** Scripted verification outcomes (CONTRACT §5), one queue of steps per (domain, team). */
export class DomainScriptStore {
  constructor(private readonly db: Db) {}

  /** Replaces the script of one (domain, team). */
  set(domain: string, teamId: string, steps: ScriptStep[], now: number): void {
    this.db.prepare('INSERT INTO domain_scripts (domain, team_id, steps, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (domain, team_id) DO UPDATE SET steps = excluded.steps, created_at = excluded.created_at')
      .run(domain, teamId, JSON.stringify(steps), now);
  }

  /**
   * Takes the next step for a team's check: its own script first, else a script set
   * before any team had the domain, which from then on belongs to this team.
   */
  take(domain: string, teamId: string): ScriptStep | null {
    return this.db.transaction(() => {
      let row = this.row(domain, teamId);
      if (!row) {
        const waiting = this.row(domain, ANY_TEAM);
        if (!waiting) return null;
        this.db.prepare('UPDATE domain_scripts SET team_id = ? WHERE domain = ? AND team_id = ?').run(teamId, domain, ANY_TEAM);
        row = { ...waiting, team_id: teamId };
      }
      const [next, ...rest] = JSON.parse(row.steps) as ScriptStep[];
      if (rest.length === 0) this.db.prepare('DELETE FROM domain_scripts WHERE domain = ? AND team_id = ?').run(domain, teamId);
      else this.db.prepare('UPDATE domain_scripts SET steps = ? WHERE domain = ? AND team_id = ?').run(JSON.stringify(rest), domain, teamId);
      return next ?? null;
    })();
  }

  /** Pending scripts, for one domain or all. */
  list(domain?: string): DomainScriptRow[] {
    return domain === undefined
      ? (this.db.prepare('SELECT * FROM domain_scripts ORDER BY domain, team_id').all() as DomainScriptRow[])
      : (this.db.prepare('SELECT * FROM domain_scripts WHERE domain = ? ORDER BY team_id').all(domain) as DomainScriptRow[]);
  }

  /** Drops the scripts of a domain (one team's, or all of them). */
  clear(domain: string, teamId?: string): number {
    return teamId === undefined
      ? this.db.prepare('DELETE FROM domain_scripts WHERE domain = ?').run(domain).changes
      : this.db.prepare('DELETE FROM domain_scripts WHERE domain = ? AND team_id = ?').run(domain, teamId).changes;
  }

  /** For reset: one team's scripts, or every script. */
  clearTeam(teamId: string | null): number {
    return teamId === null
      ? this.db.prepare('DELETE FROM domain_scripts').run().changes
      : this.db.prepare('DELETE FROM domain_scripts WHERE team_id = ?').run(teamId).changes;
  }

  private row(domain: string, teamId: string): DomainScriptRow | undefined {
    return this.db.prepare('SELECT * FROM domain_scripts WHERE domain = ? AND team_id = ?').get(domain, teamId) as DomainScriptRow | undefined;
  }
}
