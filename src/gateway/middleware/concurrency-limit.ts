import type { GatewayMetrics } from '../metrics.js';

/**
 * At most `limit` provider requests at once per instance, and at most `queue` waiting; past that a request is
 * refused at once (the caller answers `RATE_LIMITED` with `retry-after`), so a burst cannot pile up unbounded.
 */
export class ConcurrencyLimit {
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly queue: number,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** A place, or `undefined` when the queue is full; resolves when a place frees up. Call the release once. */
  acquire(signal: AbortSignal | undefined): Promise<(() => void) | undefined> {
    if (this.metrics.inFlight < this.limit) return Promise.resolve(this.take());
    if (this.waiting.length >= this.queue) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', leave);
        this.metrics.queued--;
        resolve(this.take());
      };
      const leave = () => {
        const index = this.waiting.indexOf(wake);
        if (index >= 0) {
          this.waiting.splice(index, 1);
          this.metrics.queued--;
          resolve(undefined);
        }
      };
      this.waiting.push(wake);
      this.metrics.queued++;
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private take(): () => void {
    this.metrics.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.metrics.inFlight--;
      this.waiting.shift()?.();
    };
  }
}
