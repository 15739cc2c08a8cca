import { describe, expect, test } from 'vitest';
import {
  createUnifiedFailure,
  createUnifiedSuccess,
  fromHttpResponse,
  normalizeResponse,
  toHttpResponse,
  type UnifiedOutput,
} from '../../src/unified/index.js';

const success = createUnifiedSuccess({
  content: 'A cat',
  provider: 'openai',
  usage: { input_tokens: 5, output_tokens: 1 },
  metadata: { trace_id: 'trace-http', model: 'gpt-image-1' },
  images: [{ data: 'iVBORw0KGgo=', media_type: 'image/png' }],
});
const failure = createUnifiedFailure({
  code: 'RATE_LIMITED',
  message: 'Slow down.',
  provider: 'anthropic',
  metadata: { trace_id: 'trace-429' },
});

describe('toHttpResponse', () => {
  test('serves a success with 200, JSON and the trace id header', async () => {
    const response = toHttpResponse(success);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-trace-id')).toBe('trace-http');
    expect(await response.json()).toEqual(success);
  });

  test('serves a failure with the status of its code', () => {
    expect(toHttpResponse(failure).status).toBe(429);
  });

  test('keeps extra headers but not a conflicting trace id', () => {
    const response = toHttpResponse(success, {
      headers: { 'cache-control': 'no-store', 'x-trace-id': 'other' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-trace-id')).toBe('trace-http');
  });

  test('replaces an invalid envelope with an INTERNAL_ERROR failure served with 500', async () => {
    const broken = { ...success, usage: { input_tokens: -1, output_tokens: 0 } } as UnifiedOutput;
    const response = toHttpResponse(broken);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'INTERNAL_ERROR' },
      metadata: { trace_id: 'trace-http' },
    });
    expect(body.error.details.violations[0].code).toBe('usage_tokens_invalid');
  });
});

describe('fromHttpResponse', () => {
  test('round-trips a success and a failure through toHttpResponse', async () => {
    expect(await fromHttpResponse(toHttpResponse(success))).toEqual(success);
    expect(await fromHttpResponse(toHttpResponse(failure))).toEqual(failure);
  });

  test('round-trips every normalized envelope', async () => {
    const output = normalizeResponse({
      format: 'anthropic.messages',
      status: 529,
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    const response = toHttpResponse(output);
    expect(response.status).toBe(503);
    expect(await fromHttpResponse(response)).toEqual(output);
  });

  test('turns a body that is not JSON into INVALID_PROVIDER_RESPONSE with the trace id header', async () => {
    const output = await fromHttpResponse(
      new Response('<html>oops</html>', { status: 502, headers: { 'x-trace-id': 'trace-html' } }),
    );
    expect(output).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { http_status: 502 } },
      metadata: { trace_id: 'trace-html' },
    });
  });

  test('turns an envelope that names a member twice into INVALID_PROVIDER_RESPONSE', async () => {
    const text = JSON.stringify(success).replace('"success":true', '"success":true,"success":false');
    const output = await fromHttpResponse(new Response(text, { status: 200 }));
    expect(output).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', message: 'The response body names a member twice.' },
    });
  });

  test('turns JSON that is not an envelope into INVALID_PROVIDER_RESPONSE with the violations', async () => {
    const output = await fromHttpResponse(Response.json({ ok: true }));
    expect(output.success).toBe(false);
    if (!output.success) {
      expect(output.error.code).toBe('INVALID_PROVIDER_RESPONSE');
      expect(output.error.details.violations).toContainEqual(
        expect.objectContaining({ code: 'success_not_boolean' }),
      );
      expect(output.metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  test('turns an envelope whose status is incoherent into INVALID_PROVIDER_RESPONSE', async () => {
    const output = await fromHttpResponse(Response.json(failure, { status: 200 }));
    expect(output).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { expected_status: 429 } },
      metadata: { trace_id: 'trace-429' },
    });
  });

  test('never rejects when the body cannot be read', async () => {
    const response = new Response(
      new ReadableStream({
        start(controller) {
          controller.error(new Error('socket hang up'));
        },
      }),
    );
    const output = await fromHttpResponse(response);
    expect(output).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
  });
});
