import express, { type Express, type RequestHandler } from 'express';
import type { Services } from './context.js';
import { requireApiKey } from './http/auth.js';
import { errorMiddleware, notFound } from './http/errors.js';
import { jsonParser } from './http/body.js';
import { securityHeaders } from './http/security-headers.js';
import { requireHostHeader } from './http/client-errors.js';
import { sendRouter } from './routes/send.js';
import { emailsRouter } from './routes/emails.js';
import { domainsRouter } from './routes/domains.js';
import { openapiRouter } from './routes/openapi.js';
import { sandboxRouter } from './sandbox/router.js';
import { webRouter } from './routes/web.js';
import { inboxGuards } from './sandbox/guards.js';
import { metricsRouter } from './metrics/routes.js';
import { docsRouter } from './docs/routes.js';

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

  app.use('/openapi.json', openapiRouter());
  app.use('/v1', requireApiKey(services.keys), json);
  app.use('/v1/send', sendRouter(services));
  app.use('/v1/emails', emailsRouter(services));
  app.use('/v1/domains', domainsRouter(services));
  app.use('/sandbox', services.metrics.observeSandbox, sandboxRouter(services, json));
  app.use('/metrics', metricsRouter(services, json));
  app.use('/docs', docsRouter(services, json));
  app.use(inboxGuards(services.config), webRouter(services));

  app.use(notFound);
  app.use(errorMiddleware(services.logger.child('http')));
  return app;
}
