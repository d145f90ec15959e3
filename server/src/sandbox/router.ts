import { Router, type RequestHandler } from 'express';
import type { Services } from '../context.js';
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
import { labRouter } from '../lab/router.js';

/**
 * /sandbox: the control API for the inbox and test suites (not team-scoped).
 * Each resource has its own module; this file only mounts them.
 */
export function sandboxRouter(services: Services, json: RequestHandler): Router {
  const router = Router();
  // Host, ui-auth and Content-Type checks run before any body is parsed.
  router.use(sandboxGuards(services.config), json);
  router.get('/health', (_req, res) => {
    res.json({ status: 200, message: 'ok', data: { ok: true, emails: services.emails.count(), paused: services.lifecycle.isPaused } });
  });
  router.use('/emails', sandboxEmailsRouter(services));
  router.use('/emails', labRouter(services));
  router.use('/rules', sandboxRulesRouter(services));
  router.use('/delivery', sandboxDeliveryRouter(services));
  router.use('/chaos', sandboxChaosRouter(services));
  router.use('/reset', sandboxResetRouter(services));
  router.use('/teams', sandboxTeamsRouter(services));
  router.use('/events', sandboxEventsRouter(services));
  router.use('/domains', sandboxDomainsRouter(services));
  router.use('/webhooks', sandboxWebhooksRouter(services));
  return router;
}
