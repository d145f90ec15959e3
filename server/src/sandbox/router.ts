import { Router, type RequestHandler } from 'express';
import type { Services } from '../context.js';

/**
 * /sandbox: the control API for the inbox and test suites (not team-scoped).
 * Each resource has its own module; this file only mounts them.
 */
export function sandboxRouter(services: Services, json: RequestHandler): Router {
  const router = Router();
  router.use(json);
  router.get('/health', (_req, res) => {
    res.json({ status: 200, message: 'ok', data: { ok: true, emails: services.emails.count(), paused: services.lifecycle.isPaused } });
  });
  return router;
}
