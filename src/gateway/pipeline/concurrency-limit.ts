/**
 * At most `limit` provider requests at once per instance, and at most `queue` waiting; past that a request is
 * refused at once (the caller answers `RATE_LIMITED` with `retry-after`), so a burst cannot pile up unbounded.
 * The limit keeps its own counts; `/metrics` reads its gauges from here.
 */
export class ConcurrencyLimit {
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(
    private readonly limit: number,
    private readonly queue: number,
  ) {}

  /** Provider requests holding a place now. */
  get inFlight(): number {
    return this.running;
  }

  /** Requests waiting for a place now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A place, or `undefined` when the queue is full; resolves when a place frees up. Call the release once. */
  acquire(signal: AbortSignal | undefined): Promise<(() => void) | undefined> {
    if (this.running < this.limit) return Promise.resolve(this.take());
    if (this.waiting.length >= this.queue) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', leave);
        resolve(this.take());
      };
      const leave = () => {
        const index = this.waiting.indexOf(wake);
        if (index >= 0) {
          this.waiting.splice(index, 1);
          resolve(undefined);
        }
      };
      this.waiting.push(wake);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private take(): () => void {
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.();
    };
  }
}
