import { Router } from 'express';
import type { SandboxEmailList } from '../../../../shared/sandbox.js';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { markReadRequestSchema } from '../../../../shared/tag-schemas.js';
import { parseListQuery } from '../v1/list-query.js';
import { attachmentAt, buildView, presentSummary } from '../../emails/view.js';
import { emailParam, queryBoolean, queryString, queryTeam, jsonBody } from './query.js';
import { waitHandler } from './wait.js';
import { applySearch } from '../../emails/search.js';
import { MAX_QUERY_LENGTH } from '../../../../shared/search.js';
import { forceEventHandler } from './drive.js';
import { receivedMessage } from '../../lab/auth.js';

/** /sandbox/emails: every team's emails (CONTRACT §6): list, read, raw, attachments, read flag, delete, wait, drive. */
export function sandboxEmailsRouter(services: Services): Router {
  const router = Router();
  const { emails, ids, emailService } = services;

  router.get('/', (req, res) => {
    const { page, pageNumber, limit, filter } = parseListQuery(pick(req.query, ['page', 'limit', 'search', 'start_date', 'end_date', 'status', 'api_key_id']), queryTeam(req) ?? null);
    for (const name of ['from', 'to', 'subject'] as const) {
      const value = queryString(req, name)?.trim();
      if (value) filter[name] = value;
    }
    filter.hasAttachment = queryBoolean(req, 'has_attachment');
    filter.isRead = queryBoolean(req, 'is_read');
    const q = queryString(req, 'q', MAX_QUERY_LENGTH);
    const { rows, total } = emails.list(q ? applySearch(filter, q) : filter, page);
    const data: SandboxEmailList = { data: rows.map((row) => presentSummary(row, ids)), pagination: { page: pageNumber, total_records: total, total_pages: Math.ceil(total / limit), limit } };
    res.json({ status: 200, message: 'Emails retrieved successfully', data });
  });

  router.delete('/', (req, res) => {
    const teamId = queryTeam(req) ?? null;
    const deleted = emailService.clear(teamId);
    res.json({ status: 200, message: `Deleted ${deleted} email${deleted === 1 ? '' : 's'}`, data: { team_id: teamId, deleted } });
  });
  router.all('/', methodNotAllowed(['GET', 'DELETE']));

  // Before /:id, which would otherwise take "wait" for an id.
  router.get('/wait', waitHandler(services));
  router.all('/wait', methodNotAllowed(['GET']));

  router.get('/:id', async (req, res) => {
    res.json({ status: 200, message: 'Email retrieved successfully', data: await buildView(services, emailParam(services, req)) });
  });

  router.patch('/:id', (req, res) => {
    const row = emailParam(services, req);
    const parsed = markReadRequestSchema.safeParse(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    const { read } = parsed.data;
    res.json({ status: 200, message: `Marked as ${read ? 'read' : 'unread'}`, data: emailService.markRead(row, read) });
  });

  router.delete('/:id', (req, res) => {
    const row = emailParam(services, req);
    res.json({ status: 200, message: 'Email deleted', data: emailService.deleteOne(row) });
  });
  router.all('/:id', methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router.get('/:id/raw', async (req, res) => {
    const row = emailParam(services, req);
    // As a receiver gets it: with the DKIM-Signature of the team's domain (CONTRACT §9).
    const { raw } = await receivedMessage(services, row, emails.body(row.id)?.raw ?? Buffer.alloc(0));
    res.set({
      'Content-Type': 'message/rfc822',
      'Content-Disposition': `attachment; filename="${ids.encode(row.id)}.eml"`,
      'X-Content-Type-Options': 'nosniff',
    });
    res.send(raw);
  });
  router.all('/:id/raw', methodNotAllowed(['GET']));

  router.get('/:id/attachments/:index', async (req, res) => {
    const row = emailParam(services, req);
    const index = String(req.params.index);
    if (!/^\d{1,4}$/.test(index)) throw new ApiError(400, 'The attachment index must be a whole number (0-based)', [{ field: 'index', message: 'not a whole number' }]);
    const found = await attachmentAt(emails.body(row.id)?.raw ?? Buffer.alloc(0), Number(index));
    if (!found) throw new ApiError(404, `Email ${ids.encode(row.id)} has no attachment ${index}`);
    res.set({
      'Content-Type': safeContentType(found.file.content_type),
      'Content-Disposition': contentDisposition(found.file.filename),
      'X-Content-Type-Options': 'nosniff',
      // Downloaded, never rendered here: an HTML or SVG attachment must not run as sendbox's origin.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    res.send(found.content);
  });
  router.all('/:id/attachments/:index', methodNotAllowed(['GET']));

  router.post('/:id/events', forceEventHandler(services));
  router.all('/:id/events', methodNotAllowed(['POST']));
  return router;
}

function pick(query: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => query[n] !== undefined).map((n) => [n, query[n]]));
}

const safeContentType = (type: string) => (/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(type) ? type.toLowerCase() : 'application/octet-stream');

/** RFC 6266: an ASCII fallback name plus the exact UTF-8 name (RFC 8187). */
export function contentDisposition(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/[\x00-\x1f\x7f]/g, '').trim() || 'attachment';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').replace(/^\.+/, '_');
  const encoded = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
