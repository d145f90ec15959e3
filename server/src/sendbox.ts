import { createServer, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Express } from 'express';
import { envName, type Config } from './config.js';
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
import { Lifecycle } from './delivery/lifecycle.js';
import { Ingest } from './ingest/ingest.js';
import { createScenarios } from './scenarios/scenarios.js';
import { presentEmail } from './emails/present.js';
import { startSmtp, type SmtpHandle } from './smtp/server.js';
import { domainVerifiers } from './domains/verifiers.js';
import { DomainScriptStore } from './storage/domain-scripts.js';
import { createWebhooks } from './webhooks/webhooks.js';
import { answerClientError, HTTP_TIMEOUTS } from './http/client-errors.js';
import { AgeRetention, parseMaxAge } from './emails/retention.js';

export interface Sendbox {
  services: Services;
  app: Express;
  /** Binds HTTP and SMTP; resolves with the real ports (port 0 picks free ones). */
  listen(): Promise<{ httpPort: number; smtpPort: number }>;
  /** Graceful stop: finish in-flight requests, flush pending writes, close the database. */
  close(): Promise<void>;
}

export class StartError extends Error {}

/** Builds every service from the config; nothing listens until `listen()`. */
export function createSendbox(config: Config, overrides: { clock?: Clock; logger?: Logger; httpTimeouts?: Partial<typeof HTTP_TIMEOUTS> } = {}): Sendbox {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel as 'info');
  const db = openDatabase(config.db, logger.child('db'));
  const emails = new EmailStore(db);
  const ids = createIdCodec(metaValue(db, 'id_secret', randomSecret));
  const events = new EventBus();
  const stopping = new AbortController();
  const simLogger = logger.child('sim');
  const scenarios = createScenarios({ db, config, logger: simLogger, now: () => clock.now(), verifiers: domainVerifiers(db, config) });
  scenarios.onReset((teamId) => new DomainScriptStore(db).clearTeam(teamId));

  const lifecycle = new Lifecycle({
    store: emails,
    ids,
    clock,
    logger: simLogger,
    delayMs: config.delayMs,
    onChanged: (changes) => {
      if (events.listenerCount === 0) return;
      const byEmail = new Map<number, typeof changes>();
      for (const change of changes) {
        const list = byEmail.get(change.emailId);
        if (list) list.push(change);
        else byEmail.set(change.emailId, [change]);
      }
      for (const [emailId, emailChanges] of byEmail) {
        const row = emails.get(emailId);
        if (!row) continue;
        // One event per recipient change: webhooks send each recipient's state (CONTRACT §6).
        const data = presentEmail(row, ids, null);
        for (const change of emailChanges) events.publish({ type: 'email.updated', data, change: { kind: 'state', recipient: change.recipient, state: change.state } });
      }
    },
  });

  const services: Services = {
    config,
    db,
    emails,
    domains: new DomainStore(db),
    ids,
    keys: new KeyRegistry(new KeyStore(db), config.keys, () => clock.now()),
    events,
    clock,
    logger,
    lifecycle,
    scenarios,
    stopping: stopping.signal,
    ingest: undefined as unknown as Ingest,
    webhooks: createWebhooks({ db, events, emails, domains: new DomainStore(db), ids, clock, logger: logger.child('webhooks'), config }),
  };
  services.ingest = new Ingest({
    store: emails,
    ids,
    clock,
    events,
    lifecycle,
    logger: simLogger,
    messageHost: config.messageHost,
    delayMs: config.delayMs,
    maxEmails: config.maxEmails,
    outcomeSources: () => services.scenarios.outcomeSources(),
    ruleTags: (context) => (services.scenarios.rules.has('tags') ? services.scenarios.rules.tagsFor(context) : []),
  });

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
      ageRetention?.start();
      walTruncation = truncateWalWhenIdle(db, config.db);
      return { httpPort, smtpPort: smtp.port };
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
      walTruncation?.stop();
      db.close();
    },
  };
}

/** Listens, turning EADDRINUSE into one line naming the port, the flag and its env twin. */
export function listenOn(server: NetServer, host: string, port: number, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new StartError(`port ${port} on ${host} is already in use: choose another with --${flag} or ${envName(flag)} (0 picks a free port)`));
      else if (error.code === 'EACCES') reject(new StartError(`not allowed to listen on port ${port}: choose another with --${flag} or ${envName(flag)}`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
