import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { fromSpan, withGeneratedText, type BodySpans } from './body-spans.js';
import { LARGE_JOIN, LARGE_MESSAGE_BYTES, LARGE_SCHEMAS, LargeMessages, RAW_OF_BODY } from './large-messages.js';
import type { EmailStatus, RecipientType } from '../../../shared/email.js';
import type { DeliveryOutcome as Outcome } from '../../../shared/sandbox.js';
import { EMAIL, FIELD, SEGMENT_SIZE, ShortNeedleIndex } from './short-needles.js';
import type { SearchTerm } from '../../../shared/search.js';
import { headerMatches } from './header-match.js';

/** What ingest hands to storage: one email with its content and its recipients' plans. */
export interface NewEmail {
  id: number;
  teamId: string;
  apiKeyId: number;
  source: 'api' | 'smtp';
  messageId: string;
  fromAddress: string;
  fromName: string;
  toAddresses: string[];
  subject: string;
  size: number;
  inline: number;
  attachments: number;
  snippet: string;
  createdAt: number;
  metadata: StoredMetadata;
  creditsUsed: number;
  flags: Record<string, unknown>;
  text: string;
  html: string;
  raw: Buffer;
  /** Where `text` and `html` lie in `raw` as they are: those are not stored a second time. */
  spans?: BodySpans;
  recipients: NewRecipient[];
  /** Normalized and distinct (shared/tags.ts); absent: none. */
  tags?: string[];
}

export interface StoredMetadata {
  from: string;
  to: string[];
  cc: string[] | null;
  bcc: string[] | null;
  reply_to: string | null;
}

export interface NewRecipient {
  address: string;
  type: RecipientType;
  outcome: Outcome;
  code: string | null;
  response: string | null;
  delayMs: number;
  decidedBy: string;
  dueAt: number;
}

export interface EmailRow {
  id: number;
  team_id: string;
  api_key_id: number;
  source: 'api' | 'smtp';
  message_id: string;
  from_address: string;
  from_name: string;
  to_addresses: string;
  subject: string;
  size: number;
  inline: number;
  attachments: number;
  snippet: string;
  created_at: number;
  metadata: string;
  opened_at: number | null;
  delivered_at: number | null;
  click_count: number;
  status: EmailStatus;
  credits_used: number;
  is_read: number;
  flags: string;
  /** JSON array of the email's tags (the email_tags table indexes them). */
  tags: string;
}

export interface BodyRow {
  text: string;
  html: string;
  raw: Buffer;
}

export type { BodySpan, BodySpans } from './body-spans.js';

const EMPTY = Buffer.alloc(0);

export type RecipientState = 'processing' | 'queued' | 'delivered' | 'bounced' | 'failed' | 'complaint';

export interface RecipientRow {
  email_id: number;
  idx: number;
  address: string;
  type: RecipientType;
  state: RecipientState;
  outcome: Outcome;
  outcome_code: string | null;
  outcome_response: string | null;
  outcome_delay_ms: number;
  decided_by: string;
  attempts: number;
  due_at: number | null;
  queued_at: number | null;
}

export interface LogRow {
  id: number;
  email_id: number;
  recipient: string;
  recipient_type: RecipientType;
  status: EmailStatus;
  code: string;
  response: string;
  mx_hostname: string;
  time: number;
  queued_at: number | null;
}

export interface NewLog {
  emailId: number;
  recipient: string;
  recipientType: RecipientType;
  status: EmailStatus;
  code: string;
  response: string;
  mxHostname: string;
  time: number;
  queuedAt: number | null;
}

export interface EmailFilter {
  /** null: every team (sandbox view). */
  teamId: string | null;
  search?: string;
  startMs?: number;
  endMs?: number;
  statuses?: EmailStatus[];
  apiKeyId?: number;
  /** Sandbox-only filters. */
  isRead?: boolean;
  hasAttachment?: boolean;
  from?: string;
  to?: string;
  subject?: string;
  /** Only emails with a larger internal id (wait's `since`). */
  afterId?: number;
  /** Inclusive id bounds (dates resolved to ids). */
  minId?: number;
  maxId?: number;
  /** Search-language terms (`?q=`) the fields above cannot say: negations, tags, cc, sizes, headers. */
  terms?: SearchTerm[];
}

export interface Page {
  offset: number;
  limit: number;
}

/** Prepared statements, compiled once per database. */
export class EmailStore {
  private readonly insertEmail;
  private readonly insertBody;
  private readonly largeMessages;
  private readonly insertRecipient;
  private readonly insertLogStmt;
  private readonly insertProcessingLog;
  private readonly insertSearch;
  private readonly insertTag;
  private readonly selectUnindexed;
  /** Every email up to this id has its search row (see indexSearch). */
  private searchIndexedTo: number;
  /** Built on the first search of one or two characters (short-needles.ts). */
  private shortNeedles: ShortNeedleIndex | null = null;
  private readonly selectEmail;
  private readonly selectBody;
  private readonly selectRecipients;
  private readonly selectRecipientStates;
  private readonly selectLogs;
  private readonly selectLogsNoComplaint;
  private readonly updateRecipientStmt;
  private readonly updateStatusStmt;
  private readonly selectDue;
  private readonly selectDueProcessing;
  private readonly selectNextDue;
  private readonly selectNextDueProcessing;
  private readonly maxIdStmt;
  private readonly countStmt;
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.insertEmail = db.prepare(`INSERT INTO emails (id, team_id, api_key_id, source, message_id, from_address, from_name, to_addresses, subject, size, inline, attachments, snippet, created_at, metadata, status, credits_used, flags, tags)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'processing', ?, ?, ?)`);
    this.insertTag = db.prepare('INSERT OR IGNORE INTO email_tags (tag, email_id) VALUES (?, ?)');
    // header: terms of the search language read the stored message's header block.
    db.function('sendbox_header', { deterministic: true }, (raw: unknown, name: unknown, value: unknown) =>
      (Buffer.isBuffer(raw) && typeof name === 'string' && (value === null || typeof value === 'string') && headerMatches(raw, name, value) ? 1 : 0));
    this.insertBody = db.prepare('INSERT INTO email_bodies (email_id, text, html, raw, spans) VALUES (?, ?, ?, ?, ?)');
    this.largeMessages = new LargeMessages(db);
    this.insertRecipient = db.prepare(`INSERT INTO recipients (email_id, idx, address, type, state, outcome, outcome_code, outcome_response, outcome_delay_ms, decided_by, due_at)
      VALUES (?, ?, ?, ?, 'processing', ?, ?, ?, ?, ?, ?)`);
    this.insertLogStmt = db.prepare(`INSERT INTO email_logs (email_id, recipient, recipient_type, status, code, response, mx_hostname, time, queued_at)
      VALUES (@emailId, @recipient, @recipientType, @status, @code, @response, @mxHostname, @time, @queuedAt)`);
    this.insertProcessingLog = db.prepare(`INSERT INTO email_logs (email_id, recipient, recipient_type, status, code, response, mx_hostname, time, queued_at)
      VALUES (?, ?, ?, 'processing', '', '', '', ?, NULL)`);
    // OR REPLACE: at start the high-water mark is the largest indexed rowid, which can be
    // below rows already indexed when that email was deleted; re-indexing them is harmless.
    this.insertSearch = db.prepare('INSERT OR REPLACE INTO email_search (rowid, subject, recipients, sender) VALUES (?, ?, ?, ?)');
    this.selectUnindexed = db.prepare(`SELECT e.id, e.team_id, e.subject, e.metadata, e.from_name, e.from_address,
        (SELECT group_concat(address, char(10)) FROM recipients r WHERE r.email_id = e.id) AS addresses
      FROM emails e WHERE e.id > ? ORDER BY e.id LIMIT ?`);
    this.searchIndexedTo = (db.prepare('SELECT MAX(rowid) FROM email_search').pluck().get() as number | null) ?? 0;
    this.selectEmail = db.prepare('SELECT * FROM emails WHERE id = ?');
    this.selectBody = db.prepare(`SELECT b.text, b.html, ${RAW_OF_BODY} AS raw, b.spans FROM email_bodies b ${LARGE_JOIN} WHERE b.email_id = ?`);
    this.selectRecipients = db.prepare('SELECT * FROM recipients WHERE email_id = ? ORDER BY idx');
    this.selectRecipientStates = db.prepare('SELECT state FROM recipients WHERE email_id = ?').pluck();
    this.selectLogs = db.prepare('SELECT * FROM email_logs WHERE email_id = ? ORDER BY id');
    this.selectLogsNoComplaint = db.prepare("SELECT * FROM email_logs WHERE email_id = ? AND status != 'complaint' ORDER BY id");
    this.updateRecipientStmt = db.prepare('UPDATE recipients SET state = @state, attempts = @attempts, due_at = @due_at, queued_at = @queued_at WHERE email_id = @email_id AND idx = @idx');
    // Skips the write (and its index and counter updates) when nothing changes.
    this.updateStatusStmt = db.prepare('UPDATE emails SET status = @status, delivered_at = COALESCE(delivered_at, @deliveredAt) WHERE id = @id AND (status != @status OR (delivered_at IS NULL AND @deliveredAt IS NOT NULL))');
    this.selectDue = db.prepare('SELECT * FROM recipients WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?');
    this.selectDueProcessing = db.prepare("SELECT * FROM recipients WHERE due_at IS NOT NULL AND due_at <= ? AND state = 'processing' ORDER BY due_at LIMIT ?");
    this.selectNextDue = db.prepare('SELECT MIN(due_at) FROM recipients WHERE due_at IS NOT NULL').pluck();
    this.selectNextDueProcessing = db.prepare("SELECT MIN(due_at) FROM recipients WHERE due_at IS NOT NULL AND state = 'processing'").pluck();
    this.maxIdStmt = db.prepare('SELECT MAX(id) FROM emails').pluck();
    this.countStmt = db.prepare('SELECT COUNT(*) FROM emails').pluck();
  }

  /**
   * Inserts a batch of emails (rows, bodies, recipients, processing logs) in one transaction.
   * Their search rows are written later by indexSearch: FTS5 writes a segment per
   * transaction, so indexing hundreds at once costs half as much per email, and the send
   * does not wait for it. Every query that reads the search table catches up first.
   */
  insertMany(emails: NewEmail[]): void {
    const large = emails.filter((email) => email.raw.length >= LARGE_MESSAGE_BYTES);
    // Committed first, in a transaction of their own: a crash in between leaves only messages
    // that no email points to (dropped at the next open), never an email without its message.
    if (large.length) this.largeMessages.insert(large);
    try {
      this.insertRows(emails);
    } catch (error) {
      // The batch is retried email by email (WriteBatcher): none of its messages may outlive it.
      if (large.length) this.largeMessages.takeBack(large.map((email) => email.id));
      throw error;
    }
  }

  private insertRows(emails: NewEmail[]): void {
    this.db.transaction(() => {
      for (const email of emails) {
        // Positional parameters: binding a named object costs a property lookup per column.
        this.insertEmail.run(email.id, email.teamId, email.apiKeyId, email.source, email.messageId, email.fromAddress, email.fromName,
          JSON.stringify(email.toAddresses), email.subject, email.size, email.inline, email.attachments, email.snippet, email.createdAt,
          JSON.stringify(email.metadata), email.creditsUsed, JSON.stringify(email.flags), JSON.stringify(email.tags ?? []));
        const { spans } = email;
        // A body the raw message holds as is is stored once, there (text and HTML read it back by offsets).
        this.insertBody.run(email.id, spans?.text ? '' : email.text, spans?.html ? '' : email.html,
          email.raw.length >= LARGE_MESSAGE_BYTES ? EMPTY : email.raw, spans?.text || spans?.html ? JSON.stringify(spans) : null);
        for (const tag of email.tags ?? []) this.insertTag.run(tag, email.id);
        const time = Math.floor(email.createdAt / 1000);
        email.recipients.forEach((r, idx) => {
          this.insertRecipient.run(email.id, idx, r.address, r.type, r.outcome, r.code, r.response, r.delayMs, r.decidedBy, r.dueAt);
          this.insertProcessingLog.run(email.id, r.address, r.type, time);
        });
      }
    })();
  }


  /** Writes the search rows of up to `limit` emails not yet indexed; true when none are left. */
  indexSearch(limit = Infinity): boolean {
    let indexed = 0;
    while (indexed < limit) {
      const chunk = Math.min(limit - indexed, 2000);
      const rows = this.selectUnindexed.all(this.searchIndexedTo, chunk) as UnindexedRow[];
      if (rows.length === 0) return true;
      this.db.transaction(() => {
        for (const row of rows) {
          const metadata = JSON.parse(row.metadata) as StoredMetadata;
          const fields = [row.subject, searchableRecipients(metadata, row.addresses?.split('\n') ?? []), `${row.from_name} ${row.from_address}`];
          this.insertSearch.run(row.id, ...fields);
          this.shortNeedles?.append(row.id, row.team_id, fields);
        }
      })();
      this.searchIndexedTo = rows[rows.length - 1].id;
      indexed += rows.length;
      if (rows.length < chunk) return true;
    }
    return false;
  }

  /** Before a query that reads the search table: index whatever ingest wrote since. */
  private searchReady(filter: EmailFilter): void {
    if (filter.search !== undefined || filter.from !== undefined || filter.to !== undefined || filter.subject !== undefined || filter.terms?.length) this.indexSearch();
  }

  /** Stops the large messages' checkpoint worker; before the database is closed. */
  close(): Promise<void> {
    return this.largeMessages.close();
  }

  get(id: number): EmailRow | undefined {
    return this.selectEmail.get(id) as EmailRow | undefined;
  }

  body(id: number): BodyRow | undefined {
    const row = this.selectBody.get(id) as (BodyRow & { spans: string | null }) | undefined;
    if (!row) return undefined;
    const { text, html, raw, spans } = row;
    if (spans === null) return { text, html, raw };
    const { text: textSpan, html: htmlSpan } = JSON.parse(spans) as BodySpans;
    if (textSpan?.generated !== undefined) return withGeneratedText(raw, textSpan, htmlSpan, html);
    return { text: textSpan ? fromSpan(raw, textSpan) : text, html: htmlSpan ? fromSpan(raw, htmlSpan) : html, raw };
  }

  recipients(id: number): RecipientRow[] {
    return this.selectRecipients.all(id) as RecipientRow[];
  }

  /** Just the states, for the status refresh on every lifecycle step. */
  recipientStates(id: number): RecipientState[] {
    return this.selectRecipientStates.all(id) as RecipientState[];
  }

  logs(id: number, includeComplaint: boolean): LogRow[] {
    return (includeComplaint ? this.selectLogs : this.selectLogsNoComplaint).all(id) as LogRow[];
  }

  insertLog(log: NewLog): void {
    this.insertLogStmt.run(log);
  }

  updateRecipient(r: Pick<RecipientRow, 'email_id' | 'idx' | 'state' | 'attempts' | 'due_at' | 'queued_at'>): void {
    this.updateRecipientStmt.run(r);
  }

  /** A forced transition replaces the planned outcome and records who decided it. */
  setRecipientOutcome(emailId: number, idx: number, outcome: Outcome, decidedBy: string): void {
    this.db.prepare('UPDATE recipients SET outcome = ?, decided_by = ? WHERE email_id = ? AND idx = ?').run(outcome, decidedBy, emailId, idx);
  }

  setStatus(id: number, status: EmailStatus, deliveredAt: number | null): void {
    this.updateStatusStmt.run({ status, deliveredAt, id });
  }

  /** Recipients whose next step is due; `processingOnly` while the delivery clock is paused. */
  due(now: number, limit: number, processingOnly: boolean): RecipientRow[] {
    return (processingOnly ? this.selectDueProcessing : this.selectDue).all(now, limit) as RecipientRow[];
  }

  nextDue(processingOnly: boolean): number | null {
    return ((processingOnly ? this.selectNextDueProcessing : this.selectNextDue).get() as number | null) ?? null;
  }

  maxId(): number {
    return (this.maxIdStmt.get() as number | null) ?? 0;
  }

  count(): number {
    return this.countStmt.get() as number;
  }

  list(filter: EmailFilter, page: Page): { rows: EmailRow[]; total: number } {
    this.searchReady(filter);
    const resolved = this.resolveDates(this.withoutRedundantTeam(filter));
    if (resolved === null) return { rows: [], total: 0 };
    const short = this.listShortNeedle(resolved, page);
    if (short) return short;
    const searchOnly = searchOnlyCondition(resolved);
    if (searchOnly) return this.listSearchOnly(searchOnly, page);
    const total = this.countFor(resolved);
    if (total === 0 || page.offset >= total) return { rows: [], total };
    const { where, params } = whereClause(resolved);
    // The offset is walked in the (covering) index; only the page's rows are read whole.
    const rows = this.cached(`SELECT * FROM emails WHERE id IN (SELECT id FROM emails ${where} ORDER BY id DESC LIMIT ? OFFSET ?) ORDER BY id DESC`)
      .all(...params, page.limit, page.offset) as EmailRow[];
    return { rows, total };
  }

  /** A search of one or two characters (and at most a team) from the in-memory copy; null when it does not apply. */
  private listShortNeedle(filter: EmailFilter, page: Page): { rows: EmailRow[]; total: number } | null {
    const { search, teamId } = filter;
    if (search === undefined || [...search].length >= 3 || !ShortNeedleIndex.accepts(search) || !searchIsTheOnlyCondition(filter)) return null;
    this.shortNeedles ??= this.buildShortNeedles();
    const { total, ids } = this.shortNeedles.search(search, teamId, page.offset, page.limit);
    if (ids.length === 0) return { rows: [], total };
    const rows = this.cached(`SELECT * FROM emails WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id DESC`).all(...ids) as EmailRow[];
    return { rows, total };
  }

  /** The in-memory copy for short searches, read one segment at a time from the search table. */
  private buildShortNeedles(): ShortNeedleIndex {
    const from = 'FROM email_search_content c JOIN emails e ON e.id = c.id WHERE c.id > ? ORDER BY c.id LIMIT ?';
    const idsStatement = this.db.prepare(`SELECT c.id ${from}`).pluck();
    const teamsStatement = this.db.prepare(`SELECT e.team_id ${from}`).pluck();
    // lower() folds A–Z only, as LIKE and asciiLower do; every email's text ends with EMAIL.
    // As a BLOB, the segment arrives as a Buffer: no string on the JavaScript heap.
    const textStatement = this.db.prepare(`SELECT CAST(group_concat(t, '' ORDER BY id) AS BLOB) FROM (SELECT c.id AS id, lower(c.c0 || ? || c.c1 || ? || c.c2) || ? AS t ${from})`).pluck();
    function* segments() {
      for (let after = 0; ; ) {
        const ids = idsStatement.all(after, SEGMENT_SIZE) as number[];
        if (ids.length === 0) return;
        const teams = teamsStatement.all(after, SEGMENT_SIZE) as string[];
        const text = textStatement.get(FIELD, FIELD, EMAIL, after, SEGMENT_SIZE) as Buffer;
        yield { ids, teams, text };
        after = ids[ids.length - 1];
      }
    }
    return ShortNeedleIndex.build(segments());
  }

  /**
   * A search with no other condition is answered by the search table alone: it holds one
   * row per email (deleted together), so its count is the total, and it walks its rowids
   * newest first lazily for the page, instead of joining every match back to emails.
   */
  private listSearchOnly(condition: SearchCondition, page: Page): { rows: EmailRow[]; total: number } {
    const from = `FROM ${condition.table} WHERE ${condition.sql}`;
    const total = this.cached(`SELECT COUNT(*) ${from}`).pluck().get(...condition.params) as number;
    if (total === 0 || page.offset >= total) return { rows: [], total };
    const rows = this.cached(`SELECT e.* FROM (SELECT ${condition.id} AS id ${from} ORDER BY ${condition.id} DESC LIMIT ? OFFSET ?) AS hit JOIN emails e ON e.id = hit.id ORDER BY e.id DESC`)
      .all(...condition.params, page.limit, page.offset) as EmailRow[];
    return { rows, total };
  }

  /**
   * A text search first collects the matching ids from the search index; checking each of
   * them against the team costs more than the search itself. When the team holds every
   * stored email (one key, or one test worker), that check is dropped.
   */
  private withoutRedundantTeam(filter: EmailFilter): EmailFilter {
    const searches = filter.search !== undefined || filter.from !== undefined || filter.to !== undefined || filter.subject !== undefined;
    if (!searches || filter.teamId === null) return filter;
    const others = this.cached('SELECT COALESCE(SUM(n), 0) FROM email_counts WHERE team_id != ?').pluck().get(filter.teamId) as number;
    return others === 0 ? { ...filter, teamId: null } : filter;
  }

  /** Exact total: from the trigger-kept counters when the filter allows, else counted. */
  private countFor(filter: EmailFilter): number {
    // |A without B| = |A| - |A and B|: counting a negated index term this way walks its
    // (index-found) matches instead of testing every email of the team (28 ms → a few at 100 000).
    const negated = filter.terms?.filter((t) => t.negated) ?? [];
    if (negated.length === 1 && INDEXED_KINDS.has(negated[0].kind)) {
      const others = filter.terms!.filter((t) => t !== negated[0]);
      const rest: EmailFilter = { ...filter, terms: others.length ? others : undefined };
      return this.countFor(rest) - this.countFor({ ...rest, terms: [...others, { ...negated[0], negated: false }] });
    }
    const countable = filter.search === undefined && filter.from === undefined && filter.to === undefined && filter.subject === undefined
      && filter.hasAttachment === undefined && filter.afterId === undefined && filter.minId === undefined && filter.maxId === undefined && !filter.terms?.length;
    if (!countable) {
      const { where, params } = whereClause(filter);
      return this.cached(`SELECT COUNT(*) FROM emails ${where}`).pluck().get(...params) as number;
    }
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.teamId !== null) { clauses.push('team_id = ?'); params.push(filter.teamId); }
    if (filter.statuses?.length) { clauses.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`); params.push(...filter.statuses); }
    if (filter.apiKeyId !== undefined) { clauses.push('api_key_id = ?'); params.push(filter.apiKeyId); }
    if (filter.isRead !== undefined) { clauses.push('is_read = ?'); params.push(filter.isRead ? 1 : 0); }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    return (this.cached(`SELECT COALESCE(SUM(n), 0) FROM email_counts ${where}`).pluck().get(...params) as number);
  }

  /**
   * created_at never decreases as ids grow (ingest keeps it monotonic), so a date range
   * is an id range found in the created_at index; null when no email can match.
   */
  private resolveDates(filter: EmailFilter): EmailFilter | null {
    if (filter.startMs === undefined && filter.endMs === undefined) return filter;
    const out: EmailFilter = { ...filter, startMs: undefined, endMs: undefined };
    if (filter.startMs !== undefined) {
      const first = this.cached('SELECT id FROM emails WHERE created_at >= ? ORDER BY created_at, id LIMIT 1').pluck().get(filter.startMs) as number | undefined;
      if (first === undefined) return null;
      out.minId = first;
    }
    if (filter.endMs !== undefined) {
      const last = this.cached('SELECT id FROM emails WHERE created_at <= ? ORDER BY created_at DESC, id DESC LIMIT 1').pluck().get(filter.endMs) as number | undefined;
      if (last === undefined) return null;
      out.maxId = last;
    }
    return out;
  }

  /** Latest created_at stored, so ingest can keep it monotonic across restarts. */
  maxCreatedAt(): number {
    return (this.db.prepare('SELECT MAX(created_at) FROM emails').pluck().get() as number | null) ?? 0;
  }

  /** Prepared statements for the dynamic list queries, compiled once per distinct SQL. */
  private cached(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size > 500) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Oldest first: used by wait, which answers with the earliest matches. */
  listAscending(filter: EmailFilter, limit: number): EmailRow[] {
    this.searchReady(filter);
    const resolved = this.resolveDates(filter);
    if (resolved === null) return [];
    const { where, params } = whereClause(resolved);
    return this.db.prepare(`SELECT * FROM emails ${where} ORDER BY id ASC LIMIT ?`).all(...params, limit) as EmailRow[];
  }

  countMatching(filter: EmailFilter): number {
    this.searchReady(filter);
    const resolved = this.resolveDates(this.withoutRedundantTeam(filter));
    return resolved === null ? 0 : this.countFor(resolved);
  }

  /** Deletes emails with everything that hangs off them; returns how many went. */
  deleteWhere(sqlCondition: string, params: unknown[]): number {
    // Rebuilt from the search table on the next short search.
    this.shortNeedles = null;
    return this.deleteRows(sqlCondition, params);
  }

  private deleteRows(sqlCondition: string, params: unknown[]): number {
    return this.db.transaction(() => {
      const ids = `SELECT id FROM emails WHERE ${sqlCondition}`;
      this.db.prepare(`DELETE FROM email_bodies WHERE email_id IN (${ids})`).run(...params);
      // One transaction over all the files; SQLite commits the main one first, so a crash in
      // between can only leave a large message whose email is gone (storage/large-messages.ts).
      for (const schema of LARGE_SCHEMAS) this.db.prepare(`DELETE FROM ${schema}.raw_messages WHERE email_id IN (${ids})`).run(...params);
      this.db.prepare(`DELETE FROM recipients WHERE email_id IN (${ids})`).run(...params);
      this.db.prepare(`DELETE FROM email_logs WHERE email_id IN (${ids})`).run(...params);
      this.db.prepare(`DELETE FROM email_events WHERE email_id IN (${ids})`).run(...params);
      this.db.prepare(`DELETE FROM email_search WHERE rowid IN (${ids})`).run(...params);
      this.db.prepare(`DELETE FROM email_tags WHERE email_id IN (${ids})`).run(...params);
      return this.db.prepare(`DELETE FROM emails WHERE ${sqlCondition}`).run(...params).changes;
    })();
  }

  deleteOne(id: number): boolean {
    return this.deleteWhere('id = ?', [id]) > 0;
  }

  deleteTeam(teamId: string | null): number {
    return teamId === null ? this.deleteWhere('1 = 1', []) : this.deleteWhere('team_id = ?', [teamId]);
  }

  /** Retention: keeps the newest `max` emails; returns the pruned ones. */
  pruneTo(max: number): { id: number; team_id: string }[] {
    return this.pruneThrough(this.db.prepare('SELECT id FROM emails ORDER BY id DESC LIMIT 1 OFFSET ?').pluck().get(max) as number | undefined);
  }

  /**
   * Retention by age: deletes every email created before `cutoffMs` (created_at grows with
   * the id, so it is an id range); returns the pruned ones for their deletion events.
   */
  pruneOlderThan(cutoffMs: number): { id: number; team_id: string }[] {
    return this.pruneThrough(this.db.prepare('SELECT id FROM emails WHERE created_at < ? ORDER BY created_at DESC, id DESC LIMIT 1').pluck().get(cutoffMs) as number | undefined);
  }

  /** Deletes every email up to this id (retention); returns them for their deletion events. */
  private pruneThrough(last: number | undefined): { id: number; team_id: string }[] {
    if (last === undefined) return [];
    const pruned = this.db.prepare('SELECT id, team_id FROM emails WHERE id <= ?').all(last) as { id: number; team_id: string }[];
    this.deleteRows('id <= ?', [last]);
    this.shortNeedles?.dropThrough(last);
    return pruned;
  }

  /** created_at of the oldest stored email (the lowest id), or null when there is none. */
  oldestCreatedAt(): number | null {
    return (this.db.prepare('SELECT created_at FROM emails ORDER BY id LIMIT 1').pluck().get() as number | undefined) ?? null;
  }

  /** The ids (and teams) of every email the filter matches, newest first: what a bulk action by search acts on. */
  matching(filter: EmailFilter): { id: number; team_id: string }[] {
    this.searchReady(filter);
    const resolved = this.resolveDates(filter);
    if (resolved === null) return [];
    const { where, params } = whereClause(resolved);
    return this.cached(`SELECT id, team_id FROM emails ${where} ORDER BY id DESC`).all(...params) as { id: number; team_id: string }[];
  }

  /** The given ids that exist, with their teams. */
  existing(ids: number[]): { id: number; team_id: string }[] {
    return this.cached('SELECT id, team_id FROM emails WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id DESC').all(JSON.stringify(ids)) as { id: number; team_id: string }[];
  }

  /** Deletes the given emails; one JSON parameter, so any number of ids fits in one statement. */
  deleteIds(ids: number[]): number {
    return this.deleteWhere('id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]);
  }

  markReadIds(ids: number[], read: boolean): number {
    return this.db.prepare('UPDATE emails SET is_read = ? WHERE is_read != ? AND id IN (SELECT value FROM json_each(?))').run(read ? 1 : 0, read ? 1 : 0, JSON.stringify(ids)).changes;
  }

  markRead(id: number, read: boolean): void {
    this.db.prepare('UPDATE emails SET is_read = ? WHERE id = ?').run(read ? 1 : 0, id);
  }

  recordEvent(emailId: number, type: 'open' | 'click', recipient: string, url: string | null, at: number): void {
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO email_events (email_id, type, recipient, url, at) VALUES (?, ?, ?, ?, ?)').run(emailId, type, recipient, url, at);
      if (type === 'open') this.db.prepare('UPDATE emails SET opened_at = COALESCE(opened_at, ?) WHERE id = ?').run(at, emailId);
      else this.db.prepare('UPDATE emails SET click_count = click_count + 1 WHERE id = ?').run(emailId);
    })();
  }

  events(emailId: number): { type: string; recipient: string; url: string | null; at: number }[] {
    return this.db.prepare('SELECT type, recipient, url, at FROM email_events WHERE email_id = ? ORDER BY id').all(emailId) as { type: string; recipient: string; url: string | null; at: number }[];
  }

  /** Unread and total counts per team, for the inbox's mailboxes (from the counters). */
  teamCounts(): { team_id: string; total: number; unread: number }[] {
    return this.db.prepare('SELECT team_id, SUM(n) AS total, SUM(CASE WHEN is_read = 0 THEN n ELSE 0 END) AS unread FROM email_counts GROUP BY team_id HAVING SUM(n) > 0 ORDER BY team_id').all() as { team_id: string; total: number; unread: number }[];
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}

/**
 * The recipients' text for search: every display form once (it contains the address),
 * plus bare addresses not already in one. Fewer characters, fewer trigrams to index.
 */
function searchableRecipients(metadata: StoredMetadata, addresses: string[]): string {
  const { to, cc, bcc } = metadata;
  const forms = [...new Set([...to, ...(cc ?? []), ...(bcc ?? [])])];
  const joined = forms.join(' ').toLowerCase();
  for (const address of addresses) if (!joined.includes(address.toLowerCase())) forms.push(address);
  return forms.join(' ');
}

interface UnindexedRow {
  id: number;
  team_id: string;
  subject: string;
  metadata: string;
  from_name: string;
  from_address: string;
  addresses: string | null;
}

/** The search table's own condition when `search` is the filter's only condition. */
function searchOnlyCondition(filter: EmailFilter): SearchCondition | null {
  if (filter.search === undefined || filter.teamId !== null || !searchIsTheOnlyCondition(filter)) return null;
  return searchCondition(filter.search);
}

/** True when the filter has nothing but `search` and a team (empty lists count as none). */
function searchIsTheOnlyCondition(filter: EmailFilter): boolean {
  const { search: _search, teamId: _teamId, ...rest } = filter;
  return !Object.values(rest).some((value) => value !== undefined && !(Array.isArray(value) && value.length === 0));
}

/** A condition on the search table. FTS5 trigram needs 3 characters; shorter needles scan it with LIKE. */
interface SearchCondition {
  /** The table to read ids from, and its id column. */
  table: 'email_search' | 'email_search_content';
  id: 'rowid' | 'id';
  sql: string;
  params: unknown[];
}

/** An FTS5 phrase: quotes doubled; NUL removed, since it ends FTS5's query string early. */
const ftsPhrase = (value: string) => `"${value.replace(/\u0000/g, '').replace(/"/g, '""')}"`;

function searchCondition(search: string): SearchCondition {
  if ([...search].length >= 3) {
    return { table: 'email_search', id: 'rowid', sql: 'email_search MATCH ?', params: [ftsPhrase(search)] };
  }
  // Below 3 characters the trigram index cannot help. Scanning FTS5's own content table
  // (its documented `_content` shadow table: id, c0 subject, c1 recipients, c2 sender)
  // is ~3x faster than a LIKE through the virtual table.
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return {
    table: 'email_search_content',
    id: 'id',
    sql: "(c0 LIKE ? ESCAPE '\\' OR c1 LIKE ? ESCAPE '\\' OR c2 LIKE ? ESCAPE '\\')",
    params: [like, like, like],
  };
}

function whereClause(filter: EmailFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    clauses.push(sql);
    params.push(...values);
  };
  if (filter.teamId !== null) add('team_id = ?', filter.teamId);
  if (filter.statuses?.length) add(`status IN (${filter.statuses.map(() => '?').join(', ')})`, ...filter.statuses);
  if (filter.apiKeyId !== undefined) add('api_key_id = ?', filter.apiKeyId);
  if (filter.startMs !== undefined) add('created_at >= ?', filter.startMs);
  if (filter.endMs !== undefined) add('created_at <= ?', filter.endMs);
  if (filter.isRead !== undefined) add('is_read = ?', filter.isRead ? 1 : 0);
  if (filter.hasAttachment !== undefined) add(filter.hasAttachment ? 'attachments > 0' : 'attachments = 0');
  if (filter.afterId !== undefined) add('id > ?', filter.afterId);
  if (filter.minId !== undefined) add('id >= ?', filter.minId);
  if (filter.maxId !== undefined) add('id <= ?', filter.maxId);
  // Column filters: FTS column syntax, or (below 3 characters) the content table's c0/c1/c2.
  for (const [column, content, value] of [['sender', 'c2', filter.from], ['recipients', 'c1', filter.to], ['subject', 'c0', filter.subject]] as const) {
    if (!value) continue;
    if ([...value].length >= 3) add('id IN (SELECT rowid FROM email_search WHERE email_search MATCH ?)', `${column} : ${ftsPhrase(value)}`);
    else add(`id IN (SELECT id FROM email_search_content WHERE ${content} LIKE ? ESCAPE '\\')`, `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (filter.search) {
    const { table, id, sql, params: p } = searchCondition(filter.search);
    add(`id IN (SELECT ${id} FROM ${table} WHERE ${sql})`, ...p);
  }
  for (const term of filter.terms ?? []) {
    const { sql, params: p } = termCondition(term);
    add(term.negated ? `NOT (${sql})` : sql, ...p);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** Terms whose matches an index finds (FTS, the tag index): a negation of one is counted by subtraction. */
const INDEXED_KINDS = new Set<SearchTerm['kind']>(['text', 'from', 'to', 'subject', 'tag']);

const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One search-language term as a condition on emails (before negation). */
function termCondition(term: SearchTerm): { sql: string; params: unknown[] } {
  switch (term.kind) {
    case 'text': {
      const { table, id, sql, params } = searchCondition(term.value);
      return { sql: `id IN (SELECT ${id} FROM ${table} WHERE ${sql})`, params };
    }
    case 'from':
    case 'to':
    case 'subject': {
      const [column, content] = ({ from: ['sender', 'c2'], to: ['recipients', 'c1'], subject: ['subject', 'c0'] } as const)[term.kind];
      if ([...term.value].length >= 3) return { sql: 'id IN (SELECT rowid FROM email_search WHERE email_search MATCH ?)', params: [`${column} : ${ftsPhrase(term.value)}`] };
      return { sql: `id IN (SELECT id FROM email_search_content WHERE ${content} LIKE ? ESCAPE '\\')`, params: [likePattern(term.value)] };
    }
    case 'cc':
      return { sql: `id IN (SELECT email_id FROM recipients WHERE type = 'cc' AND address LIKE ? ESCAPE '\\')`, params: [likePattern(term.value)] };
    case 'tag':
      return { sql: 'id IN (SELECT email_id FROM email_tags WHERE tag = ?)', params: [term.value] };
    case 'status':
      return { sql: `status IN (${term.statuses.map(() => '?').join(', ')})`, params: term.statuses };
    case 'is':
      return { sql: 'is_read = ?', params: [term.read ? 1 : 0] };
    case 'has':
      return { sql: term.part === 'attachment' ? 'attachments > 0' : 'inline > 0', params: [] };
    case 'after':
      return { sql: 'created_at >= ?', params: [term.ms] };
    case 'before':
      return { sql: 'created_at < ?', params: [term.ms] };
    case 'larger':
      return { sql: 'size > ?', params: [term.bytes] };
    case 'smaller':
      return { sql: 'size < ?', params: [term.bytes] };
    case 'header':
      // Correlated, so a page walking ids newest first stops reading bodies once it is full.
      return {
        sql: `EXISTS (SELECT 1 FROM email_bodies b ${LARGE_JOIN} WHERE b.email_id = emails.id AND sendbox_header(${RAW_OF_BODY}, ?, ?))`,
        params: [term.name, term.value],
      };
  }
}
