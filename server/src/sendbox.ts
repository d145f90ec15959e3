import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Config } from './config.js';
import type { Services } from './context.js';
import { createApp, JSON_LIMIT_BYTES } from './app.js';
import { withSendFastPath } from './http/send-fast-path.js';
import { openDatabase, metaValue, randomSecret, truncateWalWhenIdle } from './storage/db.js';
import { EmailStore } from './storage/emails.js';
import { DomainStore } from './storage/domains.js';
import { KeyStore } from './storage/keys.js';
import { createIdCodec } from './storage/ids.js';
import { KeyRegistry } from './auth/keys.js';
import { EventBus } from './events.js';
import { systemClock, type Clock } from './clock.js';
import { createLogger, type Logger } from './logger.js';
import { Lifecycle } from './simulation/lifecycle.js';
import { Ingest } from './ingest/ingest.js';
import { createScenarios } from './simulation/scenarios.js';
import { EmailService } from './emails/service.js';
import { createSubmit } from './ingest/submit.js';
import { listenOn, StartError } from './listen.js';
import { startSmtp, type SmtpHandle } from './smtp/server.js';
import { domainVerifiers } from './domains/verifiers.js';
import { DomainScriptStore } from './storage/domain-scripts.js';
import { createWebhooks } from './webhooks/webhooks.js';
import { answerClientError, HTTP_TIMEOUTS } from './http/client-errors.js';
import { createRelay } from './relay/relay.js';
import { countRefusals, Metrics } from './metrics/metrics.js';
import { AgeRetention, parseMaxAge } from './emails/retention.js';

export interface Sendbox {
  services: Services;
  app: Express;
  /** Binds HTTP and SMTP; resolves with the real ports (port 0 picks free ones). */
  listen(): Promise<{ httpPort: number; smtpPort: number; smtpsPort: number | null }>;
  /** Graceful stop: finish in-flight requests, flush pending writes, close the database. */
  close(): Promise<void>;
}

// Kept here too: main.ts and the package entry import them from this module.
export { listenOn, StartError };

/** Builds every service from the config; nothing listens until `listen()`. */
export function createSendbox(config: Config, overrides: { clock?: Clock; logger?: Logger; httpTimeouts?: Partial<typeof HTTP_TIMEOUTS> } = {}): Sendbox {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel as 'info');
  const db = openDatabase(config.db, logger.child('db'));
  // Each store is built once, here, and handed to whoever needs it.
  const emails = new EmailStore(db);
  const domains = new DomainStore(db);
  const domainScripts = new DomainScriptStore(db);
  const ids = createIdCodec(metaValue(db, 'id_secret', randomSecret));
  const events = new EventBus();
  const stopping = new AbortController();
  const simLogger = logger.child('sim');
  const scenarios = createScenarios({ db, config, logger: simLogger, now: () => clock.now(), verifiers: domainVerifiers(domainScripts, config) });
  scenarios.onReset((teamId) => domainScripts.clearTeam(teamId));
  const metrics = new Metrics(db, () => scenarios.rules.list());
  countRefusals(scenarios, metrics);

  // `ingest` is only called back once the pipeline runs, after it is built below.
  const emailService = new EmailService({ store: emails, ids, events, recount: () => ingest.recount() });
  const lifecycle = new Lifecycle({ store: emails, ids, clock, logger: simLogger, delayMs: config.delayMs, onChanged: (changes) => {
    metrics.recipientChanges(changes);
    emailService.stateChanged(changes);
  } });
  const ingest = new Ingest({
    store: emails,
    ids,
    clock,
    lifecycle,
    announce: emailService,
    logger: simLogger,
    messageHost: config.messageHost,
    delayMs: config.delayMs,
    maxEmails: config.maxEmails,
    outcomeSources: () => scenarios.outcomeSources(),
    onStored: (batch) => metrics.received(batch),
    ruleTags: (context) => (scenarios.rules.has('tags') ? scenarios.rules.tagsFor(context) : []),
  });

  const services: Services = {
    config,
    db,
    emails,
    emailService,
    domains,
    domainScripts,
    ids,
    keys: new KeyRegistry(new KeyStore(db), config.keys, () => clock.now()),
    events,
    clock,
    logger,
    lifecycle,
    scenarios,
    stopping: stopping.signal,
    ingest,
    submit: createSubmit({ config, domains, scenarios, ingest }),
    webhooks: createWebhooks({ db, events, emails, domains, ids, clock, logger: logger.child('webhooks'), config, onAttempt: (result) => metrics.webhookAttempt(result) }),
    relay: createRelay({ config, emails, ids, events, clock, logger: logger.child('relay') }),
    metrics,
  };

  const app = createApp(services);
  let http: Server | null = null;
  let walTruncation: { stop(): void } | null = null;
  let smtp: SmtpHandle | null = null;
  const maxAgeMs = config.maxAge === undefined ? null : parseMaxAge(config.maxAge);
  const ageRetention = maxAgeMs === null ? null : new AgeRetention({ store: emails, ids, events, clock, logger: simLogger, maxAgeMs, recount: () => services.ingest.recount() });

  return {
    services,
    app,
    async listen() {
      // Tests shorten the timeouts to watch slow clients being cut.
      // requireHostHeader off: app.ts answers a missing Host itself, in JSON.
      http = createServer({ ...HTTP_TIMEOUTS, requireHostHeader: false, ...overrides.httpTimeouts }, withSendFastPath(services, JSON_LIMIT_BYTES, app));
      http.on('clientError', answerClientError);
      const httpPort = await listenOn(http, config.host, config.port, 'port');
      try {
        smtp = await startSmtp(services);
      } catch (error) {
        http.close();
        throw error;
      }
      // Resume lifecycles that a previous run left mid-way.
      lifecycle.start();
      services.webhooks.start();
      services.relay.start();
      metrics.start();
      ageRetention?.start();
      walTruncation = truncateWalWhenIdle(db, config.db);
      return { httpPort, smtpPort: smtp.port, smtpsPort: smtp.smtpsPort };
    },
    async close() {
      stopping.abort();
      lifecycle.stop();
      ageRetention?.stop();
      await Promise.all([
        smtp?.close(),
        http && new Promise<void>((resolve) => {
          http!.close(() => resolve());
          http!.closeIdleConnections();
          // Streams (SSE) and stuck clients get a short grace period, then are cut.
          setTimeout(() => http!.closeAllConnections(), 3_000).unref();
        }),
      ]);
      services.ingest.flush();
      // After the flush, so the events of the last writes are queued too.
      await services.webhooks.stop();
      services.relay.stop();
      metrics.stop();
      walTruncation?.stop();
      await emails.close();
      db.close();
    },
  };
}
