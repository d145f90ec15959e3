import type { Config } from './config.js';
import type { Db } from './storage/db.js';
import type { EmailStore } from './storage/emails.js';
import type { DomainStore } from './storage/domains.js';
import type { DomainScriptStore } from './storage/domain-scripts.js';
import type { IdCodec } from './storage/ids.js';
import type { KeyRegistry } from './auth/keys.js';
import type { EventBus } from './events.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { Lifecycle } from './simulation/lifecycle.js';
import type { Ingest } from './ingest/ingest.js';
import type { Submit } from './ingest/submit.js';
import type { EmailService } from './emails/service.js';
import type { Scenarios } from './simulation/scenarios.js';
import type { Webhooks } from './webhooks/webhooks.js';
import type { Relay } from './relay/relay.js';
import type { Metrics } from './metrics/metrics.js';

/** Everything a router or a listener needs, built once by `createSendbox` and passed in. */
export interface Services {
  config: Config;
  db: Db;
  emails: EmailStore;
  /** The one owner of email changes and email events after ingest. */
  emailService: EmailService;
  domains: DomainStore;
  domainScripts: DomainScriptStore;
  ids: IdCodec;
  keys: KeyRegistry;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
  ingest: Ingest;
  /** The one door for mail: API sends and SMTP messages both go through it. */
  submit: Submit;
  scenarios: Scenarios;
  webhooks: Webhooks;
  /** Release to a real server (`--relay`). */
  relay: Relay;
  /** Prometheus counters of this instance (`/metrics`). */
  metrics: Metrics;
  /** Aborted when shutdown starts: long polls and SSE streams end on it. */
  stopping: AbortSignal;
}
