import { describe, expect, test } from 'vitest';
import { normalizeResponse, normalizeStream, traceIdFrom } from '../../src/unified/index.js';

const CHAT = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-4.1',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
};

describe('normalizeResponse', () => {
  test('reads Web Headers and an ArrayBuffer body', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(CHAT));
    const output = normalizeResponse({
      format: 'openai.chat',
      headers: new Headers({ 'X-Request-Id': 'req_h' }),
      body: bytes.buffer,
    });
    expect(output).toMatchObject({
      success: true,
      content: 'ok',
      metadata: { provider_request_id: 'req_h' },
    });
  });

  test('prefers Anthropic request-id over x-request-id for the provider request id', () => {
    const body = {
      type: 'message',
      content: [],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 0 },
    };
    const output = normalizeResponse({
      format: 'anthropic.messages',
      headers: { 'x-request-id': 'b', 'request-id': 'a' },
      body,
    });
    expect(output.metadata.provider_request_id).toBe('a');
  });

  test('never throws on null or non-object headers and ignores a provider that is not a string', () => {
    const loose = { format: 'openai.chat', body: CHAT, headers: null, provider: 5 } as unknown as Parameters<
      typeof normalizeResponse
    >[0];
    expect(normalizeResponse(loose)).toMatchObject({ success: true, provider: 'openai' });
    expect(traceIdFrom(null as never)).toMatch(/^[0-9a-f]{32}$/);
  });

  test('ignores a blank trace id and a negative latency', () => {
    const output = normalizeResponse({ format: 'openai.chat', body: CHAT, traceId: '  ', latencyMs: -5 });
    expect(output.metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(output.metadata).not.toHaveProperty('latency_ms');
  });

  test('reports an impossible HTTP status as a VALIDATION_ERROR from system', () => {
    for (const status of [99, 600, 200.5]) {
      expect(normalizeResponse({ format: 'openai.chat', status, body: CHAT })).toMatchObject({
        success: false,
        provider: 'system',
        error: { code: 'VALIDATION_ERROR' },
      });
    }
  });

  test('says in two sentences that a body is not understood and why', () => {
    expect(normalizeResponse({ format: 'openai.chat', body: '' })).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_PROVIDER_RESPONSE',
        message:
          'The openai.chat response is not understood. The body is not JSON: The input holds no JSON value.',
      },
    });
  });

  test('keeps the body bytes of a speech response as base64 audio', () => {
    const output = normalizeResponse({
      format: 'openai.speech',
      headers: { 'content-type': 'audio/mp3' },
      body: new Uint8Array([255, 251, 144, 100]),
    });
    expect(output).toMatchObject({
      success: true,
      files: [{ data: '//uQZA==', media_type: 'audio/mpeg', name: 'speech.mp3' }],
    });
  });

  test('reads a Gemini REST stream given as one JSON array body', () => {
    const chunk = (text: string, finishReason?: string) => ({
      candidates: [
        { content: { role: 'model', parts: [{ text }] }, ...(finishReason ? { finishReason } : {}) },
      ],
    });
    const output = normalizeResponse({
      format: 'google.generate-content',
      body: JSON.stringify([chunk('a'), chunk('b', 'STOP')]),
    });
    expect(output).toMatchObject({ success: true, content: 'ab', metadata: { finish_reason: 'stop' } });
  });
});

describe('normalizeStream', () => {
  test('reports the line of raw stream text that is not JSON', () => {
    const output = normalizeStream({ format: 'openai.chat', events: 'data: {"id":1}\n\ndata: {broken\n\n' });
    expect(output).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
    expect(output.success ? '' : output.error.message).toContain('line 3');
  });

  test('keeps the Anthropic input and cache counts of message_start when message_delta reports them as null', () => {
    const events = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude',
          content: [],
          stop_reason: null,
          usage: {
            input_tokens: 12,
            cache_creation_input_tokens: 5,
            cache_read_input_tokens: 100,
            output_tokens: 1,
          },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: {
          input_tokens: null,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
          output_tokens: 30,
        },
      },
      { type: 'message_stop' },
    ];
    const output = normalizeStream({ format: 'anthropic.messages', events });
    expect(output).toMatchObject({ success: true, usage: { input_tokens: 117, output_tokens: 30 } });
  });
});

describe('error meanings the status hides', () => {
  const codeOf = (
    status: number,
    message: string,
    format: 'openai.chat' | 'anthropic.messages' = 'openai.chat',
  ) => {
    const output = normalizeResponse({ format, status, body: { error: { message, type: 'x' } } });
    return output.success ? 'success' : output.error.code;
  };

  test('wording refines only a VALIDATION_ERROR or PERMISSION_DENIED, never a status that already says more', () => {
    expect(codeOf(400, 'Your credit balance is too low to access the API.')).toBe('INSUFFICIENT_CREDITS');
    expect(codeOf(403, "Your team doesn't have any credits yet.")).toBe('INSUFFICIENT_CREDITS');
    expect(codeOf(400, 'Incorrect API key provided: sk-***')).toBe('AUTHENTICATION_ERROR');
    expect(codeOf(429, 'Your credit balance is too low; slow down.')).toBe('RATE_LIMITED');
    expect(codeOf(500, 'API key not valid.')).toBe('PROVIDER_ERROR');
    expect(codeOf(400, 'The api_key_name parameter is not valid.')).toBe('VALIDATION_ERROR');
  });

  test('an OpenAI-style error without a status is read by its type, else it is a PROVIDER_ERROR', () => {
    const streamed = (error: object) => {
      const output = normalizeStream({ format: 'openai-compatible.chat', events: [{ error }] });
      return output.success ? 'success' : output.error.code;
    };
    expect(streamed({ message: 'bad tool', type: 'invalid_request_error' })).toBe('VALIDATION_ERROR');
    expect(streamed({ message: 'busy', type: 'overloaded_error' })).toBe('PROVIDER_UNAVAILABLE');
    expect(streamed({ message: 'slow', type: 'x', status_code: 429 })).toBe('RATE_LIMITED');
    expect(streamed({ message: 'odd', type: 'never_heard_of_it' })).toBe('PROVIDER_ERROR');
    // A status carried in the error never overrides the response's own error status.
    const refused = normalizeResponse({
      format: 'openai.chat',
      status: 401,
      body: { error: { message: 'no', type: 'invalid_request_error', status_code: 500 } },
    });
    expect(refused.success ? '' : refused.error.code).toBe('AUTHENTICATION_ERROR');
  });
});

describe('parts a stream names by index', () => {
  const chat = (index: unknown) => [
    {
      id: 'c',
      model: 'm',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, id: 'call_1', function: { name: 'lookup', arguments: '{}' } }] },
          finish_reason: null,
        },
      ],
    },
    { id: 'c', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ];
  const messages = (index: unknown) => [
    {
      type: 'message_start',
      message: { id: 'm', model: 'claude', role: 'assistant', content: [], usage: {} },
    },
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index, delta: { type: 'text_delta', text: 'Hi' } },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ];

  test('an index in range is read; a negative, fractional or huge one is refused, not walked or lost', () => {
    expect(normalizeStream({ format: 'openai.chat', events: chat(3) })).toMatchObject({
      success: true,
      metadata: { tool_calls: [{ id: 'call_1', name: 'lookup' }] },
    });
    expect(normalizeStream({ format: 'anthropic.messages', events: messages(2) })).toMatchObject({
      success: true,
      content: 'Hi',
    });
    for (const index of [-1, 1.5, 4_294_967_294, '__proto__']) {
      for (const output of [
        normalizeStream({ format: 'openai.chat', events: chat(index) }),
        normalizeStream({ format: 'anthropic.messages', events: messages(index) }),
      ]) {
        expect(output).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
      }
    }
  });
});
