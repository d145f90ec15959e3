import express, { Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import type { Services } from '../context.js';
import { inboxCsp } from '../http/security-headers.js';

/** The built inbox (web/dist), with the SPA fallback to index.html. */
export function webRouter(_services: Services): Router {
  const router = Router();
  const here = dirname(fileURLToPath(import.meta.url));
  // From server/src/routes (sources), dist/server/src/routes (tsc) or dist (the bundle) up to the repository root.
  const candidates = [resolve(here, '../../../web/dist'), resolve(here, '../../../../web/dist'), resolve(here, '../web/dist')];
  const root = candidates.find((dir) => existsSync(join(dir, 'index.html')));
  if (!root) {
    router.get('/', (_req, res) => {
      // An installed package ships web/dist prebuilt; only a clone of the repository builds it.
      res.type('text/plain').send(`sendbox is running, but the inbox files are missing (looked for web/dist/index.html in ${candidates.join(', ')}). In an installed package: reinstall sendbox. In a clone of the repository: npm run build:web.`);
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
