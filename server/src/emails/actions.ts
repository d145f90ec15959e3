import { z } from 'zod';
import { BULK_ACTIONS, EVENT_ID_LIMIT, MAX_TAGS_PER_EMAIL, normalizeTag, uniqueTags, type BulkAction, type BulkResult, type EmailsChanged } from '../../../shared/tags.js';
import { MAX_QUERY_LENGTH } from '../../../shared/search.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import type { EmailFilter, EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import type { TagStore } from '../storage/tags.js';
import { invalid, type DomainError } from '../errors.js';
import { applySearch } from './search.js';

/** Most ids one bulk request may name; a search (`q`) has no such bound. */
export const MAX_BULK_IDS = 10_000;

const TEAM_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const tagList = (field: string) => z.array(z.string({ error: `${field} must be strings` }), { error: `${field} must be an array of tags` })
  .max(MAX_TAGS_PER_EMAIL, `${field} takes at most ${MAX_TAGS_PER_EMAIL} tags`);

const bulkSchema = z.strictObject({
  ids: z.array(z.string({ error: 'ids must be email ids' }), { error: 'ids must be an array of email ids' }).min(1, 'ids needs at least one id').max(MAX_BULK_IDS, `ids takes at most ${MAX_BULK_IDS} ids; use q for more`).optional(),
  q: z.string({ error: 'q must be a search string' }).max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
  team_id: z.string({ error: 'team_id must be a team id' }).regex(TEAM_ID, 'team_id must be a team id such as team_0123456789ab').optional(),
  action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
  tags: tagList('tags').optional(),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${(issue as { keys?: string[] }).keys?.join(', ')}; allowed: ids, q, team_id, action, tags` : 'Body must be a JSON object') });

/** A zod failure as the contract's 422 with dotted field paths. */
function invalidBody(error: z.ZodError): DomainError {
  const errors = error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
  return invalid(errors[0].field === 'body' ? errors[0].message : `Invalid ${errors[0].field}: ${errors[0].message}`, errors);
}

/** Tags from a request body: normalized and distinct; 422 naming the bad one. */
export function parseTags(value: unknown, field = 'tags', min = 0): string[] {
  const parsed = tagList(field).min(min, `${field} needs at least ${min} tag`).safeParse(value);
  if (!parsed.success) throw invalidBody(new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: [field, ...i.path] }))));
  const tags = parsed.data.map(normalizeTag);
  const bad = tags.findIndex((t) => t === null);
  if (bad !== -1) throw invalid(`Invalid ${field}.${bad}: a tag has 1 to 64 characters besides spaces and commas`, [{ field: `${field}.${bad}`, message: 'not a tag' }]);
  return uniqueTags(tags as string[]);
}

/**
 * The one place that changes emails' tags and read flags in bulk and deletes in bulk: each
 * request is one transaction and one `emails.changed` event (CONTRACT §9), which carries the
 * ids so the inbox applies it in place.
 */
export class EmailActions {
  constructor(private readonly deps: { emails: EmailStore; tags: TagStore; ids: IdCodec; events: EventBus; logger: Logger; recount: () => void }) {}

  /** `PUT /sandbox/emails/{id}/tags`: replaces one email's tags. */
  setTags(row: { id: number; team_id: string }, body: Record<string, unknown>): string[] {
    const unknown = Object.keys(body).filter((k) => k !== 'tags');
    if (unknown.length) throw invalid(`Unknown field ${unknown[0]}: the body is {"tags": [...]}`, unknown.map((field) => ({ field, message: 'unknown field' })));
    if (body.tags === undefined) throw invalid('tags is required: an array of tags ([] removes them all)', [{ field: 'tags', message: 'required' }]);
    const tags = this.deps.tags.set(row.id, parseTags(body.tags));
    this.announce({ action: 'set_tags', ids: [this.deps.ids.encode(row.id)], tags, count: 1, team_id: row.team_id });
    return tags;
  }

  /** `POST /sandbox/emails/bulk`. */
  bulk(body: unknown): BulkResult {
    const parsed = bulkSchema.safeParse(body);
    if (!parsed.success) throw invalidBody(parsed.error);
    const request = parsed.data;
    if ((request.ids === undefined) === (request.q === undefined)) {
      throw invalid('Give either ids (a list of email ids) or q (a search; "" for every email)', [{ field: request.ids ? 'q' : 'ids', message: 'exactly one of ids and q' }]);
    }
    const tagging = request.action === 'tag' || request.action === 'untag';
    if (tagging && request.tags === undefined) throw invalid(`tags is required for action ${request.action}`, [{ field: 'tags', message: 'required' }]);
    if (!tagging && request.tags !== undefined) throw invalid(`tags goes only with action tag or untag, not ${request.action}`, [{ field: 'tags', message: 'not allowed for this action' }]);
    const tags = tagging ? parseTags(request.tags, 'tags', 1) : [];
    const target = request.ids !== undefined ? this.decodeIds(request.ids) : null;
    let filter: EmailFilter | null = null;
    if (request.q !== undefined) filter = applySearch({ teamId: request.team_id ?? null }, request.q);

    const { emails } = this.deps;
    const { rows, changed } = emails.transaction(() => {
      let rows = target !== null ? emails.existing(target) : emails.matching(filter!);
      if (target !== null && request.team_id !== undefined) rows = rows.filter((r) => r.team_id === request.team_id);
      const ids = rows.map((r) => r.id);
      return { rows, changed: ids.length === 0 ? [] : this.apply(request.action, ids, tags) };
    });
    if (request.action === 'delete' && rows.length) this.deps.recount();
    const changedIds = new Set(changed);
    const touched = request.action === 'tag' || request.action === 'untag' ? rows.filter((r) => changedIds.has(r.id)) : rows;
    this.deps.logger.debug(`bulk ${request.action}: ${rows.length} emails matched, ${touched.length} changed`);
    if (touched.length) this.announce(this.changeEvent(request.action, touched, tags));
    return { action: request.action, count: rows.length };
  }

  /** Renames a tag across all mail (or one team's); returns how many emails changed. */
  renameTag(from: string, to: string, teamId: string | null = null): number {
    const fromTag = parseTags([from], 'tag', 1)[0];
    const toTag = parseTags([to], 'name', 1)[0];
    const changed = this.deps.tags.rename(fromTag, toTag, teamId);
    if (changed.length) this.announce(this.changeEvent('rename_tag', this.teamsOf(changed), [fromTag, toTag]));
    return changed.length;
  }

  /** Removes a tag from all mail (or one team's); returns how many emails carried it. */
  deleteTag(tag: string, teamId: string | null = null): number {
    const [name] = parseTags([tag], 'tag', 1);
    const { tags } = this.deps;
    const changed = tags.remove(tags.emailsWith(name, teamId), [name]);
    if (changed.length) this.announce(this.changeEvent('untag', this.teamsOf(changed), [name]));
    return changed.length;
  }

  private apply(action: BulkAction, ids: number[], tags: string[]): number[] {
    const { emails, tags: tagStore } = this.deps;
    switch (action) {
      case 'delete':
        emails.deleteIds(ids);
        return ids;
      case 'read':
      case 'unread':
        emails.markReadIds(ids, action === 'read');
        return ids;
      case 'tag':
        return tagStore.add(ids, tags);
      case 'untag':
        return tagStore.remove(ids, tags);
    }
  }

  private teamsOf(ids: number[]): { id: number; team_id: string }[] {
    return this.deps.emails.existing(ids);
  }

  private changeEvent(action: EmailsChanged['action'], rows: { id: number; team_id: string }[], tags: string[]): EmailsChanged {
    const teams = new Set(rows.map((r) => r.team_id));
    return {
      action,
      ids: rows.length > EVENT_ID_LIMIT ? null : rows.map((r) => this.deps.ids.encode(r.id)),
      tags,
      count: rows.length,
      team_id: teams.size === 1 ? [...teams][0] : null,
    };
  }

  private announce(data: EmailsChanged): void {
    this.deps.events.publish({ type: 'emails.changed', data });
  }

  /** Public ids → internal ids; an id that is not one of sendbox's is a 422 naming its index. */
  private decodeIds(publicIds: string[]): number[] {
    return publicIds.map((publicId, index) => {
      const id = this.deps.ids.decode(publicId);
      if (id === null) throw invalid(`Invalid ids.${index}: ${JSON.stringify(publicId.slice(0, 40))} is not an email id`, [{ field: `ids.${index}`, message: 'not an email id' }]);
      return id;
    });
  }
}
