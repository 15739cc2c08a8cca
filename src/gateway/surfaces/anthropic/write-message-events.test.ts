import { describe, expect, test } from 'vitest';
import type { UnifiedFailure, UnifiedSuccess } from '../../../unified/types.js';
import { toErrorBody } from './to-error-body.js';
import { toMessage } from './to-message.js';
import { createMessageEventWriter } from './write-message-events.js';

function success(metadata: Record<string, unknown> = {}, content = 'Hello!'): UnifiedSuccess {
  return {
    success: true,
    content,
    provider: 'openai',
    usage: { input_tokens: 4025, output_tokens: 12 },
    metadata: {
      trace_id: 'trace-1',
      model: 'gpt-4.1',
      finish_reason: 'stop',
      usage_details: { cached_input_tokens: 3000, cache_creation_input_tokens: 1000 },
      ...metadata,
    },
    images: [],
    files: [],
    videos: [],
  };
}

function failure(code: string): UnifiedFailure {
  return {
    success: false,
    provider: 'anthropic',
    error: { code, message: 'Overloaded.', details: { provider_status: 529 } },
    metadata: { trace_id: 'trace-1' },
  };
}

/** Run the writer over the gateway's events and keep what it sends. */
async function written(events: [string, unknown][]) {
  const sent: { event: string; data: Record<string, unknown> }[] = [];
  const write = createMessageEventWriter(
    async (event, data) => {
      sent.push({ event, data: data as Record<string, unknown> });
    },
    { traceId: 'trace-1', model: 'openai:gpt-4.1' },
  );
  for (const [event, data] of events) await write(event, data);
  return sent;
}

describe('toMessage', () => {
  test('renders text, tool calls, the stop reason and usage with the cache apart from input_tokens', () => {
    const rendered = toMessage(
      success({
        finish_reason: 'tool_calls',
        tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      }),
      'openai:gpt-4.1',
    );
    expect(rendered).toEqual({
      ok: true,
      message: {
        id: 'msg_trace-1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-4.1',
        content: [
          { type: 'text', text: 'Hello!' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: {
          input_tokens: 25,
          output_tokens: 12,
          cache_creation_input_tokens: 1000,
          cache_read_input_tokens: 3000,
        },
      },
    });
  });

  test('puts reasoning first as a thinking block and maps length to max_tokens', () => {
    const rendered = toMessage(success({ reasoning: 'Think.', finish_reason: 'length' }), 'm');
    expect(rendered.ok && rendered.message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Think.',
      signature: '',
    });
    expect(rendered.ok && rendered.message.stop_reason).toBe('max_tokens');
  });

  test('refuses a tool call whose arguments are not a JSON object', () => {
    expect(
      toMessage(
        success({ tool_calls: [{ id: 'c', name: 'f', arguments: '{"a":', arguments_not_json: true }] }),
        'm',
      ),
    ).toMatchObject({ ok: false, problem: { code: 'INVALID_PROVIDER_RESPONSE', details: { tool: 'f' } } });
  });

  test('refuses an answer with media parts, which no Messages block carries', () => {
    const answer = { ...success(), images: [{ data: 'iVBORw0KGgo=', media_type: 'image/png' }] };
    expect(toMessage(answer, 'm')).toMatchObject({
      ok: false,
      problem: { code: 'VALIDATION_ERROR', details: { limitation: 'media_output', media: 1 } },
    });
  });
});

describe('toErrorBody', () => {
  test('gives Anthropic’s type, verdict’s status and code', () => {
    expect(toErrorBody(failure('PROVIDER_UNAVAILABLE'))).toEqual({
      status: 503,
      body: {
        type: 'error',
        error: {
          type: 'overloaded_error',
          message: 'Overloaded.',
          verdict_code: 'PROVIDER_UNAVAILABLE',
          details: { provider_status: 529 },
        },
        request_id: 'trace-1',
      },
    });
    expect(toErrorBody(failure('SOMETHING_ELSE'))).toMatchObject({
      status: 500,
      body: { error: { type: 'api_error' } },
    });
  });
});

describe('createMessageEventWriter', () => {
  test('writes Anthropic’s sequence, each block opened, filled and closed in order', async () => {
    const envelope = success({
      finish_reason: 'tool_calls',
      tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    const sent = await written([
      ['delta', { text: 'Hel' }],
      ['delta', { text: 'lo!' }],
      ['tool_call_start', { id: 'call_1', name: 'get_weather' }],
      ['tool_call_delta', { id: 'call_1', arguments: '{"city":' }],
      ['tool_call_delta', { id: 'call_1', arguments: '"Oslo"}' }],
      ['envelope', envelope],
    ]);
    expect(sent.map(({ event, data }) => [event, data.index ?? null])).toEqual([
      ['message_start', null],
      ['ping', null],
      ['content_block_start', 0],
      ['content_block_delta', 0],
      ['content_block_delta', 0],
      ['content_block_stop', 0],
      ['content_block_start', 1],
      ['content_block_delta', 1],
      ['content_block_delta', 1],
      ['content_block_stop', 1],
      ['message_delta', null],
      ['message_stop', null],
    ]);
    expect(sent[0]?.data).toMatchObject({
      message: { id: 'msg_trace-1', model: 'openai:gpt-4.1', content: [] },
    });
    expect(sent[7]?.data).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '{"city":' } });
    expect(sent[10]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 25,
        output_tokens: 12,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: 3000,
      },
    });
  });

  test('writes a tool call the stream did not show as one whole block, and reasoning as a thinking block', async () => {
    const sent = await written([
      [
        'envelope',
        success({ reasoning: 'Hmm.', tool_calls: [{ id: 'c1', name: 'f', arguments: { a: 1 } }] }, ''),
      ],
    ]);
    expect(sent.map((entry) => entry.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(sent[3]?.data).toMatchObject({ delta: { type: 'thinking_delta', thinking: 'Hmm.' } });
    expect(sent[6]?.data).toMatchObject({ index: 1, delta: { partial_json: '{"a":1}' } });
  });

  test('sends a late piece of an earlier tool call to that call’s block', async () => {
    const sent = await written([
      ['tool_call_start', { id: 'a', name: 'f' }],
      ['tool_call_delta', { id: 'a', arguments: '{"x":' }],
      ['tool_call_start', { id: 'b', name: 'g' }],
      ['tool_call_delta', { id: 'a', arguments: '1}' }],
    ]);
    expect(sent.at(-1)).toEqual({
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '1}' },
      },
    });
  });

  test('ends a stream whose answer holds media with an error event', async () => {
    const answer = { ...success(), files: [{ data: 'AAAA', media_type: 'image/png' }] };
    const sent = await written([['envelope', answer]]);
    expect(sent.at(-1)).toMatchObject({
      event: 'error',
      data: { error: { type: 'invalid_request_error', verdict_code: 'VALIDATION_ERROR' } },
    });
  });

  test('ends a failed stream with an error event and nothing after it', async () => {
    const sent = await written([
      ['delta', { text: 'Hel' }],
      ['envelope', failure('PROVIDER_UNAVAILABLE')],
      ['delta', { text: 'late' }],
    ]);
    expect(sent.map((entry) => entry.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(sent.at(-1)?.data).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});
