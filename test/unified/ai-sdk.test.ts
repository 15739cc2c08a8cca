import {
  APICallError,
  experimental_generateSpeech,
  experimental_transcribe,
  generateImage,
  generateText,
  type ImageModel,
  NoImageGeneratedError,
  NoSpeechGeneratedError,
  NoTranscriptGeneratedError,
  RetryError,
  streamText,
  type TranscriptionModel,
} from 'ai';
import { MockImageModelV4, MockLanguageModelV4, MockSpeechModelV4, MockTranscriptionModelV4 } from 'ai/test';
import { describe, expect, test } from 'vitest';
import {
  captureAiSdkCall,
  fromAiSdkError,
  fromGenerateImage,
  fromGenerateSpeech,
  fromGenerateText,
  fromStreamText,
  fromTranscription,
} from '../../src/unified/ai-sdk.js';
import { type UnifiedOutput, validateUnifiedOutput } from '../../src/unified/index.js';
import { validateWithAjv } from './unified-schema.js';

/** ai's mock classes declare optional members as `| undefined`, which `exactOptionalPropertyTypes` rejects. */
function asModel<M>(model: unknown): M {
  return model as M;
}

const RESPONSE = {
  id: 'resp-1',
  modelId: 'mock-model-1',
  timestamp: new Date(0),
  headers: { 'x-request-id': 'req_mock' },
};

function textModel(
  overrides: { finish?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error'; text?: string } = {},
) {
  return new MockLanguageModelV4({
    provider: 'anthropic.messages',
    doGenerate: async () => ({
      content: [
        { type: 'text', text: overrides.text ?? 'Hello from the mock.' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      ],
      finishReason: { unified: overrides.finish ?? 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: { total: 1100, noCache: 100, cacheRead: 900, cacheWrite: 100 },
        outputTokens: { total: 60, text: 40, reasoning: 20 },
      },
      providerMetadata: { anthropic: { cacheCreationInputTokens: 100 } },
      response: RESPONSE,
      warnings: [],
    }),
  });
}

function expectValid(output: UnifiedOutput): void {
  expect(validateUnifiedOutput(output).violations).toEqual([]);
  expect(validateWithAjv(output), JSON.stringify(validateWithAjv.errors)).toBe(true);
}

function apiError(
  statusCode: number | undefined,
  data: unknown,
  url = 'https://api.openai.com/v1/chat/completions',
) {
  return new APICallError({
    message: 'provider said no',
    url,
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    responseHeaders: { 'x-request-id': 'req_err' },
    ...(data === undefined ? {} : { responseBody: JSON.stringify(data), data }),
    isRetryable: statusCode === 429 || (statusCode ?? 500) >= 500,
  });
}

describe('fromGenerateText', () => {
  test('turns a generateText result into a success with usage, files and the provider request id', async () => {
    const result = await generateText({ model: textModel(), prompt: 'Hi' });
    const output = fromGenerateText(result, { traceId: 'trace-ai' });
    expectValid(output);
    expect(output).toMatchObject({
      success: true,
      content: 'Hello from the mock.',
      provider: 'anthropic',
      usage: { input_tokens: 1100, output_tokens: 60 },
      images: [{ data: 'iVBORw0KGgo=', media_type: 'image/png' }],
      metadata: {
        trace_id: 'trace-ai',
        model: 'mock-model-1',
        provider_request_id: 'req_mock',
        finish_reason: 'stop',
        usage_reported: true,
        usage_details: { cached_input_tokens: 900, cache_creation_input_tokens: 100, reasoning_tokens: 20 },
      },
    });
  });

  test('turns a content-filter finish into CONTENT_FILTERED and an error finish into PROVIDER_ERROR', async () => {
    const filtered = fromGenerateText(
      await generateText({ model: textModel({ finish: 'content-filter', text: '' }), prompt: 'x' }),
    );
    expect(filtered).toMatchObject({
      success: false,
      error: { code: 'CONTENT_FILTERED' },
      metadata: { finish_reason: 'content_filter' },
    });
    expectValid(filtered);
    const errored = fromGenerateText(
      await generateText({ model: textModel({ finish: 'error' }), prompt: 'x' }),
    );
    expect(errored).toMatchObject({ success: false, error: { code: 'PROVIDER_ERROR' } });
  });

  test('maps length and tool-calls finishes', async () => {
    const cut = fromGenerateText(await generateText({ model: textModel({ finish: 'length' }), prompt: 'x' }));
    expect(cut.metadata.finish_reason).toBe('length');
    const tools = fromGenerateText(
      await generateText({ model: textModel({ finish: 'tool-calls' }), prompt: 'x' }),
    );
    expect(tools).toMatchObject({ success: true, metadata: { finish_reason: 'tool_calls' } });
  });

  test('marks usage as unreported when the model gives no counts', () => {
    const output = fromGenerateText(
      { text: 'ok', finishReason: 'stop', usage: { inputTokens: undefined, outputTokens: undefined } },
      { provider: 'openai' },
    );
    expect(output).toMatchObject({
      usage: { input_tokens: 0, output_tokens: 0 },
      metadata: { usage_reported: false },
      provider: 'openai',
    });
  });

  test('answers parts that make no valid envelope as INVALID_PROVIDER_RESPONSE, unless told not to check', () => {
    const result = {
      text: '',
      finishReason: 'stop',
      files: [{ base64: 'not base64!', mediaType: 'image/png' }],
    } as const;
    expect(fromGenerateText(result, { provider: 'openai' })).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { violations: [{ path: '/images/0/data' }] } },
    });
    const unchecked = fromGenerateText(result, { provider: 'openai', validate: false });
    expect(unchecked).toMatchObject({ success: true, images: [{ data: 'not base64!' }] });
    expect(validateUnifiedOutput(unchecked).valid).toBe(false);
  });
});

describe('fromGenerateImage', () => {
  test('puts generated images in images with their usage', async () => {
    const model = new MockImageModelV4({
      provider: 'openai.image',
      modelId: 'gpt-image-1',
      maxImagesPerCall: 2,
      doGenerate: async () => ({
        images: ['iVBORw0KGgo=', 'iVBORw0KGgp='],
        warnings: [],
        usage: { inputTokens: 12, outputTokens: 4000, totalTokens: 4012 },
        providerMetadata: { openai: { images: [] } },
        response: { timestamp: new Date(0), modelId: 'gpt-image-1', headers: { 'x-request-id': 'req_img' } },
      }),
    });
    const output = fromGenerateImage(
      await generateImage({ model: asModel<ImageModel>(model), prompt: 'a cat', n: 2 }),
      {
        traceId: 't',
      },
    );
    expectValid(output);
    expect(output).toMatchObject({
      success: true,
      provider: 'openai',
      content: 'Generated 2 images.',
      usage: { input_tokens: 12, output_tokens: 4000 },
      metadata: { model: 'gpt-image-1', provider_request_id: 'req_img' },
    });
    expect(output.success && output.images.map((image) => image.media_type)).toEqual([
      'image/png',
      'image/png',
    ]);
  });
});

describe('fromGenerateSpeech', () => {
  test('puts the audio in files with base64 data', async () => {
    const audio = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00]);
    const model = new MockSpeechModelV4({
      provider: 'openai.speech',
      modelId: 'tts-1',
      doGenerate: async () => ({
        audio,
        warnings: [],
        response: { timestamp: new Date(0), modelId: 'tts-1', headers: {} },
      }),
    });
    const output = fromGenerateSpeech(await experimental_generateSpeech({ model, text: 'hello' }), {
      provider: 'openai',
    });
    expectValid(output);
    expect(output).toMatchObject({
      success: true,
      images: [],
      videos: [],
      metadata: { usage_reported: false, model: 'tts-1' },
    });
    expect(output.success && output.files[0]).toMatchObject({
      data: 'SUQzBAAA',
      media_type: 'audio/mpeg',
      name: 'speech.mp3',
    });
  });
});

describe('fromTranscription', () => {
  test('makes the transcript the content', async () => {
    const model = new MockTranscriptionModelV4({
      provider: 'openai.transcription',
      modelId: 'whisper-1',
      doGenerate: async () => ({
        text: 'Hello there.',
        segments: [{ text: 'Hello there.', startSecond: 0, endSecond: 1.2 }],
        language: 'en',
        durationInSeconds: 1.2,
        warnings: [],
        response: { timestamp: new Date(0), modelId: 'whisper-1', headers: { 'x-request-id': 'req_stt' } },
      }),
    });
    const output = fromTranscription(
      await experimental_transcribe({
        model: asModel<TranscriptionModel>(model),
        audio: new Uint8Array([1, 2, 3]),
      }),
      { provider: 'openai' },
    );
    expectValid(output);
    expect(output).toMatchObject({
      success: true,
      content: 'Hello there.',
      metadata: { language: 'en', audio_duration_s: 1.2, provider_request_id: 'req_stt' },
    });
  });
});

describe('fromAiSdkError', () => {
  test.each([
    [400, { error: { message: 'bad', type: 'invalid_request_error', code: null } }, 'VALIDATION_ERROR'],
    [
      400,
      { error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } },
      'CONTEXT_LENGTH_EXCEEDED',
    ],
    [401, undefined, 'AUTHENTICATION_ERROR'],
    [
      429,
      { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } },
      'INSUFFICIENT_CREDITS',
    ],
    [429, { error: { message: 'slow', type: 'requests', code: 'rate_limit_exceeded' } }, 'RATE_LIMITED'],
    [500, undefined, 'PROVIDER_ERROR'],
    [503, undefined, 'PROVIDER_UNAVAILABLE'],
    [
      529,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      'PROVIDER_UNAVAILABLE',
    ],
  ] as const)('APICallError %i is %s', (status, data, code) => {
    const output = fromAiSdkError(apiError(status, data), { traceId: 't' });
    expectValid(output);
    expect(output).toMatchObject({
      provider: 'openai',
      error: { code, details: { http_status: status, is_retryable: status === 429 || status >= 500 } },
      metadata: { trace_id: 't', provider_request_id: 'req_err' },
    });
  });

  test('keeps the URL of a failed call without its query string, which may hold a key', () => {
    const output = fromAiSdkError(
      apiError(
        400,
        undefined,
        'https://generativelanguage.googleapis.com/v1beta/models/x:generateContent?key=SECRET',
      ),
    );
    expect(output).toMatchObject({
      provider: 'google',
      error: {
        details: { url: 'https://generativelanguage.googleapis.com/v1beta/models/x:generateContent' },
      },
    });
    expect(JSON.stringify(output)).not.toContain('SECRET');
  });

  test('an APICallError without a status (network failure) is PROVIDER_UNAVAILABLE', () => {
    expect(
      fromAiSdkError(apiError(undefined, undefined, 'https://api.anthropic.com/v1/messages')),
    ).toMatchObject({
      provider: 'anthropic',
      error: { code: 'PROVIDER_UNAVAILABLE' },
    });
  });

  test('the "nothing generated" errors are INVALID_PROVIDER_RESPONSE', () => {
    for (const error of [
      new NoImageGeneratedError({ responses: [] }),
      new NoSpeechGeneratedError({ responses: [] }),
      new NoTranscriptGeneratedError({ responses: [] }),
    ]) {
      const output = fromAiSdkError(error, { provider: 'openai' });
      expect(output).toMatchObject({
        provider: 'openai',
        error: { code: 'INVALID_PROVIDER_RESPONSE', details: { ai_sdk_error: error.name } },
      });
      expectValid(output);
    }
  });

  test('a RetryError is read through its last error', () => {
    const last = apiError(429, { error: { message: 'slow', type: 'requests', code: 'rate_limit_exceeded' } });
    const retry = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [last, last, last],
    });
    expect(fromAiSdkError(retry)).toMatchObject({
      error: { code: 'RATE_LIMITED', details: { attempts: 3 } },
    });
  });

  test('anything else is INTERNAL_ERROR from system', () => {
    expect(fromAiSdkError(new TypeError('x is undefined'))).toMatchObject({
      provider: 'system',
      error: { code: 'INTERNAL_ERROR', message: 'x is undefined' },
    });
    expect(fromAiSdkError('a string')).toMatchObject({
      error: { code: 'INTERNAL_ERROR', message: 'a string' },
    });
  });
});

describe('captureAiSdkCall', () => {
  test('returns the converted result with the measured latency', async () => {
    const output = await captureAiSdkCall(
      () => generateText({ model: textModel(), prompt: 'Hi' }),
      fromGenerateText,
      { traceId: 'tc' },
    );
    expect(output).toMatchObject({ success: true, metadata: { trace_id: 'tc' } });
    expect(typeof output.metadata.latency_ms).toBe('number');
  });

  test('returns a failure envelope when generateText throws an APICallError, never rejects', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw apiError(401, {
          error: {
            message: 'Incorrect API key provided',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      },
    });
    const output = await captureAiSdkCall(
      () => generateText({ model, prompt: 'Hi', maxRetries: 0 }),
      fromGenerateText,
      { traceId: 'tf' },
    );
    expect(output).toMatchObject({
      success: false,
      error: { code: 'AUTHENTICATION_ERROR' },
      metadata: { trace_id: 'tf' },
    });
    expectValid(output);
  });
});

function streamingModel(parts: unknown[]) {
  return new MockLanguageModelV4({
    provider: 'openai.chat',
    modelId: 'gpt-mock',
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }) as never,
    }),
  });
}

const STREAM_PARTS = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'resp-s', modelId: 'gpt-mock', timestamp: new Date(0) },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hel' },
  { type: 'text-delta', id: 't', delta: 'lo' },
  { type: 'text-end', id: 't' },
  {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 2, text: 2, reasoning: 0 },
    },
  },
];

describe('fromStreamText', () => {
  test('consumes a streamText result into the envelope generateText would give, relaying each delta', async () => {
    const deltas: string[] = [];
    const model = streamingModel(STREAM_PARTS);
    const output = await fromStreamText(
      streamText({ model, prompt: 'Hi' }),
      { model, traceId: 'ts' },
      (text) => {
        deltas.push(text);
      },
    );
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(output).toMatchObject({
      success: true,
      content: 'Hello',
      provider: 'openai',
      usage: { input_tokens: 5, output_tokens: 2 },
      metadata: { trace_id: 'ts', model: 'gpt-mock', finish_reason: 'stop' },
    });
    expectValid(output);
  });

  test('an error part in the middle of the stream gives a failure, never a half-success', async () => {
    const model = streamingModel([
      ...STREAM_PARTS.slice(0, 4),
      { type: 'error', error: apiError(500, { error: { message: 'boom', type: 'server_error' } }) },
    ]);
    const output = await fromStreamText(
      streamText({ model, prompt: 'Hi', maxRetries: 0, onError: () => {} }),
      { model },
    );
    expect(output).toMatchObject({ success: false, provider: 'openai', error: { code: 'PROVIDER_ERROR' } });
    expectValid(output);
  });

  test('fromGenerateText refuses a streamText result with a clear error instead of a TypeError', () => {
    const model = streamingModel(STREAM_PARTS);
    const result = streamText({ model, prompt: 'Hi' });
    expect(() => fromGenerateText(result as never)).toThrow(/use fromStreamText/);
  });

  test('captureAiSdkCall consumes a streamText result even when given fromGenerateText', async () => {
    const model = streamingModel(STREAM_PARTS);
    const output = await captureAiSdkCall(
      () => streamText({ model, prompt: 'Hi' }),
      fromGenerateText as never,
      {
        model,
      },
    );
    expect(output).toMatchObject({ success: true, content: 'Hello', provider: 'openai' });
    expect(typeof output.metadata.latency_ms).toBe('number');
  });
});

describe('provider of a model', () => {
  test('the same model names the same provider on success and on failure', async () => {
    const ok = new MockLanguageModelV4({
      provider: 'acme.chat',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'fine' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      }),
    });
    const failing = new MockLanguageModelV4({
      provider: 'acme.chat',
      doGenerate: async () => {
        throw apiError(500, { error: { message: 'boom' } });
      },
    });
    const success = await captureAiSdkCall(
      () => generateText({ model: ok, prompt: 'Hi' }),
      fromGenerateText,
      {
        model: ok,
      },
    );
    const failure = await captureAiSdkCall(
      () => generateText({ model: failing, prompt: 'Hi', maxRetries: 0 }),
      fromGenerateText,
      { model: failing },
    );
    expect(success.provider).toBe('acme');
    expect(failure.provider).toBe('acme');
    expect(success.metadata.model).toBe('mock-model-id');
  });
});
