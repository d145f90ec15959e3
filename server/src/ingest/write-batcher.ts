/**
 * Groups the writes of concurrent requests into one transaction per event-loop turn:
 * one commit (and one WAL append) serves every request that arrived meanwhile, and
 * each caller's promise settles only after its row is durable.
 */
export class WriteBatcher<T> {
  private pending: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => void,
    private readonly afterWrite: (items: T[]) => void = () => {},
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes everything pending now (also used at shutdown). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.write(batch.map((p) => p.item));
    } catch {
      // One bad item must not fail its neighbours: retry them one by one.
      const written: T[] = [];
      for (const p of batch) {
        try {
          this.write([p.item]);
          written.push(p.item);
          p.resolve();
        } catch (error) {
          p.reject(error);
        }
      }
      this.afterWrite(written);
      return;
    }
    for (const p of batch) p.resolve();
    this.afterWrite(batch.map((p) => p.item));
  }

  get size(): number {
    return this.pending.length;
  }
}
