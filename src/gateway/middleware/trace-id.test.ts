import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import type { GatewayEnv } from '../pipeline/gateway-env.js';
import { createTraceIdMiddleware } from './trace-id.js';

function appSeeing(seen: string[]) {
  const app = new Hono<GatewayEnv>();
  app.use(createTraceIdMiddleware());
  app.get('/plain', (c) => {
    seen.push(c.get('traceId'));
    return c.text('plain');
  });
  app.get('/own', (c) => c.text('own', 200, { 'x-trace-id': c.get('traceId') }));
  return app;
}

describe('createTraceIdMiddleware', () => {
  test("keeps the caller's W3C trace id and answers it in x-trace-id", async () => {
    const seen: string[] = [];
    const response = await appSeeing(seen).request('/plain', {
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(seen).toEqual(['4bf92f3577b34da6a3ce929d0e0e4736']);
    expect(response.headers.get('x-trace-id')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  test('keeps a usable x-request-id, and makes a new id for each request without one', async () => {
    const seen: string[] = [];
    const app = appSeeing(seen);
    await app.request('/plain', { headers: { 'x-request-id': 'req-42' } });
    const first = await app.request('/plain');
    const second = await app.request('/plain');
    expect(seen[0]).toBe('req-42');
    expect(seen[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(seen[2]).not.toBe(seen[1]);
    expect(first.headers.get('x-trace-id')).toBe(seen[1]);
    expect(second.headers.get('x-trace-id')).toBe(seen[2]);
  });

  test('answers the id once when the handler set it already, and on answers it did not make', async () => {
    const app = appSeeing([]);
    const own = await app.request('/own', { headers: { 'x-trace-id': 'trace-own' } });
    expect(own.headers.get('x-trace-id')).toBe('trace-own');
    const missing = await app.request('/nowhere', { headers: { 'x-trace-id': 'trace-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-trace-id')).toBe('trace-404');
  });
});
