import express, { Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import type { Services } from '../context.js';
import { inboxCsp } from './security-headers.js';

/**
 * The inbox's own pages (web/src/paths.ts `pagePaths`). Only these answer index.html, and
 * only to a GET that accepts HTML; every other unknown path is the contract's 404 JSON, so an
 * API client never gets a page where it expected an error (CONTRACT §3).
 */
const INBOX_PAGES = /^\/(?:emails\/[^/]+|domains(?:\/[^/]+)?|scenarios)?\/?$/;

/** The built inbox (web/dist), with the SPA fallback to index.html for the inbox's own pages. */
export function webRouter(_services: Services): Router {
  const router = Router();
  const here = dirname(fileURLToPath(import.meta.url));
  // From server/src/http (sources), dist/server/src/http (tsc) or dist (the bundle) up to the repository root.
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
  router.get(INBOX_PAGES, (req, res, next) => {
    // The home page is for anyone; deeper pages only for a browser asking for HTML.
    if (req.path !== '/' && !acceptsHtmlExplicitly(req.headers.accept)) return next();
    res.sendFile(join(root, 'index.html'), { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
}

// A browser names text/html; an Accept of only the wildcard (curl, fetch) or none is an API client.
function acceptsHtmlExplicitly(accept: string | undefined): boolean {
  return accept !== undefined && /(?:^|,)\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|,|$)/i.test(accept);
}
