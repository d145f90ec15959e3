import { Router, type Request } from 'express';
import type { Email, EmailListResponse } from '../../../../shared/email.js';
import { ApiError, methodNotAllowed } from '../errors.js';
import { principalOf } from '../auth.js';
import { presentEmail, presentLog } from '../../emails/present.js';
import { parseListQuery } from './list-query.js';
import type { Services } from '../../context.js';
import type { EmailRow } from '../../storage/emails.js';

/** GET /v1/emails, /v1/emails/:id, /v1/emails/:id/logs — scoped to the key's team. */
export function emailsRouter(services: Services): Router {
  const router = Router();
  const { emails, ids } = services;

  /** The team's email, or 404 exactly as if it did not exist. */
  const ownEmail = (req: Request): EmailRow => {
    const internalId = ids.decode(String(req.params.id));
    const row = internalId === null ? undefined : emails.get(internalId);
    if (!row || row.team_id !== principalOf(req).teamId) throw new ApiError(404, 'Email not found');
    return row;
  };

  router.get('/', (req, res) => {
    const { filter, page, pageNumber, limit } = parseListQuery(req.query, principalOf(req).teamId);
    const { rows, total } = emails.list(filter, page);
    const body: EmailListResponse = {
      status: 200,
      message: 'Emails retrieved successfully',
      data: {
        data: rows.map((row) => presentEmail(row, ids, null)),
        pagination: { page: pageNumber, total_records: total, total_pages: Math.ceil(total / limit), limit },
      },
    };
    res.json(body);
  });
  router.all('/', methodNotAllowed(['GET']));

  router.get('/:id', (req, res) => {
    const row = ownEmail(req);
    const email: Email = presentEmail(row, ids, emails.body(row.id) ?? null);
    email.logs = emails.logs(row.id, false).map((log) => presentLog(log, row, ids));
    res.json({ status: 200, message: 'Email retrieved successfully', data: email });
  });
  router.all('/:id', methodNotAllowed(['GET']));

  router.get('/:id/logs', (req, res) => {
    const row = ownEmail(req);
    res.json({ status: 200, message: 'Email logs retrieved successfully', data: emails.logs(row.id, true).map((log) => presentLog(log, row, ids)) });
  });
  router.all('/:id/logs', methodNotAllowed(['GET']));
  return router;
}
