import { createRequire } from 'node:module';
import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram, type PerformanceEntry } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../storage/db.js';
import type { RecipientChange } from '../simulation/lifecycle.js';
import type { Scenarios } from '../simulation/scenarios.js';
import type { Rule, RuleAction } from '../../../shared/sandbox.js';

/** Where a webhook attempt left its delivery. */
export type WebhookAttemptResult = 'delivered' | 'retrying' | 'failed';

/** What one stored email tells the counters. */
export interface ReceivedEmail {
  teamId: string;
  source: 'api' | 'smtp';
}

/**
 * Prometheus metrics (`/metrics`). One registry per sendbox, never prom-client's global
 * one, so several sendboxes in one process (tests, `startSendbox()`) count apart.
 * Counters are fed from hooks that already exist (the ingest batch, the lifecycle's
 * change list, the rule engine's refusals, a webhook attempt's outcome) and from the
 * answers of /sandbox requests, never from inside the /v1/send request path; sizes are
 * read when Prometheus scrapes.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly receivedTotal: Counter<'source' | 'team'>;
  private readonly transitions: Counter<'state'>;
  private readonly refusals: Counter<'source' | 'stage' | 'code'>;
  private readonly waits: Counter<'result'>;
  private readonly webhookAttempts: Counter<'result'>;
  private readonly sseClients: Gauge;

  constructor(db: Db, rules: () => readonly Rule[] = () => []) {
    const registers = [this.registry];
    this.receivedTotal = new Counter({ name: 'sendbox_emails_received_total', help: 'Emails captured, by source (api or smtp) and team', labelNames: ['source', 'team'], registers });
    this.transitions = new Counter({ name: 'sendbox_recipient_outcomes_total', help: 'Recipient state changes of the simulated delivery, by new state', labelNames: ['state'], registers });
    this.refusals = new Counter({ name: 'sendbox_refusals_total', help: 'Sends refused by a sandbox rule, by source (api or smtp), stage (send, mail, rcpt, data) and code', labelNames: ['source', 'stage', 'code'], registers });
    this.waits = new Counter({ name: 'sendbox_wait_requests_total', help: 'GET /sandbox/emails/wait calls by result: matched, timeout, none (nothing arrived, as asked) or arrived (none=true and one did), error', labelNames: ['result'], registers });
    this.webhookAttempts = new Counter({ name: 'sendbox_webhook_attempts_total', help: 'Webhook POST attempts by result: delivered, retrying (failed, will retry) or failed (gave up)', labelNames: ['result'], registers });
    this.sseClients = new Gauge({ name: 'sendbox_sse_clients', help: 'Open /sandbox/events streams', registers });
    new Gauge({
      name: 'sendbox_database_bytes',
      help: 'Size of the SQLite database (pages in use × page size, WAL not included)',
      registers,
      collect() {
        // Read at scrape time only: two pragmas, no table scan.
        this.set(Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true })));
      },
    });
    new Gauge({
      name: 'sendbox_rule_uses',
      help: 'Times each sandbox rule applied its action (refusals by rule: action http:<status> or smtp:<stage>:<code>; outcomes: outcome:<state>), read from the rules at scrape',
      labelNames: ['rule', 'action'],
      registers,
      collect() {
        this.reset();
        for (const rule of rules()) this.set({ rule: String(rule.id), action: actionLabel(rule.action) }, rule.uses);
      },
    });
    // prom-client's default process metrics (memory, CPU, handles, heap, version), each read
    // at scrape time. Its event-loop and GC metrics are not among them: they start a monitor
    // and an observer that prom-client never stops, so this class runs its own (start/stop).
    for (const name of SCRAPE_TIME_DEFAULTS) (requireCjs(`prom-client/lib/metrics/${name}.js`) as DefaultMetric)(this.registry, {});
    this.eventLoop = new EventLoopMetrics(this.registry);
  }

  private readonly eventLoop: EventLoopMetrics;

  /** Starts the event-loop delay monitor and the GC observer (at listen). */
  start(): void {
    this.eventLoop.start();
  }

  /** Stops them (at close), so a stopped sendbox leaves nothing running in the process. */
  stop(): void {
    this.eventLoop.stop();
  }

  /** Ingest stored a batch of emails. */
  received(batch: readonly ReceivedEmail[]): void {
    for (const email of batch) this.receivedTotal.inc({ source: email.source, team: email.teamId });
  }

  /** The lifecycle moved recipients (processing → queued → an outcome, or forced). */
  recipientChanges(changes: readonly RecipientChange[]): void {
    for (const change of changes) this.transitions.inc({ state: change.state });
  }

  refused(source: 'api' | 'smtp', stage: 'send' | 'mail' | 'rcpt' | 'data', code: number): void {
    this.refusals.inc({ source, stage, code: String(code) });
  }

  webhookAttempt(result: WebhookAttemptResult): void {
    this.webhookAttempts.inc({ result });
  }

  /**
   * Mounted before /sandbox: counts wait answers by status and keeps the number of open
   * event streams, from the responses themselves, so those routes know nothing of metrics.
   */
  readonly observeSandbox: RequestHandler = (req, res, next) => {
    if (req.method === 'GET' && req.path === '/events') {
      this.sseClients.inc();
      res.once('close', () => this.sseClients.dec());
    } else if (req.method === 'GET' && req.path === '/emails/wait') {
      const none = req.query.none === 'true';
      res.once('close', () => {
        const status = res.statusCode;
        this.waits.inc({ result: status === 408 ? 'timeout' : status === 409 && none ? 'arrived' : status === 200 ? (none ? 'none' : 'matched') : 'error' });
      });
    }
    next();
  };
}

const requireCjs = createRequire(import.meta.url);
type DefaultMetric = (registry: Registry, config: object) => void;
// The entries of prom-client 15's collectDefaultMetrics that hold no handle (lib/defaultMetrics.js).
const SCRAPE_TIME_DEFAULTS = ['processCpuTotal', 'processStartTime', 'osMemoryHeap', 'processOpenFileDescriptors', 'processMaxFileDescriptors', 'processResources', 'processHandles', 'processRequests', 'heapSizeAndUsed', 'heapSpacesSizeAndUsed', 'version'];

const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * Event-loop lag and GC durations under prom-client's names (`nodejs_eventloop_lag_*`,
 * `nodejs_gc_duration_seconds`), from a delay monitor and a GC observer that stop() ends.
 */
class EventLoopMetrics {
  private histogram: IntervalHistogram | null = null;
  private observer: PerformanceObserver | null = null;
  private readonly gc: Histogram<'kind'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const stats: [string, string, (h: IntervalHistogram) => number][] = [
      ['min', 'minimum', (h) => h.min],
      ['max', 'maximum', (h) => h.max],
      ['mean', 'mean', (h) => h.mean],
      ['stddev', 'standard deviation', (h) => h.stddev],
      ['p50', '50th percentile', (h) => h.percentile(50)],
      ['p90', '90th percentile', (h) => h.percentile(90)],
      ['p99', '99th percentile', (h) => h.percentile(99)],
    ];
    const monitor = () => this.histogram;
    stats.forEach(([suffix, what, pick], index) => {
      new Gauge({
        name: `nodejs_eventloop_lag_${suffix}_seconds`,
        help: `The ${what} of the recorded event loop delays.`,
        registers,
        collect() {
          const h = monitor();
          // Nanoseconds; before its first sample the monitor's min is a huge sentinel.
          if (h && h.count > 0) this.set(pick(h) / 1e9);
          // Gauges are collected in the order they were registered: after the last one, each
          // scrape starts a new interval, as prom-client's own does.
          if (index === stats.length - 1) h?.reset();
        },
      });
    });
    new Gauge({
      name: 'nodejs_eventloop_lag_seconds',
      help: 'Lag of event loop in seconds.',
      registers,
      async collect() {
        const start = process.hrtime.bigint();
        await new Promise((resolve) => setImmediate(resolve));
        this.set(Number(process.hrtime.bigint() - start) / 1e9);
      },
    });
    this.gc = new Histogram({ name: 'nodejs_gc_duration_seconds', help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.', labelNames: ['kind'], buckets: [0.001, 0.01, 0.1, 1, 2, 5], registers });
  }

  start(): void {
    if (this.histogram) return;
    this.histogram = monitorEventLoopDelay({ resolution: 20 });
    this.histogram.enable();
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.gc.observe({ kind: GC_KINDS[((entry as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind ?? -1] ?? 'unknown' }, entry.duration / 1000);
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.histogram?.disable();
    this.histogram = null;
    this.observer?.disconnect();
    this.observer = null;
  }
}

function actionLabel(action: RuleAction): string {
  if ('outcome' in action) return `outcome:${action.outcome}`;
  if ('http_status' in action) return `http:${action.http_status}`;
  if ('tags' in action) return `tags:${action.tags.join(',')}`;
  return `smtp:${action.smtp_stage}:${action.disconnect ? 'disconnect' : action.code}`;
}

/**
 * Counts the rule engine's refusals by wrapping its two entry points once at start-up,
 * so neither the send path nor the SMTP handlers carry metrics code.
 */
export function countRefusals(scenarios: Pick<Scenarios, 'apiRefusal' | 'smtpRefusal'>, metrics: Metrics): void {
  const { apiRefusal, smtpRefusal } = scenarios;
  scenarios.apiRefusal = (context) => {
    const refusal = apiRefusal(context);
    if (refusal) metrics.refused('api', 'send', refusal.code ?? 0);
    return refusal;
  };
  scenarios.smtpRefusal = (stage, context) => {
    const refusal = smtpRefusal(stage, context);
    if (refusal) metrics.refused('smtp', stage, refusal.disconnect ? 0 : refusal.code);
    return refusal;
  };
}
