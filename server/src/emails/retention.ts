import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import type { EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--max-age`: `30m`, `12h`, `7d` → ms; null when not such a duration. */
export function parseMaxAge(value: string): number | null {
  const match = /^(\d{1,6})([mhd])$/.exec(value.trim().toLowerCase());
  if (!match || Number(match[1]) === 0) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

// setTimeout's delay is a 32-bit int; longer waits are taken in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Retention by age: deletes emails older than `maxAgeMs`, continuously. It sleeps until the
 * oldest stored email comes of age (on the injected clock, so tests drive it exactly), prunes,
 * announces each deletion with the usual `email.deleted` event, and sleeps again. An email
 * arriving later can only expire later than the one it sleeps for, so no wake-up is missed.
 */
export class AgeRetention {
  private timer: { clear(): void } | null = null;

  constructor(private readonly deps: { store: EmailStore; ids: IdCodec; events: EventBus; clock: Clock; logger: Logger; maxAgeMs: number; recount: () => void }) {}

  start(): void {
    this.run();
  }

  stop(): void {
    this.timer?.clear();
    this.timer = null;
  }

  /** Prunes what has expired now; returns how many went. */
  run(): number {
    const { store, ids, events, clock, logger, maxAgeMs } = this.deps;
    this.timer?.clear();
    let pruned: { id: number; team_id: string }[] = [];
    try {
      pruned = store.pruneOlderThan(clock.now() - maxAgeMs);
      if (pruned.length) {
        this.deps.recount();
        logger.debug(`retention by age pruned ${pruned.length} emails`);
        for (const p of pruned) events.publish({ type: 'email.deleted', data: { id: ids.encode(p.id), team_id: p.team_id } });
      }
    } catch (error) {
      logger.error('retention by age failed', error);
    }
    const oldest = store.oldestCreatedAt();
    const wait = oldest === null ? maxAgeMs : oldest + maxAgeMs - clock.now();
    this.timer = clock.setTimeout(() => this.run(), Math.min(MAX_TIMER_MS, Math.max(1, wait)));
    return pruned.length;
  }
}
