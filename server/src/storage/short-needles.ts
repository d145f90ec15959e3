/**
 * Searches of one or two characters cannot use the trigram index, and scanning the
 * search rows in SQLite took ~60 ms at 100 000 emails (the inbox searches as you type,
 * so "ol" is a common query). This is an in-memory copy of each email's searchable
 * text (subject, recipients, sender; A–Z lower-cased, as LIKE compares), built on the
 * first short search and kept in id order by EmailStore as emails are indexed and pruned.
 *
 * Whole segments of 4 096 emails are UTF-8 buffers that SQLite concatenated (searched
 * with Buffer#indexOf, native; the copy costs the text's own size outside the JavaScript
 * heap, ~10 MB per 100 000 emails). Emails indexed since are a short list of strings
 * until they fill a segment. UTF-8 is self-synchronizing: a byte match is a text match.
 */
/** Between the fields of one email's text. */
export const FIELD = '\u0001';
/** After each email's text in a segment. */
export const EMAIL = '\u0002';
export const SEGMENT_SIZE = 4096;
const EMAIL_BYTE = 2;

/** Lower-cases A–Z only, as SQLite's lower() and LIKE do: the same matches as the SQL scan. */
export const asciiLower = (value: string) => (/[A-Z]/.test(value) ? value.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : value);

interface Segment {
  ids: number[];
  teams: number[];
  /** Byte offset of each email's text in `text`. */
  starts: number[];
  text: Buffer;
  /** Entries before this index were pruned. */
  first: number;
}

export class ShortNeedleIndex {
  private segments: Segment[] = [];
  /** Emails appended since the last full segment, oldest first. */
  private tail: { id: number; team: number; text: string }[] = [];
  private readonly teamNumbers = new Map<string, number>();
  private lastId = 0;

  /** Built from whole segments read from the database: their ids, teams and texts (each email's followed by EMAIL). */
  static build(segments: Iterable<{ ids: number[]; teams: string[]; text: Buffer }>): ShortNeedleIndex {
    const index = new ShortNeedleIndex();
    for (const { ids, teams, text } of segments) {
      if (ids.length === 0) continue;
      index.pushSegment(ids, teams.map((t) => index.teamNumber(t)), text);
      index.lastId = ids[ids.length - 1];
    }
    return index;
  }

  /** Appends an email newer than every one held (re-indexed older ones are skipped). */
  append(id: number, teamId: string, fields: string[]): void {
    if (id <= this.lastId) return;
    this.lastId = id;
    this.tail.push({ id, team: this.teamNumber(teamId), text: asciiLower(fields.join(FIELD)) });
    if (this.tail.length >= SEGMENT_SIZE) {
      const tail = this.tail;
      this.tail = [];
      this.pushSegment(tail.map((e) => e.id), tail.map((e) => e.team), Buffer.from(tail.map((e) => e.text + EMAIL).join(''), 'utf8'));
    }
  }

  /** Retention removed every email up to this id. */
  dropThrough(id: number): void {
    while (this.segments.length > 0) {
      const segment = this.segments[0];
      if (segment.ids[segment.ids.length - 1] <= id) {
        this.segments.shift();
        continue;
      }
      while (segment.first < segment.ids.length && segment.ids[segment.first] <= id) segment.first++;
      break;
    }
    if (this.segments.length === 0) {
      let keep = 0;
      while (keep < this.tail.length && this.tail[keep].id <= id) keep++;
      if (keep > 0) this.tail = this.tail.slice(keep);
    }
  }

  /** Whether a needle can be answered here (it cannot contain the separators). */
  static accepts(needle: string): boolean {
    return !needle.includes(FIELD) && !needle.includes(EMAIL);
  }

  /** Matching ids newest first: the total, and the page's ids. */
  search(needle: string, teamId: string | null, offset: number, limit: number): { total: number; ids: number[] } {
    const lowered = asciiLower(needle);
    const bytes = Buffer.from(lowered, 'utf8');
    const team = teamId === null ? -1 : this.teamNumbers.get(teamId);
    const page: number[] = [];
    let total = 0;
    if (team === undefined) return { total, ids: page };
    const take = (id: number) => {
      if (total >= offset && page.length < limit) page.push(id);
      total++;
    };
    for (let i = this.tail.length - 1; i >= 0; i--) {
      const entry = this.tail[i];
      if ((team === -1 || entry.team === team) && entry.text.includes(lowered)) take(entry.id);
    }
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const matches = matchesIn(this.segments[s], bytes, team);
      for (let m = matches.length - 1; m >= 0; m--) take(matches[m]);
    }
    return { total, ids: page };
  }

  private pushSegment(ids: number[], teams: number[], text: Buffer): void {
    const starts: number[] = [];
    for (let at = 0; starts.length < ids.length; at = text.indexOf(EMAIL_BYTE, at) + 1) starts.push(at);
    this.segments.push({ ids, teams, starts, text, first: 0 });
  }

  private teamNumber(teamId: string): number {
    let team = this.teamNumbers.get(teamId);
    if (team === undefined) {
      team = this.teamNumbers.size;
      this.teamNumbers.set(teamId, team);
    }
    return team;
  }
}

/** Ids of the segment's live emails whose text contains the needle, oldest first. */
function matchesIn(segment: Segment, needle: Buffer, team: number): number[] {
  const { ids, teams, starts, text } = segment;
  const out: number[] = [];
  let k = segment.first;
  let from = starts[k] ?? text.length;
  while (k < ids.length) {
    const at = needle.length === 0 ? from : text.indexOf(needle, from);
    if (at === -1) break;
    // The email holding this match: starts ascend, and so do the matches.
    while (k + 1 < ids.length && starts[k + 1] <= at) k++;
    if (team === -1 || teams[k] === team) out.push(ids[k]);
    k++;
    from = starts[k] ?? text.length;
  }
  return out;
}
