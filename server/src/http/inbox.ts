import express, { Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import type { Services } from '../context.js';
import { inboxCsp } from './security-headers.js';

/** The built inbox (web/dist), with the SPA fallback to index.html. */
export function webRouter(_services: Services): Router {
  const router = Router();
  const here = dirname(fileURLToPath(import.meta.url));
  // From server/src/http (sources), dist/server/src/http (tsc) or dist (the bundle) up to the repository root.
  const candidates = [resolve(here, '../../../web/dist'), resolve(here, '../../../../web/dist'), resolve(here, '../web/dist')];
  const root = candidates.find((dir) => existsSync(join(dir, 'index.html')));
  if (!root) {
    router.get('/', (_req, res) => {
      res.type('text/plain').send('sendbox is running. The inbox is not built: run npm run build:web.');
    });
    return router;
  }
  // Its inline scripts are allowed by hash, so the policy is computed from the built page.
  const csp = inboxCsp(readFileSync(join(root, 'index.html'), 'utf8'));
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    next();
  });
  router.use(express.static(root, { index: false, maxAge: '1h' }));
  router.get(/^\/(?!v1\/|sandbox\/|openapi\.json).*/, (_req, res) => {
    res.sendFile(join(root, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
}
