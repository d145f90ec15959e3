import { z } from 'zod';
import { BULK_ACTIONS, MAX_TAGS_PER_EMAIL } from './tags.js';
import { MAX_QUERY_LENGTH } from './search.js';

/**
 * zod schemas of the tag, bulk and read-flag requests (issue 14, CONTRACT §9): the server
 * validates with them and the OpenAPI document is generated from them. Apart from tags.ts,
 * which the inbox imports at run time without zod.
 */

/** Most ids one bulk request may name; a search (`q`) has no such bound. */
export const MAX_BULK_IDS = 10_000;
const TEAM_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const teamId = z.string({ error: 'team_id must be a team id' }).regex(TEAM_ID, 'team_id must be a team id such as team_0123456789ab');

/** A list of tags as sent; each is normalized (and checked) by the server. */
export const tagListSchema = (field: string) =>
  z.array(z.string({ error: `${field} must be strings` }), { error: (issue) => (issue.input === undefined ? `${field} is required: an array of tags` : `${field} must be an array of tags`) })
    .max(MAX_TAGS_PER_EMAIL, `${field} takes at most ${MAX_TAGS_PER_EMAIL} tags`);

const unknownKeys = (allowed: string) => (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? `unknown field; allowed: ${allowed}` : 'Body must be a JSON object');

export const bulkRequestSchema = z.strictObject({
  ids: z.array(z.string({ error: 'ids must be email ids' }), { error: 'ids must be an array of email ids' }).min(1, 'ids needs at least one id').max(MAX_BULK_IDS, `ids takes at most ${MAX_BULK_IDS} ids; use q for more`).optional().describe('Exactly one of ids and q'),
  q: z.string({ error: 'q must be a search string' }).max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional().describe('A search in the search language; "" is every email (of team_id)'),
  team_id: teamId.optional(),
  action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
  tags: tagListSchema('tags').optional().describe('Only with tag and untag'),
}, { error: unknownKeys('ids, q, team_id, action, tags') });

/** `PUT /sandbox/emails/{id}/tags`: replaces the email's tags (`[]` removes them all). */
export const setTagsRequestSchema = z.strictObject({ tags: tagListSchema('tags') }, { error: unknownKeys('tags') });

/** `PUT /sandbox/tags/{tag}`: renames the tag on every email (of `team_id`). */
export const renameTagRequestSchema = z.strictObject({
  name: z.string({ error: (issue) => (issue.input === undefined ? 'name is required: the new name of the tag' : 'name must be a string') }),
  team_id: teamId.optional(),
}, { error: unknownKeys('name, team_id') });

/** `PATCH /sandbox/emails/{id}`: the read flag. */
export const markReadRequestSchema = z.strictObject({
  read: z.boolean({ error: 'read must be true or false' }),
}, { error: unknownKeys('read') });
