/**
 * Tags and bulk actions (issue 14): shapes shared by the server, the inbox and the client.
 * Plain values only, no runtime imports.
 */

/** Tags: trimmed, inner whitespace folded, no control characters or commas; compared case-insensitively. */
export const MAX_TAG_LENGTH = 64;
export const MAX_TAGS_PER_EMAIL = 20;

/** A tag cleaned for storage, or null when nothing usable is left. */
export function normalizeTag(tag: string): string | null {
  const cleaned = tag.replace(/[\x00-\x1f\x7f,]/g, ' ').replace(/\s+/g, ' ').trim();
  if (cleaned === '' || [...cleaned].length > MAX_TAG_LENGTH) return null;
  return cleaned;
}

/** `X-Tags: a, b,c` → distinct tags (case-insensitively), in order; Mailpit's convention. */
export function parseTagsHeader(value: string | undefined): string[] {
  if (!value) return [];
  return uniqueTags(value.split(',').map(normalizeTag).filter((t): t is string => t !== null)).slice(0, MAX_TAGS_PER_EMAIL);
}

/** Distinct tags, compared case-insensitively, first spelling kept. */
export function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export const BULK_ACTIONS = ['delete', 'read', 'unread', 'tag', 'untag'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** `POST /sandbox/emails/bulk`: either `ids` or `q` (a search; "" is every email), optionally within a team. */
export interface BulkRequest {
  ids?: string[];
  q?: string;
  team_id?: string;
  action: BulkAction;
  /** For tag and untag. */
  tags?: string[];
}

export interface BulkResult {
  action: BulkAction;
  /** How many emails matched (and were changed or deleted). */
  count: number;
}

/** `GET /sandbox/tags`: each tag in use and how many emails carry it. */
export interface TagCount {
  tag: string;
  count: number;
}

/**
 * The one event of a bulk change, a tag set on one email, or a tag renamed or deleted across
 * all mail (SSE `emails.changed`). `ids` lists the emails changed; null when there were more
 * than EVENT_ID_LIMIT, then consumers refetch instead of applying it in place.
 */
export interface EmailsChanged {
  action: BulkAction | 'set_tags' | 'rename_tag';
  ids: string[] | null;
  /** tag/untag: the tags added or removed; set_tags: the emails' tags now; rename_tag: [from, to]. */
  tags: string[];
  count: number;
  /** The team of every changed email, or null when they span teams (every stream gets it). */
  team_id: string | null;
}

export const EVENT_ID_LIMIT = 5000;
