import type { Clock } from '../src/clock.js';

/** A clock that moves only when the test says so; due timers fire, in order, inside `advance`. */
export class ManualClock implements Clock {
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): { clear(): void } {
    const timer = { at: this.current + ms, seq: this.seq++, fn };
    this.timers.push(timer);
    return { clear: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = until;
  }
}
