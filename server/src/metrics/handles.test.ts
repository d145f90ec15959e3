import { describe, expect, it, vi } from 'vitest';

/**
 * The event-loop delay monitor and the GC observer behind /metrics run inside the user's
 * process (startSendbox in a test runner): stop() must end them, or every stopped sendbox
 * keeps sampling the loop for the rest of the run. perf_hooks is wrapped to see them.
 */
const monitors = vi.hoisted(() => ({ histograms: [] as { enabled: boolean }[], observers: [] as { observing: boolean }[] }));

vi.mock('node:perf_hooks', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:perf_hooks')>();
  class WatchedObserver extends real.PerformanceObserver {
    private readonly state = { observing: false };
    constructor(callback: ConstructorParameters<typeof real.PerformanceObserver>[0]) {
      super(callback);
      monitors.observers.push(this.state);
    }
    override observe(options: Parameters<InstanceType<typeof real.PerformanceObserver>['observe']>[0]): void {
      this.state.observing = true;
      super.observe(options);
    }
    override disconnect(): void {
      this.state.observing = false;
      super.disconnect();
    }
  }
  return {
    ...real,
    PerformanceObserver: WatchedObserver,
    monitorEventLoopDelay: (options?: Parameters<typeof real.monitorEventLoopDelay>[0]) => {
      const histogram = real.monitorEventLoopDelay(options);
      const state = { enabled: false };
      monitors.histograms.push(state);
      const { enable, disable } = histogram;
      histogram.enable = () => ((state.enabled = true), enable.call(histogram));
      histogram.disable = () => ((state.enabled = false), disable.call(histogram));
      return histogram;
    },
  };
});

const { startSendbox } = await import('../index.js');

describe('the metrics monitors', () => {
  it('measure the event loop while sendbox runs, and stop() ends them', async () => {
    const sb = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:' });
    expect(monitors.histograms.filter((h) => h.enabled)).toHaveLength(1);
    expect(monitors.observers.filter((o) => o.observing)).toHaveLength(1);
    const text = await (await fetch(`${sb.url}/metrics`)).text();
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    await sb.stop();
    expect(monitors.histograms.filter((h) => h.enabled)).toEqual([]);
    expect(monitors.observers.filter((o) => o.observing)).toEqual([]);
  });
});
