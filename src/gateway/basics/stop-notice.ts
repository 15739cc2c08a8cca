/**
 * The moment a graceful stop's grace period ends, for every request still running. It reads like an
 * `AbortSignal` (`aborted`, `addEventListener('abort', …)`), but keeps its listeners in a set: one listener per
 * request in flight would make Node warn about a leak on a real signal past ten of them.
 */
export class StopNotice {
  /** True once the grace period ended. */
  aborted = false;
  private readonly listeners = new Set<() => void>();

  /** Call `listener` once when the grace period ends (never when it ended already). */
  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (!this.aborted) this.listeners.add(listener);
  }

  /** Forget `listener`. */
  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  /** End the grace period: every listener is called once. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }
}
