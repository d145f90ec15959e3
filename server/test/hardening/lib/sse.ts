/** A client of `GET /sandbox/events` that keeps every event in arrival order. */
export interface SseEvent {
  type: string;
  data: { id?: string; created_at?: string; team_id?: string | null; [k: string]: unknown };
}

export interface SseClient {
  events: SseEvent[];
  /** Resolves once the stream is open (the server wrote its first bytes). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function listen(url: string, headers: Record<string, string> = {}): SseClient {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  const done = (async () => {
    try {
      const res = await fetch(`${url}/sandbox/events`, { headers, signal: controller.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        markReady();
        buffer += decoder.decode(value, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data) events.push(JSON.parse(data) as SseEvent);
        }
      }
    } catch {
      // aborted, or the server went away
    } finally {
      markReady();
    }
  })();
  return {
    events,
    ready,
    async close() {
      controller.abort();
      await done;
    },
  };
}
