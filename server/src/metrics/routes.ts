import { Router } from 'express';
import type { Services } from '../context.js';
import { methodNotAllowed } from '../http/errors.js';
import { hostGuard, uiAuthGuard } from '../sandbox/guards.js';

/** GET /metrics: Prometheus text exposition, behind the Host and --ui-auth rules of /sandbox. */
export function metricsRouter(services: Services): Router {
  const router = Router();
  router.use(hostGuard(services.config), uiAuthGuard(services.config));
  router.get('/', async (_req, res) => {
    const body = await services.metrics.registry.metrics();
    res.type(services.metrics.registry.contentType).set('Cache-Control', 'no-store').send(body);
  });
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
