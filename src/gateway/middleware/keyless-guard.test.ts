import { describe, expect, test } from 'vitest';
import { createGateway } from '../create-gateway.js';
import type { GatewayOptions } from '../gateway-options.js';

const BODY = JSON.stringify({ model: 'demo:chat', input: 'Say hi' });

function gatewayWith(options: GatewayOptions = {}) {
  return createGateway({ providers: { demo: { type: 'demo' } }, ...options });
}

/** POSTs the demo request with `headers`; answers the status and the error code (or `ok`). */
async function post(
  gateway: ReturnType<typeof gatewayWith>,
  headers: Record<string, string>,
  path = '/v1/text',
) {
  const response = await gateway.request(path, { method: 'POST', headers, body: BODY });
  const envelope = (await response.json()) as {
    success: boolean;
    error?: { code: string; details: unknown };
  };
  return { status: response.status, code: envelope.success ? 'ok' : envelope.error?.code, envelope };
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('createKeylessGuard', () => {
  test('on a loopback bind without keys, a foreign Host or Origin is refused before any provider is called', async () => {
    const gateway = gatewayWith({ host: '127.0.0.1' });
    expect(await post(gateway, { ...JSON_TYPE, host: 'rebound.example:8787' })).toMatchObject({
      status: 403,
      code: 'PERMISSION_DENIED',
      envelope: { error: { details: { reason: 'foreign_host_or_origin' } } },
    });
    expect(await post(gateway, { ...JSON_TYPE, origin: 'https://evil.example' })).toMatchObject({
      status: 403,
      code: 'PERMISSION_DENIED',
    });
    expect(await post(gateway, { ...JSON_TYPE, origin: 'null' })).toMatchObject({ status: 403 });
    const health = await gateway.request('/healthz', { headers: { host: 'rebound.example' } });
    expect(health.status).toBe(403);
    expect(await post(gateway, { ...JSON_TYPE, host: 'localhost:8787' })).toMatchObject({
      status: 200,
      code: 'ok',
    });
    expect(
      await post(gateway, { ...JSON_TYPE, host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' }),
    ).toMatchObject({ status: 200, code: 'ok' });
  });

  test('a library gateway without a host is taken as bound to loopback', async () => {
    expect(await post(gatewayWith(), { ...JSON_TYPE, host: 'rebound.example' })).toMatchObject({
      status: 403,
    });
  });

  test("a browser's text/plain form or no-cors fetch is refused, even from an allowed origin", async () => {
    const gateway = gatewayWith({ host: '127.0.0.1' });
    const same = { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' };
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      expect(await post(gateway, { ...same, 'content-type': type })).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        envelope: { error: { details: { reason: 'content_type' } } },
      });
    }
    // A no-cors fetch of a Blob without a type sends no content-type at all.
    expect(await post(gateway, same)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await post(gateway, { ...same, 'content-type': 'multipart/form-data; boundary=x' })).toMatchObject(
      {
        status: 400,
      },
    );
    expect(await post(gateway, { ...same, 'content-type': 'application/json; charset=utf-8' })).toMatchObject(
      {
        status: 200,
      },
    );
  });

  test('a route that documents multipart/form-data takes it from a browser', async () => {
    const gateway = gatewayWith({ host: '127.0.0.1' });
    const form = new FormData();
    form.set('model', 'demo:stt');
    form.set('file', new Blob([new Uint8Array([0x49, 0x44, 0x33])], { type: 'audio/mpeg' }), 'a.mp3');
    const response = await gateway.request('/v1/transcriptions', {
      method: 'POST',
      headers: { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' },
      body: form,
    });
    expect(response.status).toBe(200);
  });

  test('on another bind, Host is not checked but a cross-site browser body must still be JSON', async () => {
    const gateway = gatewayWith({ host: '0.0.0.0' });
    expect(await post(gateway, { ...JSON_TYPE, host: 'gateway.example' })).toMatchObject({ status: 200 });
    expect(
      await post(gateway, {
        host: 'gateway.example',
        origin: 'https://evil.example',
        'content-type': 'text/plain',
      }),
    ).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  test('an origin listed in cors.origins may call it', async () => {
    const gateway = gatewayWith({ host: '127.0.0.1', cors: { origins: ['http://localhost:5173'] } });
    expect(await post(gateway, { ...JSON_TYPE, origin: 'http://localhost:5173' })).toMatchObject({
      status: 200,
    });
    expect(await post(gateway, { ...JSON_TYPE, origin: 'http://localhost.evil:5173' })).toMatchObject({
      status: 403,
    });
  });

  test('with gateway keys the key is the guard: Host and content-type are not checked', async () => {
    const key = 'k'.repeat(16);
    const gateway = gatewayWith({ host: '127.0.0.1', keys: [key] });
    expect(
      await post(gateway, {
        authorization: `Bearer ${key}`,
        host: 'gateway.example',
        'content-type': 'text/plain',
      }),
    ).toMatchObject({ status: 200, code: 'ok' });
  });
});
