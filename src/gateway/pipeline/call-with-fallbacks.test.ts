import { APICallError } from 'ai';
import { describe, expect, test } from 'vitest';
import type { ProviderModels } from '../providers/providers.js';
import {
  type AttemptInput,
  callWithFallbacks,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  type Target,
  traceHeaders,
} from './call-with-fallbacks.js';

const NOW = Date.parse('2026-12-01T20:00:00Z');

function failed(status: number, headers: Record<string, string> = {}, body: unknown = {}) {
  return new APICallError({
    message: `HTTP ${status}`,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
  });
}

function target(id: string, modelId = 'm'): Target {
  const provider: ProviderModels = { id, type: 'openai', baseURL: undefined };
  return { provider, modelId, label: `${id}:${modelId}`, model: { provider: `${id}.chat`, modelId } };
}

const RELIABILITY = { retries: 2, retryBaseMs: 1, maxRetryAfterMs: 5_000, timeoutMs: 10_000 };

/** Runs callWithFallbacks with a scripted call: each attempt takes the next outcome (an error is thrown). */
async function run(
  outcomes: unknown[],
  targets: Target[] = [target('openai')],
  reliability: Partial<typeof RELIABILITY> = {},
) {
  const seen: AttemptInput[] = [];
  const result = await callWithFallbacks({
    targets,
    traceId: 'trace-unit',
    reliability: { ...RELIABILITY, ...reliability },
    clientSignal: undefined,
    call: async (input) => {
      seen.push(input);
      const next = outcomes.shift();
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { result, seen };
}

describe('retryAfterMs', () => {
  test('reads retry-after-ms first, then retry-after in seconds', () => {
    expect(retryAfterMs(failed(429, { 'retry-after-ms': '1500', 'retry-after': '9' }), NOW)).toBe(1500);
    expect(retryAfterMs(failed(429, { 'Retry-After': '7' }), NOW)).toBe(7000);
    expect(retryAfterMs(failed(429, { 'retry-after': '0' }), NOW)).toBe(0);
  });

  test('reads an HTTP date as the time left until it', () => {
    const in30s = new Date(NOW + 30_000).toUTCString();
    expect(retryAfterMs(failed(503, { 'retry-after': in30s }), NOW)).toBe(30_000);
  });

  test('a wait longer than a day, in seconds, milliseconds or as a far date, is taken as a day', () => {
    const day = MAX_RETRY_AFTER_MS;
    expect(day).toBe(86_400_000);
    expect(retryAfterMs(failed(429, { 'retry-after': '99999999999999999999' }), NOW)).toBe(day);
    expect(retryAfterMs(failed(429, { 'retry-after-ms': '1e30' }), NOW)).toBe(day);
    expect(retryAfterMs(failed(503, { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }), NOW)).toBe(day);
    expect(retryAfterMs(failed(429, { 'retry-after': '86399' }), NOW)).toBe(86_399_000);
  });

  test('a date in the past asks for no wait at all', () => {
    const before = new Date(NOW - 60_000).toUTCString();
    expect(retryAfterMs(failed(503, { 'retry-after': before }), NOW)).toBe(0);
  });

  test('is undefined without headers or for a value that is neither seconds nor a date', () => {
    expect(retryAfterMs(failed(429), NOW)).toBeUndefined();
    expect(retryAfterMs(failed(429, { 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(retryAfterMs(failed(429, { 'retry-after': '' }), NOW)).toBeUndefined();
    expect(retryAfterMs(new Error('no headers'), NOW)).toBeUndefined();
    expect(retryAfterMs(null, NOW)).toBeUndefined();
  });
});

describe('traceHeaders', () => {
  test('always sends x-trace-id, and a traceparent for a W3C trace id', () => {
    expect(traceHeaders('my-trace')).toEqual({ 'x-trace-id': 'my-trace' });
    const w3c = 'a'.repeat(32);
    expect(traceHeaders(w3c).traceparent).toMatch(new RegExp(`^00-${w3c}-[0-9a-f]{16}-01$`));
  });
});

describe('callWithFallbacks', () => {
  test('retries a retryable failure at the same target and counts every attempt', async () => {
    const { result, seen } = await run([failed(500), failed(503), 'answer']);
    expect(result.result?.value).toBe('answer');
    expect(result.attempts).toBe(3);
    expect(seen.map((input) => input.target.label)).toEqual(['openai:m', 'openai:m', 'openai:m']);
    expect(seen[0]?.adapter).toMatchObject({ provider: 'openai', traceId: 'trace-unit' });
    expect(seen[0]?.headers['x-trace-id']).toBe('trace-unit');
  });

  test('falls back to the next target and names the one that failed with its code', async () => {
    const { result } = await run([failed(401), 'second'], [target('openai'), target('backup')]);
    expect(result.result?.target.label).toBe('backup:m');
    expect(result.fallbackFrom).toEqual([{ target: 'openai:m', code: 'AUTHENTICATION_ERROR' }]);
  });

  test('does not fall back on a failure that is the request’s own', async () => {
    const { result, seen } = await run([failed(400)], [target('openai'), target('backup')]);
    expect(result.failure).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(seen).toHaveLength(1);
  });

  test('gives up at once when retry-after asks for more than the longest wait honoured', async () => {
    const { result, seen } = await run([failed(429, { 'retry-after': '30' })], [target('openai')], {
      maxRetryAfterMs: 1_000,
    });
    expect(seen).toHaveLength(1);
    expect(result.failure).toMatchObject({ error: { code: 'RATE_LIMITED', details: { retry_after_s: 30 } } });
  });

  test("a 503's retry-after reaches the failure in whole seconds once the retries gave up", async () => {
    const { result, seen } = await run(
      [failed(503, { 'retry-after-ms': '1' }), failed(503, { 'retry-after-ms': '2500' })],
      [target('openai')],
      { retries: 1 },
    );
    expect(seen).toHaveLength(2);
    expect(result.failure).toMatchObject({
      error: { code: 'PROVIDER_UNAVAILABLE', details: { retry_after_s: 3 } },
    });
  });

  test('a failure that is not 429 or 503 carries no retry-after', async () => {
    const { result } = await run([failed(401, { 'retry-after': '5' })]);
    expect(result.failure).toMatchObject({ error: { code: 'AUTHENTICATION_ERROR' } });
    expect(JSON.stringify(result.failure)).not.toContain('retry_after_s');
  });

  test("a target's model selects the parsers of its errors", async () => {
    const billing = {
      error: {
        code: 403,
        message: 'Billing is disabled.',
        status: 'PERMISSION_DENIED',
        details: [{ reason: 'BILLING_DISABLED' }],
      },
    };
    const google: Target = { ...target('google'), model: { provider: 'google.generative-ai', modelId: 'm' } };
    const { result } = await run([failed(403, {}, billing)], [google], { retries: 0 });
    expect(result.failure).toMatchObject({ provider: 'google', error: { code: 'INSUFFICIENT_CREDITS' } });
  });

  test('the deadline ends the call with PROVIDER_TIMEOUT', async () => {
    const result = await callWithFallbacks({
      targets: [target('openai')],
      traceId: 'trace-unit',
      reliability: { ...RELIABILITY, timeoutMs: 1 },
      clientSignal: undefined,
      call: (input) =>
        new Promise((_, reject) => input.signal.addEventListener('abort', () => reject(input.signal.reason))),
    });
    expect(result.timedOut()).toBe(true);
    expect(result.failure).toMatchObject({ provider: 'openai', error: { code: 'PROVIDER_TIMEOUT' } });
  });

  test('a client that went away ends the call with REQUEST_TIMEOUT from system', async () => {
    const client = new AbortController();
    client.abort();
    const result = await callWithFallbacks({
      targets: [target('openai')],
      traceId: 'trace-unit',
      reliability: RELIABILITY,
      clientSignal: client.signal,
      call: async () => 'never',
    });
    expect(result.attempts).toBe(0);
    expect(result.failure).toMatchObject({ provider: 'system', error: { code: 'REQUEST_TIMEOUT' } });
  });
});
