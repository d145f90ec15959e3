import { Router, type RequestHandler } from 'express';
import type { Services } from '../context.js';
import { methodNotAllowed } from './errors.js';
import { hostGuard, uiAuthGuard } from './sandbox/guards.js';

/** GET /metrics: Prometheus text exposition, behind the Host and --ui-auth rules of /sandbox. */
export function metricsRouter(services: Services, json: RequestHandler): Router {
  const router = Router();
  // The edge rules of /sandbox, in its order: Host, auth, then the body parser (a malformed body is a 400 here too).
  router.use(hostGuard(services.config), uiAuthGuard(services.config), json);
  router.get('/', async (_req, res) => {
    const body = await services.metrics.registry.metrics();
    res.type(services.metrics.registry.contentType).set('Cache-Control', 'no-store').send(body);
  });
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
