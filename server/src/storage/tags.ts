import type { Db } from './db.js';
import type { TagCount } from '../../../shared/tags.js';

/**
 * Tag writes. Each email keeps its tags twice: the JSON `emails.tags` (read with the row for
 * lists and events) and one `email_tags` row per tag (the index for `tag:`). Every write here
 * changes both in the caller's transaction, so they never disagree.
 */
export class TagStore {
  private readonly selectTags;
  private readonly updateTags;
  private readonly insertTag;
  private readonly deleteTags;

  constructor(private readonly db: Db) {
    this.selectTags = db.prepare('SELECT id, tags FROM emails WHERE id IN (SELECT value FROM json_each(?))');
    this.updateTags = db.prepare('UPDATE emails SET tags = ? WHERE id = ?');
    this.insertTag = db.prepare('INSERT OR IGNORE INTO email_tags (tag, email_id) VALUES (?, ?)');
    this.deleteTags = db.prepare('DELETE FROM email_tags WHERE email_id = ?');
  }

  /** Replaces one email's tags; returns them as stored. */
  set(id: number, tags: string[]): string[] {
    return this.db.transaction(() => {
      this.write(id, tags);
      return tags;
    })();
  }

  /** Adds tags to each email (kept once, case-insensitively); returns the ids that changed. */
  add(ids: number[], tags: string[]): number[] {
    return this.edit(ids, (current) => {
      const have = new Set(current.map((t) => t.toLowerCase()));
      const added = tags.filter((t) => !have.has(t.toLowerCase()));
      return added.length ? [...current, ...added] : null;
    });
  }

  /** Removes tags (case-insensitively) from each email; returns the ids that changed. */
  remove(ids: number[], tags: string[]): number[] {
    const gone = new Set(tags.map((t) => t.toLowerCase()));
    return this.edit(ids, (current) => {
      const kept = current.filter((t) => !gone.has(t.toLowerCase()));
      return kept.length === current.length ? null : kept;
    });
  }

  /** Every email carrying `tag` (case-insensitively), of one team or all, newest first. */
  emailsWith(tag: string, teamId: string | null = null): number[] {
    if (teamId === null) return this.db.prepare('SELECT email_id FROM email_tags WHERE tag = ? ORDER BY email_id DESC').pluck().all(tag) as number[];
    return this.db.prepare('SELECT t.email_id FROM email_tags t JOIN emails e ON e.id = t.email_id WHERE t.tag = ? AND e.team_id = ? ORDER BY t.email_id DESC').pluck().all(tag, teamId) as number[];
  }

  /** Renames a tag across all mail, or one team's (merging into `to` where an email has both); returns the ids changed. */
  rename(from: string, to: string, teamId: string | null = null): number[] {
    const fromKey = from.toLowerCase();
    return this.db.transaction(() => this.edit(this.emailsWith(from, teamId), (current) => {
      const hasTo = current.some((t) => t.toLowerCase() === to.toLowerCase() && t.toLowerCase() !== fromKey);
      return current.flatMap((t) => (t.toLowerCase() !== fromKey ? [t] : hasTo ? [] : [to]));
    }))();
  }

  /** Each tag in use with its email count, most used first (one spelling per tag). */
  counts(teamId: string | null): TagCount[] {
    const sql = teamId === null
      ? 'SELECT tag, COUNT(*) AS count FROM email_tags GROUP BY tag ORDER BY count DESC, tag'
      : 'SELECT t.tag, COUNT(*) AS count FROM email_tags t JOIN emails e ON e.id = t.email_id WHERE e.team_id = ? GROUP BY t.tag ORDER BY count DESC, t.tag';
    return this.db.prepare(sql).all(...(teamId === null ? [] : [teamId])) as TagCount[];
  }

  /** Applies `change` to each email's tags in one transaction; null from it means unchanged. */
  private edit(ids: number[], change: (current: string[]) => string[] | null): number[] {
    return this.db.transaction(() => {
      const changed: number[] = [];
      for (const row of this.selectTags.all(JSON.stringify(ids)) as { id: number; tags: string }[]) {
        const next = change(JSON.parse(row.tags) as string[]);
        if (next === null) continue;
        this.write(row.id, next);
        changed.push(row.id);
      }
      return changed.sort((a, b) => b - a);
    })();
  }

  private write(id: number, tags: string[]): void {
    this.updateTags.run(JSON.stringify(tags), id);
    this.deleteTags.run(id);
    for (const tag of tags) this.insertTag.run(tag, id);
  }
}
