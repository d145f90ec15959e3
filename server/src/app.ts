import express, { type Express, type RequestHandler } from 'express';
import type { Services } from './context.js';
import { requireApiKey } from './http/auth.js';
import { errorMiddleware, notFound } from './http/errors.js';
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
  app.use('/sandbox', sandboxRouter(services, json));
  app.use(inboxGuards(services.config), webRouter(services));

  app.use(notFound);
  app.use(errorMiddleware(services.logger.child('http')));
  return app;
}
