import { Router } from 'express';
import { methodNotAllowed } from '../errors.js';
import { principalOf } from '../auth.js';
import { requireJsonObject } from '../body.js';
import { sendFromApi } from '../../ingest/api-send.js';
import type { Services } from '../../context.js';

/**
 * POST /v1/send through Express. Plain requests take http/send-fast-path.ts instead;
 * this route serves the rest (chunked or encoded bodies, other charsets, odd paths).
 */
export function sendRouter(services: Services): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    const body = requireJsonObject(req);
    res.status(200).json(await sendFromApi(services, principalOf(req), body));
  });
  router.all('/', methodNotAllowed(['POST']));
  return router;
}
