import { randomBytes } from 'node:crypto';
import type { SendboxEvent } from '../../../shared/events.js';
import type { Webhook, WebhookAttempt, WebhookDetail, WebhookInput } from '../../../shared/webhooks.js';
import type { Clock } from '../clock.js';
import { iso, unixSeconds } from '../clock.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import { maskSecret, type Config } from '../config.js';
import { conflict, notFound } from '../errors.js';
import { metaValue, type Db } from '../storage/db.js';
import type { DomainStore } from '../storage/domains.js';
import type { EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import { WebhookStore, type AttemptView, type DeliveryRow, type NewDelivery, type WebhookRow } from '../storage/webhooks.js';
import { matchesFilter, WebhookEventMapper } from './events.js';
import { postOnce } from './post.js';
import { signatureHeader } from './signature.js';

/** The id of the webhook configured by --webhook-url. */
export const FLAG_WEBHOOK_ID = 'flag';
/** CONTRACT §6: a failed delivery is retried 5 times. */
const RETRIES = 5;
// A receiver that is down must not grow the queue without bound.
const MAX_PENDING = 10_000;
// Finished deliveries kept per webhook (with their attempts) for the inbox.
const KEEP_FINISHED = 1000;

export interface WebhooksOptions {
  store: WebhookStore;
  events: EventBus;
  mapper: () => WebhookEventMapper;
  clock: Clock;
  logger: Logger;
  flagUrl?: string;
  flagSecret?: string;
  /** Signs for webhooks without a secret of their own when --webhook-secret is not set. */
  generatedSecret: string;
  /** First retry delay; doubles for each retry. */
  retryBaseMs: number;
  timeoutMs: number;
  /** Told where each attempt left its delivery (the metrics' attempts counter). */
  onAttempt?: (result: 'delivered' | 'retrying' | 'failed') => void;
}

interface Pump {
  running: boolean;
  timer: { clear(): void } | null;
  abort: AbortController;
  finished: number;
}

interface QueuedEvent {
  id: string;
  at: number;
  event: SendboxEvent;
}

/**
 * Webhook delivery: listens on the bus only while a webhook exists, queues each event per
 * webhook in SQLite (so a restart resumes), and POSTs them strictly in order, retrying a
 * failure with exponential backoff. Nothing here runs inside the publisher: the listener
 * only buffers, so a slow or broken receiver never slows or breaks ingest.
 */
export class Webhooks {
  private readonly hooks = new Map<number, WebhookRow>();
  private readonly pumps = new Map<number, Pump>();
  private readonly running = new Set<Promise<void>>();
  private buffer: QueuedEvent[] = [];
  private flushScheduled = false;
  private unsubscribe: (() => void) | null = null;
  private mapper: WebhookEventMapper | null = null;
  private stopped = true;
  /** Webhooks whose queue was full at the last flush (warned once, not per event). */
  private warnedFull = new Set<number>();

  constructor(private readonly options: WebhooksOptions) {}

  /** Loads the webhooks (and the --webhook-url one), resumes queued deliveries. */
  start(): void {
    const { store, flagUrl, clock } = this.options;
    this.stopped = false;
    this.pumps.clear();
    if (flagUrl) store.upsertFlag(FLAG_WEBHOOK_ID, flagUrl, clock.now());
    else {
      const stale = store.find(FLAG_WEBHOOK_ID);
      if (stale) store.delete(stale.id);
    }
    for (const row of store.list()) this.hooks.set(row.id, row);
    this.listen();
    for (const id of this.hooks.keys()) this.kick(id);
  }

  /** Stops: queues what the bus already said, aborts requests in flight (they are retried at the next start). */
  async stop(): Promise<void> {
    this.flush();
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const pump of this.pumps.values()) {
      pump.timer?.clear();
      pump.abort.abort();
    }
    await Promise.allSettled([...this.running]);
  }

  create(input: WebhookInput): WebhookDetail {
    const row = this.options.store.insert({
      public_id: `wh_${randomBytes(8).toString('hex')}`,
      url: input.url,
      secret: input.secret ?? null,
      events: input.events ? JSON.stringify(input.events) : null,
      source: 'api',
      created_at: this.options.clock.now(),
    });
    this.hooks.set(row.id, row);
    this.listen();
    this.options.logger.info(`webhook ${row.public_id} added: ${row.url}`);
    return this.detail(row);
  }

  list(): Webhook[] {
    return [...this.hooks.values()].map((row) => this.present(row));
  }

  get(publicId: string, attemptLimit = 50): WebhookDetail {
    return this.detail(this.find(publicId), attemptLimit);
  }

  attempts(publicId: string, limit: number): WebhookAttempt[] {
    return this.options.store.attempts(this.find(publicId).id, limit).map(presentAttempt);
  }

  delete(publicId: string): void {
    const row = this.find(publicId);
    if (row.source === 'flag') throw conflict('This webhook comes from --webhook-url; start sendbox without the flag to remove it');
    this.hooks.delete(row.id);
    const pump = this.pumps.get(row.id);
    pump?.timer?.clear();
    pump?.abort.abort();
    this.pumps.delete(row.id);
    this.options.store.delete(row.id);
    if (this.hooks.size === 0) {
      this.unsubscribe?.();
      this.unsubscribe = null;
    }
    this.options.logger.info(`webhook ${row.public_id} deleted`);
  }

  private find(publicId: string): WebhookRow {
    const row = [...this.hooks.values()].find((h) => h.public_id === publicId);
    if (!row) throw notFound(`Webhook ${publicId} not found`);
    return row;
  }

  /** Subscribing makes the lifecycle publish changes, so it happens only while a webhook exists. */
  private listen(): void {
    if (this.unsubscribe || this.stopped || this.hooks.size === 0) return;
    // Fresh on each subscription: domain statuses may have changed while nobody listened.
    this.mapper = this.options.mapper();
    this.unsubscribe = this.options.events.subscribe((event) => {
      this.buffer.push({ id: `evt_${randomBytes(8).toString('hex')}`, at: this.options.clock.now(), event });
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Maps buffered bus events to webhook events and queues them, in one transaction. */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0 || !this.mapper) return;
    try {
      const deliveries: NewDelivery[] = [];
      const touched = new Set<number>();
      const full = new Set<number>();
      const filters = new Map([...this.hooks.values()].map((hook) => [hook.id, hook.events === null ? null : (JSON.parse(hook.events) as string[])]));
      for (const hook of this.hooks.values()) if (this.options.store.pendingCount(hook.id) >= MAX_PENDING) full.add(hook.id);
      for (const queued of batch) {
        for (const mapped of this.mapper.map(queued.event)) {
          const body = JSON.stringify({ type: mapped.type, created_at: iso(queued.at), data: mapped.data });
          for (const hook of this.hooks.values()) {
            if (full.has(hook.id) || !matchesFilter(mapped.type, filters.get(hook.id) ?? null)) continue;
            deliveries.push({ webhook_id: hook.id, event_id: queued.id, type: mapped.type, body, created_at: queued.at });
            touched.add(hook.id);
          }
        }
      }
      for (const id of full) if (!this.warnedFull.has(id)) this.options.logger.warn(`webhook ${this.hooks.get(id)?.public_id} has ${MAX_PENDING} undelivered events; new events are dropped until it catches up`);
      this.warnedFull = full;
      if (deliveries.length) this.options.store.enqueue(deliveries);
      if (!this.stopped) for (const id of touched) this.kick(id);
    } catch (error) {
      // Never let a webhook problem surface in the code that published the event.
      this.options.logger.error('queueing webhook events failed', error);
    }
  }

  /** Starts a webhook's sender unless it is already running. */
  private kick(webhookId: number): void {
    if (this.stopped) return;
    let pump = this.pumps.get(webhookId);
    if (!pump) this.pumps.set(webhookId, (pump = { running: false, timer: null, abort: new AbortController(), finished: 0 }));
    if (pump.running) return;
    pump.timer?.clear();
    pump.timer = null;
    pump.running = true;
    const run = this.drain(webhookId, pump)
      .catch((error) => this.options.logger.error(`webhook sender failed`, error))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Sends the queue head until the queue is empty or the head must wait for its retry time. */
  private async drain(webhookId: number, pump: Pump): Promise<void> {
    try {
      for (;;) {
        const hook = this.hooks.get(webhookId);
        if (this.stopped || !hook) return;
        const delivery = this.options.store.nextPending(webhookId);
        if (!delivery) return;
        const wait = (delivery.next_at ?? 0) - this.options.clock.now();
        if (wait > 0) {
          pump.timer = this.options.clock.setTimeout(() => this.kick(webhookId), wait);
          return;
        }
        await this.attempt(hook, delivery, pump);
      }
    } finally {
      pump.running = false;
    }
  }

  private async attempt(hook: WebhookRow, delivery: DeliveryRow, pump: Pump): Promise<void> {
    const { clock, store, logger } = this.options;
    const attempt = delivery.attempts + 1;
    const at = clock.now();
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'sendbox-webhooks/1',
      'X-Sendbox-Event': delivery.type,
      'X-Sendbox-Event-Id': delivery.event_id,
      'X-Sendbox-Attempt': String(attempt),
      'X-Sendbox-Signature': signatureHeader(this.secretOf(hook).secret, delivery.body, unixSeconds(at)),
    };
    const result = await postOnce(hook.url, delivery.body, headers, this.options.timeoutMs, pump.abort.signal);
    // Shut down or deleted meanwhile: the attempt did not really happen; a restart retries it.
    if (this.stopped || !this.hooks.has(hook.id) || pump.abort.signal.aborted) return;
    const giveUp = !result.ok && attempt > RETRIES;
    const next = result.ok ? { state: 'delivered' as const, nextAt: null } : giveUp ? { state: 'failed' as const, nextAt: null } : { state: 'pending' as const, nextAt: clock.now() + this.options.retryBaseMs * 2 ** (attempt - 1) };
    store.recordAttempt(
      { delivery_id: delivery.id, webhook_id: hook.id, attempt, at, duration_ms: result.durationMs, status_code: result.statusCode, error: result.error, response: result.response, ok: result.ok ? 1 : 0 },
      next,
    );
    this.options.onAttempt?.(next.state === 'pending' ? 'retrying' : next.state);
    if (!result.ok) logger.warn(`webhook ${hook.public_id} ${delivery.type} attempt ${attempt} failed: ${result.error}${giveUp ? '; giving up' : ''}`);
    if (next.state !== 'pending' && ++pump.finished % 100 === 0) store.prune(hook.id, KEEP_FINISHED);
  }

  /** Own secret, else --webhook-secret, else the one sendbox generated (kept in the database). */
  private secretOf(hook: WebhookRow): { secret: string; source: Webhook['secret_source'] } {
    if (hook.secret !== null) return { secret: hook.secret, source: 'webhook' };
    if (this.options.flagSecret) return { secret: this.options.flagSecret, source: 'flag' };
    return { secret: this.options.generatedSecret, source: 'generated' };
  }

  private present(row: WebhookRow): Webhook {
    const { secret, source } = this.secretOf(row);
    return {
      id: row.public_id,
      url: row.url,
      events: row.events === null ? null : (JSON.parse(row.events) as string[]),
      secret: source === 'flag' ? maskSecret(secret) : secret,
      secret_source: source,
      source: row.source,
      created_at: iso(row.created_at),
      deliveries: this.options.store.counts(row.id),
    };
  }

  private detail(row: WebhookRow, attemptLimit = 50): WebhookDetail {
    return { ...this.present(row), attempts: this.options.store.attempts(row.id, attemptLimit).map(presentAttempt) };
  }
}

function presentAttempt(row: AttemptView): WebhookAttempt {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.type,
    attempt: row.attempt,
    created_at: iso(row.at),
    success: row.ok === 1,
    status_code: row.status_code,
    error: row.error,
    response: row.response,
    duration_ms: row.duration_ms,
    delivery_state: row.state,
    next_attempt_at: row.state === 'pending' && row.next_at !== null ? iso(row.next_at) : null,
  };
}

/** Builds the webhook service from the server's parts; the generated secret is kept in the database. */
export function createWebhooks(deps: { db: Db; events: EventBus; emails: EmailStore; domains: DomainStore; ids: IdCodec; clock: Clock; logger: Logger; config: Pick<Config, 'webhookUrl' | 'webhookSecret' | 'webhookRetryMs' | 'webhookTimeoutMs'>; onAttempt?: WebhooksOptions['onAttempt'] }): Webhooks {
  return new Webhooks({
    store: new WebhookStore(deps.db),
    events: deps.events,
    mapper: () => new WebhookEventMapper(deps),
    clock: deps.clock,
    logger: deps.logger,
    flagUrl: deps.config.webhookUrl,
    flagSecret: deps.config.webhookSecret,
    generatedSecret: metaValue(deps.db, 'webhook_secret', () => `whsec_${randomBytes(24).toString('hex')}`),
    retryBaseMs: deps.config.webhookRetryMs,
    timeoutMs: deps.config.webhookTimeoutMs,
    onAttempt: deps.onAttempt,
  });
}
