import { Router } from 'express';
import { openapiDocument } from '../openapi.js';

/** GET /openapi.json */
export function openapiRouter(): Router {
  const router = Router();
  let cached: string | null = null;
  router.get('/', (_req, res) => {
    cached ??= JSON.stringify(openapiDocument());
    res.type('application/json').send(cached);
  });
  return router;
}
