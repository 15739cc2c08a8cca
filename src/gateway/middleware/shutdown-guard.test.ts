import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import type { GatewayEnv, RequestFacts } from '../pipeline/gateway-env.js';
import { createShutdownGuard } from './shutdown-guard.js';

/** An app whose `/v1/held` answers at once but stays in flight (a stream) until the test ends it. */
function guardedApp() {
  const guard = createShutdownGuard();
  const app = new Hono<GatewayEnv>();
  let end = () => {};
  const ended: string[] = [];
  app.use(guard.track);
  app.use(async (c, next) => {
    const facts: RequestFacts = { route: c.req.path, attempts: 0 };
    c.set('traceId', 'trace-stop');
    c.set('facts', facts);
    await next();
    // An inner middleware's bookkeeping, which idle() must wait for.
    if (facts.pending === undefined) ended.push(c.req.path);
    else facts.pending.then(() => ended.push(c.req.path));
  });
  app.use('/v1/*', guard.refuse);
  app.get('/v1/held', (c) => {
    c.get('facts').pending = new Promise<void>((resolve) => {
      end = resolve;
    });
    return c.text('streaming');
  });
  app.get('/v1/quick', (c) => c.text('quick'));
  app.get('/healthz', (c) => c.text('alive'));
  return { guard, app, ended, end: () => end() };
}

describe('createShutdownGuard', () => {
  test('counts a request in flight until its stream ends, and idle() waits for it and its bookkeeping', async () => {
    const { guard, app, ended, end } = guardedApp();
    expect(guard.inFlight()).toBe(0);
    await app.request('/v1/held');
    expect(guard.inFlight()).toBe(1);
    await app.request('/v1/quick');
    expect(guard.inFlight()).toBe(1);
    let idle = false;
    const waiting = guard.idle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    expect(idle).toBe(false);
    end();
    await waiting;
    expect(guard.inFlight()).toBe(0);
    expect(ended).toEqual(['/v1/quick', '/v1/held']);
  });

  test('idle() resolves at once when nothing is in flight', async () => {
    await expect(createShutdownGuard().idle()).resolves.toBeUndefined();
  });

  test('after close(), new /v1 requests get PROVIDER_UNAVAILABLE (503) and every answer closes its connection', async () => {
    const { guard, app } = guardedApp();
    expect((await app.request('/v1/quick')).headers.get('connection')).toBeNull();
    guard.close();
    expect(guard.closing).toBe(true);
    const refused = await app.request('/v1/quick');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toMatchObject({
      success: false,
      provider: 'system',
      error: {
        code: 'PROVIDER_UNAVAILABLE',
        message: 'The gateway is shutting down; retry on another instance.',
      },
      metadata: { trace_id: 'trace-stop' },
    });
    const health = await app.request('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    expect(guard.inFlight()).toBe(0);
  });

  test('a request in flight when close() is called goes on to its end', async () => {
    const { guard, app, end } = guardedApp();
    const held = await app.request('/v1/held');
    guard.close();
    expect(await held.text()).toBe('streaming');
    expect(guard.inFlight()).toBe(1);
    end();
    await guard.idle();
    expect(guard.inFlight()).toBe(0);
  });
});
