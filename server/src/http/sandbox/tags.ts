import { Router } from 'express';
import type { Services } from '../../context.js';
import { methodNotAllowed, validationError } from '../errors.js';
import { EmailActions } from '../../emails/actions.js';
import { renameTagRequestSchema } from '../../../../shared/tag-schemas.js';
import { TagStore } from '../../storage/tags.js';
import { presentSummary } from '../../emails/view.js';
import { emailParam, jsonBody, queryTeam } from './query.js';

/**
 * Tags and bulk actions (CONTRACT §9): `PUT /sandbox/emails/{id}/tags`,
 * `POST /sandbox/emails/bulk`, and `/sandbox/tags` to list, rename and delete a tag across
 * all mail (or one team's, with `team_id`). One EmailActions serves both routers: it owns these writes and their events.
 */
export function sandboxTaggingRouters(services: Services): { emails: Router; tags: Router } {
  const tagStore = new TagStore(services.db);
  const actions = new EmailActions({ emails: services.emails, tags: tagStore, ids: services.ids, events: services.events, logger: services.logger.child('sim'), recount: () => services.ingest.recount() });

  const emails = Router();
  // Mounted before the emails router, whose /:id would take "bulk" for an id.
  emails.post('/bulk', (req, res) => {
    const result = actions.bulk(jsonBody(req));
    res.json({ status: 200, message: `${result.action}: ${result.count} email${result.count === 1 ? '' : 's'}`, data: result });
  });
  emails.all('/bulk', methodNotAllowed(['POST']));

  emails.put('/:id/tags', (req, res) => {
    const row = emailParam(services, req);
    actions.setTags(row, jsonBody(req));
    res.json({ status: 200, message: 'Tags set', data: presentSummary(services.emails.get(row.id)!, services.ids) });
  });
  emails.all('/:id/tags', methodNotAllowed(['PUT']));

  const tags = Router();
  tags.get('/', (req, res) => {
    res.json({ status: 200, message: 'Tags retrieved successfully', data: tagStore.counts(queryTeam(req) ?? null) });
  });
  tags.all('/', methodNotAllowed(['GET']));

  tags.put('/:tag', (req, res) => {
    const parsed = renameTagRequestSchema.safeParse(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    const { name, team_id } = parsed.data;
    const count = actions.renameTag(String(req.params.tag), name, team_id ?? null);
    res.json({ status: 200, message: `Renamed on ${count} email${count === 1 ? '' : 's'}`, data: { tag: String(req.params.tag), name, count } });
  });
  tags.delete('/:tag', (req, res) => {
    const count = actions.deleteTag(String(req.params.tag), queryTeam(req) ?? null);
    res.json({ status: 200, message: `Removed from ${count} email${count === 1 ? '' : 's'}`, data: { tag: String(req.params.tag), count } });
  });
  tags.all('/:tag', methodNotAllowed(['PUT', 'DELETE']));
  return { emails, tags };
}
