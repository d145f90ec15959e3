import type { Db } from './db.js';

/** A scenario rule as stored; `match` and `action` are JSON validated at the API edge. */
export interface RuleRow {
  id: number;
  team_id: string | null;
  match: string;
  action: string;
  times: number | null;
  nth: number | null;
  uses: number;
  matches: number;
  created_at: number;
}

export type NewRule = Omit<RuleRow, 'id' | 'uses' | 'matches'>;

/** Plain SQL for the sandbox rules; the scenario engine keeps them in memory and writes through. */
export class RuleStore {
  private readonly insertStmt;
  private readonly allStmt;
  private readonly countersStmt;
  private readonly deleteStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare('INSERT INTO rules (team_id, match, action, times, nth, created_at) VALUES (@team_id, @match, @action, @times, @nth, @created_at)');
    this.allStmt = db.prepare('SELECT * FROM rules ORDER BY id');
    this.countersStmt = db.prepare('UPDATE rules SET uses = ?, matches = ? WHERE id = ?');
    this.deleteStmt = db.prepare('DELETE FROM rules WHERE id = ?');
  }

  insert(rule: NewRule): RuleRow {
    const id = Number(this.insertStmt.run(rule).lastInsertRowid);
    return { ...rule, id, uses: 0, matches: 0 };
  }

  all(): RuleRow[] {
    return this.allStmt.all() as RuleRow[];
  }

  updateCounters(id: number, uses: number, matches: number): void {
    this.countersStmt.run(uses, matches, id);
  }

  delete(id: number): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** Deletes every rule, or those matching one team; returns how many went. */
  deleteTeam(teamId: string | null): number {
    return teamId === null ? this.db.prepare('DELETE FROM rules').run().changes : this.db.prepare('DELETE FROM rules WHERE team_id = ?').run(teamId).changes;
  }
}
