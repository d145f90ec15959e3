import { randomInt } from 'node:crypto';
import type { ChaosRates, ChaosSettings } from '../../../shared/sandbox.js';
import type { Outcome, OutcomeSource } from './outcomes.js';
import { ConfigError } from '../config.js';

/**
 * Seeded chaos (CONTRACT §4 step 6): each recipient that no earlier source decided draws
 * one number from a seeded generator, so the same seed and the same sends give the
 * same outcomes. The generator is injectable; the default is mulberry32.
 */
export const CHAOS_OUTCOMES = ['bounced', 'failed', 'complaint', 'deferred'] as const satisfies readonly Outcome[];
export type ChaosOutcome = (typeof CHAOS_OUTCOMES)[number];

/** A source of numbers in [0, 1), built from a seed. */
export type RandomFactory = (seed: number) => () => number;

/** mulberry32: tiny, fast and good enough to spread outcomes; not for secrets. */
export const mulberry32: RandomFactory = (seed) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const NO_CHAOS: ChaosRates = { bounced: 0, failed: 0, complaint: 0, deferred: 0 };
export const MAX_SEED = 2 ** 32 - 1;

/** A plain-language problem with a set of rates, or null. */
export function ratesProblem(rates: ChaosRates): string | null {
  for (const outcome of CHAOS_OUTCOMES) {
    const rate = rates[outcome];
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) return `${outcome} must be a number between 0 and 1`;
  }
  const total = CHAOS_OUTCOMES.reduce((sum, o) => sum + rates[o], 0);
  if (total > 1 + 1e-9) return `the rates add up to ${Number(total.toFixed(6))}; together they must be at most 1`;
  return null;
}

/** `--chaos bounced=0.05,failed=0.02,complaint=0.01` → rates; ConfigError with one clear line otherwise. */
export function parseChaos(setting: string | undefined): ChaosRates {
  const rates = { ...NO_CHAOS };
  if (setting === undefined || setting.trim() === '') return rates;
  for (const part of setting.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*(\d*\.?\d+)$/i.exec(part);
    if (!match) throw new ConfigError(`--chaos takes outcome=rate pairs such as bounced=0.05,failed=0.02; "${part}" is not one`, 'chaos');
    const outcome = match[1].toLowerCase() as ChaosOutcome;
    if (!CHAOS_OUTCOMES.includes(outcome)) throw new ConfigError(`--chaos: unknown outcome "${match[1]}"; use ${CHAOS_OUTCOMES.join(', ')}`, 'chaos');
    rates[outcome] = Number(match[2]);
  }
  const problem = ratesProblem(rates);
  if (problem) throw new ConfigError(`--chaos: ${problem}`, 'chaos');
  return rates;
}

/** The chaos settings at runtime; `update` keeps whatever it is not given. */
export class Chaos {
  private rates: ChaosRates;
  private seed: number;
  private next: () => number;

  constructor(rates: ChaosRates, seed: number | undefined, private readonly random: RandomFactory = mulberry32) {
    this.rates = { ...rates };
    // Without --seed a run is still reproducible afterwards: the seed is chosen here and reported.
    this.seed = seed ?? randomInt(0, MAX_SEED);
    this.next = random(this.seed);
  }

  get enabled(): boolean {
    return CHAOS_OUTCOMES.some((o) => this.rates[o] > 0);
  }

  settings(): ChaosSettings {
    return { rates: { ...this.rates }, seed: this.seed };
  }

  /** New rates (merged) and/or a new seed, which restarts the sequence. */
  update(change: { rates?: Partial<ChaosRates>; seed?: number }): ChaosSettings {
    if (change.rates) this.rates = { ...this.rates, ...change.rates };
    if (change.seed !== undefined) {
      this.seed = change.seed;
      this.next = this.random(this.seed);
    }
    return this.settings();
  }

  /** One draw per recipient: the cumulative rates, in a fixed order, pick the outcome. */
  readonly source: OutcomeSource = () => {
    const draw = this.next();
    let edge = 0;
    for (const outcome of CHAOS_OUTCOMES) {
      edge += this.rates[outcome];
      if (draw < edge) return { outcome, decidedBy: 'chaos' };
    }
    return null;
  };
}
