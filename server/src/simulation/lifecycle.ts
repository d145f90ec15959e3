import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { EmailStatus } from '../../../shared/email.js';
import type { EmailStore, RecipientRow, RecipientState } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import { complaintReply, deferredReply, finalReply, mxHost, queuedReply, type Reply } from './replies.js';

/**
 * The per-recipient delivery state machine (CONTRACT §4, §8):
 *   processing → queued → delivered | bounced | failed;  delivered → complaint.
 * Every move writes a log entry. Steps are persisted with a due time, so a restart
 * resumes where it stopped; one timer serves all recipients, and each tick advances
 * everything due in one transaction.
 */

export const FINAL_STATES: RecipientState[] = ['bounced', 'failed', 'complaint'];
// A temporary failure is retried this many times before it gives up as failed.
const TEMPORARY_RETRIES = 3;
const BATCH = 2000;
// Ticks are at least this far apart: under a stream of small ingest batches (SMTP) each
// tick then advances many recipients in one commit instead of a few in each of many.
// Adds at most this much to a simulated delay.
const MIN_TICK_INTERVAL_MS = 25;

export interface LifecycleOptions {
  store: EmailStore;
  ids: IdCodec;
  clock: Clock;
  logger: Logger;
  delayMs: number;
  /** Called after each committed batch with the emails that changed. */
  onChanged: (changes: RecipientChange[]) => void;
}

export interface RecipientChange {
  emailId: number;
  recipient: string;
  state: RecipientState;
}

export type ForcedOutcome = 'delivered' | 'bounced' | 'failed' | 'complaint';
export type ForceResult =
  | { ok: true; changes: RecipientChange[] }
  | { ok: false; reason: 'unknown-recipient' | 'impossible'; message: string };

/** The recipient state machine's allowed forced moves. */
export function canForce(state: RecipientState, target: ForcedOutcome): boolean {
  return target === 'complaint' ? state === 'delivered' : state === 'processing' || state === 'queued';
}

function impossibleMessage(rows: RecipientRow[], target: ForcedOutcome): string {
  const states = rows.map((r) => `${r.address} is ${r.state}`).join(', ');
  if (target === 'complaint') return `complaint needs a delivered recipient: ${states}`;
  return `${target} needs a processing or queued recipient (bounced, failed and complaint are final; delivered can only turn complaint): ${states}`;
}

/** Email status from its recipients: pending states first, then the most severe outcome. */
export function emailStatus(states: RecipientState[]): EmailStatus {
  if (states.includes('processing')) return 'processing';
  if (states.includes('queued')) return 'queued';
  for (const severe of ['complaint', 'bounced', 'failed'] as const) if (states.includes(severe)) return severe;
  return 'delivered';
}

export class Lifecycle {
  private timer: { clear(): void } | null = null;
  private timerAt = Infinity;
  private lastTickAt = -Infinity;
  private paused = false;
  private stopped = false;

  constructor(private readonly options: LifecycleOptions) {}

  get isPaused(): boolean {
    return this.paused;
  }

  start(): void {
    this.stopped = false;
    this.wakeAtNextDue();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.clear();
    this.timer = null;
    this.timerAt = Infinity;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wakeAtNextDue();
  }

  /** Ingest calls this after a commit with the earliest due time it wrote. */
  schedule(dueAt: number): void {
    const at = Math.max(dueAt, this.lastTickAt + MIN_TICK_INTERVAL_MS);
    if (this.stopped || at >= this.timerAt) return;
    this.timer?.clear();
    this.timerAt = at;
    const wait = Math.max(0, at - this.options.clock.now());
    this.timer = this.options.clock.setTimeout(() => this.tick(), wait);
  }

  private wakeAtNextDue(): void {
    const next = this.options.store.nextDue(this.paused);
    if (next !== null) this.schedule(next);
  }

  /** Advances every due recipient; exposed so tests and `advance` can step the clock. */
  tick(): void {
    this.timer = null;
    this.timerAt = Infinity;
    if (this.stopped) return;
    const { store, clock, logger } = this.options;
    const now = clock.now();
    this.lastTickAt = now;
    let changes: RecipientChange[] = [];
    let more = false;
    try {
      store.transaction(() => {
        const due = store.due(now, BATCH, this.paused);
        more = due.length === BATCH;
        changes = this.advanceAll(due, now);
      });
    } catch (error) {
      logger.error('delivery tick failed', error);
    }
    if (changes.length) this.options.onChanged(changes);
    if (more) this.schedule(now);
    else this.wakeAtNextDue();
  }

  /** Moves each row one step, then recomputes the status of every touched email. Runs inside a transaction. */
  advanceAll(rows: RecipientRow[], now: number): RecipientChange[] {
    const touched = new Set<number>();
    const changes: RecipientChange[] = [];
    for (const row of rows) {
      const next = this.step(row, now);
      if (!next) continue;
      touched.add(row.email_id);
      changes.push({ emailId: row.email_id, recipient: row.address, state: next });
    }
    for (const emailId of touched) this.refreshStatus(emailId, now);
    return changes;
  }

  /**
   * Forces an outcome through the sandbox (CONTRACT §8): a processing or queued recipient
   * gets the steps in between written; complaint needs a delivered recipient; final
   * recipients do not move. Without `recipient`, every recipient that can move does.
   */
  force(emailId: number, target: ForcedOutcome, recipient: string | null): ForceResult {
    const { store, clock } = this.options;
    const now = clock.now();
    const result = store.transaction((): ForceResult => {
      const rows = store.recipients(emailId);
      const chosen = recipient === null ? rows : rows.filter((r) => r.address.toLowerCase() === recipient.toLowerCase());
      if (chosen.length === 0) return { ok: false, reason: 'unknown-recipient', message: `${recipient} is not a recipient of this email` };
      const movable = chosen.filter((r) => canForce(r.state, target));
      if (movable.length === 0) return { ok: false, reason: 'impossible', message: impossibleMessage(chosen, target) };
      const changes = movable.map((row) => this.forceOne(row, target, now));
      this.refreshStatus(emailId, now);
      return { ok: true, changes };
    });
    if (result.ok) this.options.onChanged(result.changes);
    return result;
  }

  private forceOne(row: RecipientRow, target: ForcedOutcome, now: number): RecipientChange {
    const publicId = this.options.ids.encode(row.email_id);
    if (row.state === 'processing') {
      this.log(row, 'queued', queuedReply(publicId), now, now);
      this.save(row, { state: 'queued', queued_at: now });
    }
    if (target === 'complaint') this.log(row, 'complaint', complaintReply, now, row.queued_at);
    else this.log(row, target, finalReply(target, row.address, publicId, now), now, row.queued_at);
    this.save(row, { state: target, due_at: null });
    this.options.store.setRecipientOutcome(row.email_id, row.idx, target, 'forced');
    return { emailId: row.email_id, recipient: row.address, state: target };
  }

  /** Recomputes and stores an email's status; sets delivered_at on the first delivery. */
  refreshStatus(emailId: number, now: number): void {
    const { store } = this.options;
    const states = store.recipientStates(emailId);
    const anyDelivered = states.some((s) => s === 'delivered' || s === 'complaint');
    store.setStatus(emailId, emailStatus(states), anyDelivered ? now : null);
  }

  /** One step of one recipient; returns its new state, or null when nothing moved. */
  private step(row: RecipientRow, now: number): RecipientState | null {
    const publicId = this.options.ids.encode(row.email_id);
    const delay = this.options.delayMs;
    switch (row.state) {
      case 'processing': {
        this.log(row, 'queued', queuedReply(publicId), now, now);
        this.save(row, { state: 'queued', due_at: now + delay + row.outcome_delay_ms, queued_at: now });
        return 'queued';
      }
      case 'queued':
        return this.finish(row, now, publicId);
      case 'delivered': {
        // Only a planned complaint keeps a delivered recipient due.
        if (row.outcome !== 'complaint') {
          this.save(row, { due_at: null });
          return null;
        }
        this.log(row, 'complaint', complaintReply, now, row.queued_at);
        this.save(row, { state: 'complaint', due_at: null });
        return 'complaint';
      }
      default:
        this.save(row, { due_at: null });
        return null;
    }
  }

  private finish(row: RecipientRow, now: number, publicId: string): RecipientState {
    const delay = this.options.delayMs;
    const custom = row.outcome_code ? { code: row.outcome_code, response: row.outcome_response ?? '' } : null;
    switch (row.outcome) {
      case 'deferred':
        if (row.attempts === 0) {
          this.log(row, 'queued', custom ?? deferredReply(), now, row.queued_at);
          this.save(row, { attempts: 1, due_at: now + delay });
          return 'queued';
        }
        return this.deliver(row, now, publicId, null);
      case 'delivered':
        return this.deliver(row, now, publicId, null);
      case 'complaint':
        return this.deliver(row, now, publicId, now + delay);
      case 'bounced':
      case 'failed': {
        // A temporary (4xx) failure is retried with backoff before it gives up.
        if (custom?.code.startsWith('4') && row.attempts < TEMPORARY_RETRIES) {
          this.log(row, 'queued', custom, now, row.queued_at);
          this.save(row, { attempts: row.attempts + 1, due_at: now + delay * 2 ** row.attempts });
          return 'queued';
        }
        this.log(row, row.outcome, custom ?? finalReply(row.outcome, row.address, publicId, now), now, row.queued_at);
        this.save(row, { state: row.outcome, due_at: null });
        return row.outcome;
      }
    }
  }

  private deliver(row: RecipientRow, now: number, publicId: string, complaintAt: number | null): RecipientState {
    const reply = row.outcome === 'delivered' && row.outcome_code?.startsWith('2') ? { code: row.outcome_code, response: row.outcome_response ?? '' } : finalReply('delivered', row.address, publicId, now);
    this.log(row, 'delivered', reply, now, row.queued_at);
    this.save(row, { state: 'delivered', due_at: complaintAt });
    return 'delivered';
  }

  private log(row: RecipientRow, status: EmailStatus, reply: Reply, now: number, queuedAt: number | null): void {
    this.options.store.insertLog({
      emailId: row.email_id,
      recipient: row.address,
      recipientType: row.type,
      status,
      code: reply.code,
      response: reply.response,
      mxHostname: mxHost(row.address),
      time: Math.floor(now / 1000),
      queuedAt,
    });
  }

  private save(row: RecipientRow, patch: Partial<Pick<RecipientRow, 'state' | 'attempts' | 'due_at' | 'queued_at'>>): void {
    Object.assign(row, patch);
    this.options.store.updateRecipient(row);
  }
}
