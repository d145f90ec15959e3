/** Time and timers behind one seam, so the simulation can be driven exactly in tests. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): { clear(): void };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return { clear: () => clearTimeout(handle) };
  },
};

/** Unix seconds, as log entries carry them. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);
export const iso = (ms: number) => new Date(ms).toISOString();
