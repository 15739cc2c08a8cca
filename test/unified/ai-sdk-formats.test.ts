import { APICallError, StreamProviderError } from 'ai';
import { describe, expect, test } from 'vitest';
import { AiSdkStreamFailure, fromAiSdkError } from '../../src/unified/ai-sdk.js';
import {
  formatOfAiSdkProvider,
  formatOfProvider,
  normalizeResponse,
  normalizeStream,
} from '../../src/unified/normalize-response.js';

function apiError(statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  return new APICallError({
    message: 'provider said no',
    url: 'https://example.test/v1',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
  });
}

describe('formatOfAiSdkProvider', () => {
  test.each([
    ['openai.chat', 'openai.chat'],
    ['openai.responses', 'openai.responses'],
    ['openai.image', 'openai.images'],
    ['openai.speech', 'openai.speech'],
    ['openai.transcription', 'openai.transcription'],
    ['anthropic.messages', 'anthropic.messages'],
    ['google.generative-ai', 'google.generate-content'],
    ['google.generative-ai.speech', 'google.generate-content'],
    ['replicate', 'replicate.prediction'],
    ['replicate.video', 'replicate.prediction'],
    ['openrouter.chat', 'openrouter.chat'],
    ['amazon-bedrock', 'bedrock.converse'],
    ['groq.chat', 'openai-compatible.chat'],
    ['azure-openai.responses', 'openai.responses'],
    ['together.image', 'openai.images'],
  ])('%s speaks %s', (id, format) => {
    expect(formatOfAiSdkProvider(id)).toBe(format);
  });

  test('an id no entry claims has no format', () => {
    for (const id of ['acme', 'acme.embedding', '', 42, undefined])
      expect(formatOfAiSdkProvider(id)).toBeUndefined();
  });

  test("a provider id names its own API's format", () => {
    expect(formatOfProvider('anthropic')).toBe('anthropic.messages');
    expect(formatOfProvider('google')).toBe('google.generate-content');
    expect(formatOfProvider('groq')).toBeUndefined();
  });
});

describe('fromAiSdkError reads errors by the format the model speaks', () => {
  const billing = {
    error: {
      code: 403,
      message: 'This API method requires billing to be enabled.',
      status: 'PERMISSION_DENIED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'BILLING_DISABLED' }],
    },
  };

  test('a Gemini billing-disabled 403 is INSUFFICIENT_CREDITS, as normalizeResponse says', () => {
    const expected = normalizeResponse({
      format: 'google.generate-content',
      status: 403,
      body: JSON.stringify(billing),
    });
    const output = fromAiSdkError(apiError(403, billing), {
      model: { provider: 'google.generative-ai', modelId: 'gemini-2.5-flash' },
    });
    expect(output).toMatchObject({ provider: 'google', error: { code: 'INSUFFICIENT_CREDITS' } });
    expect(output.error.code).toBe(expected.success ? 'success' : expected.error.code);
  });

  test("an Anthropic stream error event is read by Anthropic's types and wording", () => {
    const event = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the API.' },
    };
    const error = new StreamProviderError({
      message: event.error.message,
      type: event.error.type,
      statusCode: 400,
      data: event.error,
    });
    const output = fromAiSdkError(error, { model: { provider: 'anthropic.messages' } });
    expect(output.error.code).toBe('INSUFFICIENT_CREDITS');
    const streamed = normalizeStream({ format: 'anthropic.messages', events: [event] });
    expect(streamed.success ? '' : streamed.error.code).toBe('INSUFFICIENT_CREDITS');
  });

  test("a stream failure's raw event wins over the SDK's parse of it (the status_code beside the error)", () => {
    const event = { error: { message: 'Rate limit reached.', type: 'tokens' }, status_code: 429 };
    const parsed = new StreamProviderError({
      message: 'Rate limit reached.',
      type: 'tokens',
      data: event.error,
    });
    const model = { provider: 'groq.chat' };
    expect(fromAiSdkError(parsed, { model }).error.code).toBe('PROVIDER_ERROR');
    expect(fromAiSdkError(new AiSdkStreamFailure(parsed, event), { model })).toMatchObject({
      provider: 'groq',
      error: { code: 'RATE_LIMITED', message: 'Rate limit reached.' },
    });
  });

  test("an OpenAI-shaped body of an unclaimed provider is read by OpenAI's table, any other body by status", () => {
    const quota = { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } };
    expect(fromAiSdkError(apiError(429, quota), { provider: 'acme' }).error.code).toBe(
      'INSUFFICIENT_CREDITS',
    );
    const other = { detail: 'insufficient_quota' };
    expect(fromAiSdkError(apiError(429, other), { provider: 'acme' }).error.code).toBe('RATE_LIMITED');
  });

  test('a 2xx body the SDK refused is read by the format: a failed Replicate prediction is PROVIDER_ERROR', () => {
    const prediction = { id: 'p', status: 'failed', error: 'CUDA out of memory', output: null };
    const refused = Object.assign(new Error('Replicate image generation failed'), {
      name: 'AI_InvalidResponseDataError',
      data: prediction,
    });
    expect(fromAiSdkError(refused, { model: { provider: 'replicate' } }).error.code).toBe('PROVIDER_ERROR');
    const unreadable = apiError(200, { data: [{}] });
    expect(fromAiSdkError(unreadable, { model: { provider: 'openai.image' } }).error.code).toBe(
      'INVALID_PROVIDER_RESPONSE',
    );
  });
});
