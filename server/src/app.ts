import express, { type Express, type RequestHandler } from 'express';
import type { Services } from './context.js';
import { requireApiKey } from './http/auth.js';
import { errorMiddleware, notFound, sendEnvelope } from './http/errors.js';
import { jsonParser } from './http/body.js';
import { securityHeaders } from './http/security-headers.js';
import { requireHostHeader } from './http/client-errors.js';
import { sendRouter } from './http/v1/send.js';
import { emailsRouter } from './http/v1/emails.js';
import { domainsRouter } from './http/v1/domains.js';
import { openapiRouter } from './http/openapi.js';
import { sandboxRouter } from './http/sandbox/router.js';
import { webRouter } from './http/inbox.js';
import { inboxGuards } from './http/sandbox/guards.js';
import { metricsRouter } from './http/metrics.js';
import { docsRouter } from './http/docs.js';

// A little over the 25 MiB message limit once base64 inflates attachments by 4/3.
export const JSON_LIMIT_BYTES = 36 * 1024 * 1024;

/** The composition root of the HTTP surface: one router per resource, the error middleware last. */
export function createApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(securityHeaders);
  app.use(requireHostHeader);

  const json: RequestHandler = jsonParser(JSON_LIMIT_BYTES);

  const apiKey = requireApiKey(services.keys);

  // The whole HTTP surface. Paths are relative to each mount; each router answers 405 for its
  // paths' other methods, and anything unmatched falls to the 404 JSON at the end.
  app.use('/openapi.json', openapiRouter()); //                 GET
  // POST / — plain requests are answered before Express by http/send-fast-path.ts with the same
  // edge functions (body.ts, errors.ts, security-headers.ts); both end in ingest/api-send.ts.
  app.use('/v1/send', sendEnvelope, apiKey, json, sendRouter(services));
  app.use('/v1', apiKey, json);
  app.use('/v1/emails', emailsRouter(services)); //            GET /, /:id, /:id/logs
  app.use('/v1/domains', domainsRouter(services)); //          POST /, GET /, DELETE /, POST /verify (?domain=)
  // GET /health; /emails, /rules, /delivery, /chaos, /reset, /teams, /events, /domains, /webhooks:
  // see http/sandbox/router.ts, which lists each one's paths.
  app.use('/sandbox', services.metrics.observeSandbox, sandboxRouter(services, json));
  app.use('/metrics', metricsRouter(services, json)); //      GET (Prometheus text)
  app.use('/docs', docsRouter(services, json)); //            GET (the API reference)
  // GET / and the inbox's own pages (index.html for browsers), its static assets.
  app.use(inboxGuards(services.config), webRouter(services));

  app.use(notFound);
  app.use(errorMiddleware(services.logger.child('http')));
  return app;
}
