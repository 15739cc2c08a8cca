import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import type { GatewayEnv } from '../pipeline/gateway-env.js';
import { createRequireKey } from './require-key.js';

const KEY = 'a-gateway-key-of-some-length';

function guarded() {
  const app = new Hono<GatewayEnv>();
  app.use((c, next) => {
    c.set('traceId', 'trace-key');
    c.set('facts', { route: '/v1/x', attempts: 0 });
    return next();
  });
  app.use('/v1/*', createRequireKey([KEY]));
  app.get('/v1/x', (c) => c.text('in'));
  app.get('/open', (c) => c.text('open'));
  return app;
}

describe('createRequireKey', () => {
  test('lets a request with a configured bearer key through', async () => {
    const response = await guarded().request('/v1/x', { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('in');
  });

  test('lets a request with a configured key in x-api-key or api-key through', async () => {
    for (const headers of [{ 'x-api-key': KEY }, { 'api-key': KEY }]) {
      const response = await guarded().request('/v1/x', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  test('answers AUTHENTICATION_ERROR (401) with www-authenticate for a missing or wrong key', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${KEY}x` },
      { authorization: KEY },
      { 'x-api-key': `${KEY}x` },
      { 'api-key': 'wrong' },
    ]) {
      const response = await guarded().request('/v1/x', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({
        success: false,
        provider: 'system',
        error: {
          code: 'AUTHENTICATION_ERROR',
          message: 'Send a gateway key as "Authorization: Bearer <key>" or "x-api-key: <key>".',
        },
        metadata: { trace_id: 'trace-key' },
      });
    }
  });

  test('guards only where it is mounted', async () => {
    expect((await guarded().request('/open')).status).toBe(200);
  });
});
