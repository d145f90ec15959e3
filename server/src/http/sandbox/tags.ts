import { Router } from 'express';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed } from '../errors.js';
import { EmailActions } from '../../emails/actions.js';
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
    const body = jsonBody(req);
    const unknown = Object.keys(body).filter((k) => k !== 'name' && k !== 'team_id');
    if (unknown.length) throw new ApiError(422, `Unknown field ${unknown[0]}: the body is {"name": "...", "team_id"?}`, unknown.map((field) => ({ field, message: 'unknown field' })));
    if (body.team_id !== undefined && (typeof body.team_id !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(body.team_id))) {
      throw new ApiError(422, 'team_id must be a team id such as team_0123456789ab', [{ field: 'team_id', message: 'invalid team id' }]);
    }
    const count = actions.renameTag(String(req.params.tag), typeof body.name === 'string' ? body.name : renameError(), (body.team_id as string | undefined) ?? null);
    res.json({ status: 200, message: `Renamed on ${count} email${count === 1 ? '' : 's'}`, data: { tag: String(req.params.tag), name: body.name, count } });
  });
  tags.delete('/:tag', (req, res) => {
    const count = actions.deleteTag(String(req.params.tag), queryTeam(req) ?? null);
    res.json({ status: 200, message: `Removed from ${count} email${count === 1 ? '' : 's'}`, data: { tag: String(req.params.tag), count } });
  });
  tags.all('/:tag', methodNotAllowed(['PUT', 'DELETE']));
  return { emails, tags };
}

function renameError(): never {
  throw new ApiError(422, 'name is required: the new name of the tag, {"name": "..."}', [{ field: 'name', message: 'required, a string' }]);
}
