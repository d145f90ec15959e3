import { Router, type RequestHandler } from 'express';
import type { Services } from '../../context.js';
import { sandboxGuards } from './guards.js';
import { sandboxEmailsRouter } from './emails.js';
import { sandboxRulesRouter } from './rules.js';
import { sandboxDeliveryRouter } from './delivery.js';
import { sandboxChaosRouter } from './chaos.js';
import { sandboxResetRouter } from './reset.js';
import { sandboxTeamsRouter } from './teams.js';
import { sandboxEventsRouter } from './sse.js';
import { sandboxDomainsRouter } from './domains.js';
import { sandboxWebhooksRouter } from './webhooks.js';
import { sandboxRelayRouter, sandboxReleaseRouter } from './release.js';
import { sandboxTaggingRouters } from './tags.js';
import { labRouter } from './lab.js';

/**
 * /sandbox: the control API for the inbox and test suites (not team-scoped).
 * Each resource has its own module; this file only mounts them.
 */
export function sandboxRouter(services: Services, json: RequestHandler): Router {
  const router = Router();
  // Host, ui-auth and Content-Type checks run before any body is parsed.
  router.use(sandboxGuards(services.config), json);
  router.get('/health', (_req, res) => {
    res.json({ status: 200, message: 'ok', data: { ok: true, emails: services.emails.count(), paused: services.lifecycle.isPaused, retention: { max_emails: services.config.maxEmails, max_age: services.config.maxAge ?? null } } });
  });
  const tagging = sandboxTaggingRouters(services);
  // GET, DELETE /; GET /wait; GET, PATCH, DELETE /:id; GET /:id/raw, /:id/attachments/:index; POST /:id/events;
  // PUT /:id/tags, POST /bulk; POST /:id/release
  router.use('/emails', tagging.emails);
  // GET /:id/html-check, /:id/spam, /:id/auth; POST /:id/link-check (the mail-quality lab)
  router.use('/emails', labRouter(services));
  router.use('/emails', sandboxReleaseRouter(services));
  router.use('/emails', sandboxEmailsRouter(services));
  // GET /; PUT, DELETE /:tag
  router.use('/tags', tagging.tags);
  // POST, GET, DELETE /; GET, DELETE /:id
  router.use('/rules', sandboxRulesRouter(services));
  // GET /; POST /pause, /resume
  router.use('/delivery', sandboxDeliveryRouter(services));
  // GET, PUT /
  router.use('/chaos', sandboxChaosRouter(services));
  // POST /
  router.use('/reset', sandboxResetRouter(services));
  // GET /
  router.use('/teams', sandboxTeamsRouter(services));
  // GET / (Server-Sent Events)
  router.use('/events', sandboxEventsRouter(services));
  // GET, POST, DELETE /; POST /verify; PUT, GET, DELETE /:domain/verification
  router.use('/domains', sandboxDomainsRouter(services));
  // POST, GET /; GET, DELETE /:id; GET /:id/attempts
  router.use('/webhooks', sandboxWebhooksRouter(services));
  router.use('/relay', sandboxRelayRouter(services));
  return router;
}
