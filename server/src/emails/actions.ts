import { z } from 'zod';
import { EVENT_ID_LIMIT, normalizeTag, uniqueTags, type BulkAction, type BulkResult, type EmailsChanged } from '../../../shared/tags.js';
import { bulkRequestSchema, setTagsRequestSchema, tagListSchema } from '../../../shared/tag-schemas.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import type { EmailFilter, EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import type { TagStore } from '../storage/tags.js';
import { invalid, invalidFromZod } from '../errors.js';
import { applySearch } from './search.js';

/** Tags from a request body: normalized and distinct; 422 naming the bad one. */
export function parseTags(value: unknown, field = 'tags', min = 0): string[] {
  const parsed = tagListSchema(field).min(min, `${field} needs at least ${min} tag`).safeParse(value);
  if (!parsed.success) throw invalidFromZod(new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: [field, ...i.path] }))));
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
  setTags(row: { id: number; team_id: string }, body: unknown): string[] {
    const parsed = setTagsRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidFromZod(parsed.error);
    const tags = this.deps.tags.set(row.id, parseTags(parsed.data.tags));
    this.announce({ action: 'set_tags', ids: [this.deps.ids.encode(row.id)], tags, count: 1, team_id: row.team_id });
    return tags;
  }

  /** `POST /sandbox/emails/bulk`. */
  bulk(body: unknown): BulkResult {
    const parsed = bulkRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidFromZod(parsed.error);
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
