/**
 * Provider answers for the agent tests, written from each provider's documented wire format: a turn in which
 * the model calls the two tools of the agent (`get_weather` and `convert_units`), and the final answer after
 * the tool results. The replay server serves them; the tests read what the provider received.
 */
import type { ReplayAnswer } from '../helpers/replay-providers.js';

/** The two tools of the agent, as a request declares them. */
export const AGENT_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current temperature of a city in °C.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'convert_units',
      description: 'Convert a temperature between C and F.',
      parameters: {
        type: 'object',
        properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
        required: ['value', 'from', 'to'],
        additionalProperties: false,
      },
    },
  },
] as const;

/** The final answer of every family. */
export const FINAL_TEXT = 'It is 12 °C (53.6 °F) in Oslo.';

/** The arguments the model gives each tool. */
export const WEATHER_ARGS = { city: 'Oslo' };
export const UNITS_ARGS = { value: 12, from: 'C', to: 'F' };

/** A provider family as the tests drive it. */
export interface Family {
  /** Family name in test titles. */
  name: string;
  /** Gateway provider id and model. */
  model: string;
  /** Whether the provider gives tool call ids (Gemini does not; the AI SDK makes them). */
  givesIds: boolean;
  /** An answer with the model calling `get_weather` (and `convert_units` when `parallel`). */
  toolCalls(parallel: boolean): ReplayAnswer;
  /** The final text answer. */
  text(text: string): ReplayAnswer;
  /** A streamed answer calling `get_weather`, its arguments in two pieces. */
  streamedToolCall(): ReplayAnswer;
}

const usage = { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 };

function chatToolCalls(parallel: boolean): ReplayAnswer {
  const calls = [
    {
      id: 'call_weather_1',
      type: 'function',
      function: { name: 'get_weather', arguments: JSON.stringify(WEATHER_ARGS) },
    },
    {
      id: 'call_units_1',
      type: 'function',
      function: { name: 'convert_units', arguments: JSON.stringify(UNITS_ARGS) },
    },
  ];
  return {
    body: {
      id: 'chatcmpl-agent-1',
      object: 'chat.completion',
      created: 1767225601,
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: parallel ? calls : calls.slice(0, 1) },
          finish_reason: 'tool_calls',
        },
      ],
      usage,
    },
  };
}

function chatText(text: string): ReplayAnswer {
  return {
    body: {
      id: 'chatcmpl-agent-2',
      object: 'chat.completion',
      created: 1767225602,
      model: 'gpt-4.1',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    },
  };
}

function chatStreamedToolCall(): ReplayAnswer {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-agent-3',
    object: 'chat.completion.chunk',
    created: 1767225603,
    model: 'gpt-4.1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    events: [
      chunk({ role: 'assistant', content: null }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_weather_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '' },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
      { ...chunk({}), choices: [], usage },
    ],
  };
}

const responsesUsage = { input_tokens: 40, output_tokens: 12, total_tokens: 52 };

function responsesBody(output: unknown[]): Record<string, unknown> {
  return {
    id: 'resp_agent_1',
    object: 'response',
    created_at: 1767225800,
    status: 'completed',
    model: 'gpt-5-mini',
    output,
    parallel_tool_calls: true,
    error: null,
    incomplete_details: null,
    usage: responsesUsage,
  };
}

const responsesCall = (id: string, name: string, args: unknown) => ({
  id: `fc_${id}`,
  type: 'function_call',
  status: 'completed',
  call_id: id,
  name,
  arguments: JSON.stringify(args),
});

function responsesStreamedToolCall(): ReplayAnswer {
  const item = {
    id: 'fc_1',
    type: 'function_call',
    status: 'in_progress',
    call_id: 'call_weather_1',
    name: 'get_weather',
    arguments: '',
  };
  const done = { ...item, status: 'completed', arguments: JSON.stringify(WEATHER_ARGS) };
  return {
    events: [
      {
        type: 'response.created',
        sequence_number: 0,
        response: { ...responsesBody([]), status: 'in_progress' },
      },
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item },
      {
        type: 'response.function_call_arguments.delta',
        sequence_number: 2,
        item_id: 'fc_1',
        output_index: 0,
        delta: '{"city":',
      },
      {
        type: 'response.function_call_arguments.delta',
        sequence_number: 3,
        item_id: 'fc_1',
        output_index: 0,
        delta: '"Oslo"}',
      },
      {
        type: 'response.function_call_arguments.done',
        sequence_number: 4,
        item_id: 'fc_1',
        output_index: 0,
        arguments: done.arguments,
      },
      { type: 'response.output_item.done', sequence_number: 5, output_index: 0, item: done },
      { type: 'response.completed', sequence_number: 6, response: responsesBody([done]) },
    ],
  };
}

const anthropicUsage = { input_tokens: 40, output_tokens: 12 };

function anthropicBody(content: unknown[], stop: string): Record<string, unknown> {
  return {
    id: 'msg_agent_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: anthropicUsage,
  };
}

function anthropicStreamedToolCall(): ReplayAnswer {
  return {
    events: [
      { type: 'message_start', message: { ...anthropicBody([], 'tool_use'), stop_reason: null } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_weather_1', name: 'get_weather', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"city":' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 12 },
      },
      { type: 'message_stop' },
    ],
  };
}

const geminiUsage = { promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 };

function geminiBody(parts: unknown[]): Record<string, unknown> {
  return {
    candidates: [{ content: { parts, role: 'model' }, index: 0, finishReason: 'STOP' }],
    usageMetadata: geminiUsage,
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp_agent_g1',
  };
}

/** The families the tests run over, each with its answers. */
export const FAMILIES: readonly Family[] = [
  {
    name: 'OpenAI chat',
    model: 'openai:gpt-4.1',
    givesIds: true,
    toolCalls: chatToolCalls,
    text: chatText,
    streamedToolCall: chatStreamedToolCall,
  },
  {
    name: 'OpenAI Responses',
    model: 'openai-responses:gpt-5-mini',
    givesIds: true,
    toolCalls: (parallel) => ({
      body: responsesBody([
        responsesCall('call_weather_1', 'get_weather', WEATHER_ARGS),
        ...(parallel ? [responsesCall('call_units_1', 'convert_units', UNITS_ARGS)] : []),
      ]),
    }),
    text: (text) => ({
      body: responsesBody([
        {
          id: 'msg_1',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ]),
    }),
    streamedToolCall: responsesStreamedToolCall,
  },
  {
    name: 'Anthropic',
    model: 'anthropic:claude-sonnet-4-5',
    givesIds: true,
    toolCalls: (parallel) => ({
      body: anthropicBody(
        [
          { type: 'tool_use', id: 'toolu_weather_1', name: 'get_weather', input: WEATHER_ARGS },
          ...(parallel
            ? [{ type: 'tool_use', id: 'toolu_units_1', name: 'convert_units', input: UNITS_ARGS }]
            : []),
        ],
        'tool_use',
      ),
    }),
    text: (text) => ({ body: anthropicBody([{ type: 'text', text }], 'end_turn') }),
    streamedToolCall: anthropicStreamedToolCall,
  },
  {
    name: 'Gemini',
    model: 'google:gemini-2.5-flash',
    givesIds: false,
    toolCalls: (parallel) => ({
      body: geminiBody([
        { functionCall: { name: 'get_weather', args: WEATHER_ARGS } },
        ...(parallel ? [{ functionCall: { name: 'convert_units', args: UNITS_ARGS } }] : []),
      ]),
    }),
    text: (text) => ({ body: geminiBody([{ text }]) }),
    // Gemini sends a function call whole, in one chunk.
    streamedToolCall: () => ({
      events: [geminiBody([{ functionCall: { name: 'get_weather', args: WEATHER_ARGS } }])],
    }),
  },
  {
    name: 'OpenAI-compatible',
    model: 'openrouter:meta/llama',
    givesIds: true,
    toolCalls: chatToolCalls,
    text: chatText,
    streamedToolCall: chatStreamedToolCall,
  },
];
