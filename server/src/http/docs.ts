import express, { Router, type RequestHandler } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Services } from '../context.js';
import { hostGuard, uiAuthGuard } from './sandbox/guards.js';
import { notFound } from './errors.js';

/**
 * `/docs`: the OpenAPI document rendered by Swagger UI, whose files come from the
 * swagger-ui-dist package on this machine, so reading the docs makes no outside request.
 * Its validator badge is off for the same reason (it would send the document to
 * validator.swagger.io).
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sendbox API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/docs.css">
</head>
<body>
<header class="docs-bar"><a href="/">← sendbox inbox</a><span>API reference · <a href="/openapi.json">openapi.json</a></span></header>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// No inline script: the page's own code is a file, so script-src needs nothing but 'self'.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const CSS = `body { margin: 0; }
.docs-bar { display: flex; justify-content: space-between; gap: 16px; padding: 10px 20px; font: 14px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif; background: #171a21; color: #e6e8ec; }
.docs-bar a { color: #a5a0ff; }
`;

/**
 * The /docs CSP. Like the inbox's, it allows scripts from this origin only and calls to
 * this origin only (the document, and "Try it out"). Two differences, both for Swagger UI:
 * style-src takes 'unsafe-inline' because its React components set style attributes,
 * and img-src takes data: for the icons its stylesheet embeds. Nothing else is allowed.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where swagger-ui-dist is installed; resolved when sendbox starts, not when it is imported. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export function docsRouter(services: Services, json: RequestHandler): Router {
  const router = Router();
  // The edge rules of /sandbox, in its order: Host, auth, then the body parser (a malformed body is a 400 here too).
  router.use(hostGuard(services.config), uiAuthGuard(services.config), json);
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    next();
  });
  const send = (type: string, body: string) => (_req: express.Request, res: express.Response) => {
    res.type(type).set('Cache-Control', 'no-cache').send(body);
  };
  router.get('/', send('html', PAGE));
  router.get('/init.js', send('js', INIT));
  router.get('/docs.css', send('css', CSS));
  // Only the two files the page uses, not the package's whole folder.
  const assets = express.static(swaggerUiDir(), { index: false, maxAge: '1d', fallthrough: false });
  router.get(['/assets/swagger-ui.css', '/assets/swagger-ui-bundle.js'], (req, res, next) => {
    req.url = req.url.replace(/^\/assets/, '');
    assets(req, res, next);
  });
  // Anything else under /docs is not the inbox's either: a 404 rather than the SPA page.
  router.use(notFound);
  return router;
}
