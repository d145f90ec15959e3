/**
 * Searches of one or two characters cannot use the trigram index, and scanning the
 * search rows in SQLite took ~60 ms at 100 000 emails (the inbox searches as you type,
 * so "ol" is a common query). This is an in-memory copy of each email's searchable
 * text (subject, recipients, sender, lower-cased), built on the first short search and
 * kept in id order by EmailStore as emails are indexed and pruned: a scan with
 * String#includes takes a few milliseconds. About 100 bytes per email.
 */
const SEPARATOR = '\u0001';

export class ShortNeedleIndex {
  private ids: number[] = [];
  private teams: string[] = [];
  private texts: string[] = [];

  /** Appends an email newer than every one held (re-indexed older ones are skipped). */
  append(id: number, teamId: string, fields: string[]): void {
    if (this.ids.length > 0 && id <= this.ids[this.ids.length - 1]) return;
    this.ids.push(id);
    this.teams.push(teamId);
    this.texts.push(fields.join(SEPARATOR).toLowerCase());
  }

  /** Retention removed every email up to this id. */
  dropThrough(id: number): void {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ids[mid] <= id) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return;
    this.ids = this.ids.slice(lo);
    this.teams = this.teams.slice(lo);
    this.texts = this.texts.slice(lo);
  }

  /** Whether a needle can be answered here (it cannot contain the field separator). */
  static accepts(needle: string): boolean {
    return !needle.includes(SEPARATOR);
  }

  /** Matching ids newest first: the total, and the page's ids. */
  search(needle: string, teamId: string | null, offset: number, limit: number): { total: number; ids: number[] } {
    const lowered = needle.toLowerCase();
    const page: number[] = [];
    let total = 0;
    for (let i = this.ids.length - 1; i >= 0; i--) {
      if (teamId !== null && this.teams[i] !== teamId) continue;
      if (!this.texts[i].includes(lowered)) continue;
      if (total >= offset && page.length < limit) page.push(this.ids[i]);
      total++;
    }
    return { total, ids: page };
  }
}
