import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { sleep } from './sleep.js';

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('answers true once the whole time has passed, not before', async () => {
    let done: boolean | undefined;
    const waiting = sleep(1000).then((whole) => {
      done = whole;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  test('answers false as soon as the signal aborts, and leaves no timer behind', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('answers false at once for a signal aborted already', async () => {
    expect(await sleep(60_000, AbortSignal.abort())).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('stops listening to the signal once the time has passed', async () => {
    const controller = new AbortController();
    const removed = vi.spyOn(controller.signal, 'removeEventListener');
    const waiting = sleep(10, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    expect(await waiting).toBe(true);
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});
