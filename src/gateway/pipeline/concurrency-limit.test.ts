import { describe, expect, test } from 'vitest';
import { GatewayMetrics } from '../observability/metrics.js';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  test('gives places up to the limit, queues up to the queue, refuses past both', async () => {
    const limit = new ConcurrencyLimit(1, 1);
    const first = await limit.acquire(undefined);
    expect(first).toBeTypeOf('function');
    const waiting = limit.acquire(undefined);
    expect(limit).toMatchObject({ inFlight: 1, queued: 1 });
    expect(await limit.acquire(undefined)).toBeUndefined();
    first?.();
    const second = await waiting;
    expect(second).toBeTypeOf('function');
    expect(limit).toMatchObject({ inFlight: 1, queued: 0 });
    second?.();
    expect(limit.inFlight).toBe(0);
  });

  test('a release called twice frees one place only', async () => {
    const limit = new ConcurrencyLimit(2, 0);
    const release = await limit.acquire(undefined);
    await limit.acquire(undefined);
    release?.();
    release?.();
    expect(limit.inFlight).toBe(1);
    expect(await limit.acquire(undefined)).toBeTypeOf('function');
    expect(await limit.acquire(undefined)).toBeUndefined();
  });

  test('a waiter whose client went away leaves the queue without a place', async () => {
    const limit = new ConcurrencyLimit(1, 2);
    const held = await limit.acquire(undefined);
    const client = new AbortController();
    const waiting = limit.acquire(client.signal);
    client.abort();
    expect(await waiting).toBeUndefined();
    expect(limit.queued).toBe(0);
    held?.();
    expect(limit.inFlight).toBe(0);
  });

  test('decides by its own count, whatever the metrics say', async () => {
    const metrics = new GatewayMetrics();
    const limit = new ConcurrencyLimit(1, 0);
    expect(await limit.acquire(undefined)).toBeTypeOf('function');
    expect(metrics.render(limit)).toContain('verdict_gateway_in_flight 1\n');
    expect(metrics.render({ inFlight: 0, queued: 0 })).toContain('verdict_gateway_in_flight 0\n');
    expect(await limit.acquire(undefined)).toBeUndefined();
  });
});
