import { Router } from 'express';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../../../shared/webhooks.js';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { requireJsonObject } from '../body.js';
import { isKnownEventPattern } from '../../webhooks/events.js';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The body of `POST /sandbox/webhooks` (also the OpenAPI document's). */
export const webhookRequestSchema = z.strictObject(
  {
    url: z.string({ error: 'url is required and must be a string' }).max(2000, 'url is longer than 2000 characters').refine(isHttpUrl, 'url must be an absolute http:// or https:// URL'),
    secret: z.string({ error: 'secret must be a string' }).min(1, 'secret must not be empty (omit it to use --webhook-secret or a generated one)').max(500).optional(),
    events: z
      .array(z.string({ error: 'an event type is a string' }).refine(isKnownEventPattern, { error: (issue) => `unknown event type ${JSON.stringify(issue.input)}; use email.*, domain.* or one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'events must be an array of event types' })
      .min(1, 'events must not be empty (omit it for every event)')
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}: use url, secret or events` : undefined) },
);

/** /sandbox/webhooks: CRUD, and every delivery attempt (CONTRACT §6). */
export function sandboxWebhooksRouter(services: Services): Router {
  const router = Router();

  router.post('/', (req, res) => {
    const parsed = webhookRequestSchema.safeParse(requireJsonObject(req));
    if (!parsed.success) throw validationError(parsed.error);
    res.status(201).json({ status: 201, message: 'Webhook created', data: services.webhooks.create(parsed.data) });
  });
  router.get('/', (_req, res) => {
    res.json({ status: 200, message: 'Webhooks retrieved successfully', data: services.webhooks.list() });
  });
  router.all('/', methodNotAllowed(['GET', 'POST']));

  router.get('/:id', (req, res) => {
    res.json({ status: 200, message: 'Webhook retrieved successfully', data: services.webhooks.get(req.params.id) });
  });
  router.delete('/:id', (req, res) => {
    services.webhooks.delete(req.params.id);
    res.json({ status: 200, message: 'Webhook deleted', data: null });
  });
  router.all('/:id', methodNotAllowed(['GET', 'DELETE']));

  router.get('/:id/attempts', (req, res) => {
    const raw = req.query.limit;
    let limit = 100;
    if (raw !== undefined) {
      if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) throw new ApiError(400, 'limit must be a whole number between 1 and 1000', [{ field: 'limit', message: 'between 1 and 1000' }]);
      limit = Number(raw);
    }
    res.json({ status: 200, message: 'Webhook attempts retrieved successfully', data: services.webhooks.attempts(req.params.id, limit) });
  });
  router.all('/:id/attempts', methodNotAllowed(['GET']));
  return router;
}
