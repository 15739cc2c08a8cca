import { describe, expect, test } from 'vitest';
import { GatewayMetrics } from '../metrics.js';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  test('gives places up to the limit, queues up to the queue, refuses past both', async () => {
    const metrics = new GatewayMetrics();
    const limit = new ConcurrencyLimit(1, 1, metrics);
    const first = await limit.acquire(undefined);
    expect(first).toBeTypeOf('function');
    const waiting = limit.acquire(undefined);
    expect(metrics.queued).toBe(1);
    expect(await limit.acquire(undefined)).toBeUndefined();
    first?.();
    const second = await waiting;
    expect(second).toBeTypeOf('function');
    expect(metrics).toMatchObject({ inFlight: 1, queued: 0 });
    second?.();
    expect(metrics.inFlight).toBe(0);
  });

  test('a release called twice frees one place only', async () => {
    const metrics = new GatewayMetrics();
    const limit = new ConcurrencyLimit(2, 0, metrics);
    const release = await limit.acquire(undefined);
    await limit.acquire(undefined);
    release?.();
    release?.();
    expect(metrics.inFlight).toBe(1);
  });

  test('a waiter whose client went away leaves the queue without a place', async () => {
    const metrics = new GatewayMetrics();
    const limit = new ConcurrencyLimit(1, 2, metrics);
    const held = await limit.acquire(undefined);
    const client = new AbortController();
    const waiting = limit.acquire(client.signal);
    client.abort();
    expect(await waiting).toBeUndefined();
    expect(metrics.queued).toBe(0);
    held?.();
    expect(metrics.inFlight).toBe(0);
  });
});
