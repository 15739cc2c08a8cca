import type { UnifiedFormat } from '../../src/unified/index.js';
import { converseEventStream, invokeEventStream } from './encode-event-stream.js';

/** What the shared case table needs from one format: a success, an error body, and streams when it streams. */
export interface FormatSample {
  /** A successful body (parsed JSON, or bytes for speech). */
  success: unknown;
  /** Response headers that go with the success (speech needs its content type). */
  successHeaders?: Record<string, string>;
  /** The header the provider's own request id arrives in. */
  requestIdHeader: string;
  /** An error body carrying only a message, so that the HTTP status decides the code. */
  errorBody(message: string): unknown;
  /** Stream events that fold into a success, when the format streams. */
  stream?: {
    /** A complete stream. */
    events: unknown[];
    /** The equivalent non-streaming body. */
    equivalent: unknown;
    /** A stream broken by an error event after some output. */
    withError: unknown[];
    /** A stream that stops before its end. */
    truncated: unknown[];
    /** The same complete stream as it is captured raw: SSE text, or bytes of a binary framing (Bedrock). */
    sse: string | Uint8Array;
  };
}

function sseOf(events: unknown[], named = false): string {
  return events
    .map((event) => {
      const type = (event as { type?: string }).type;
      return `${named && type !== undefined ? `event: ${type}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
    })
    .join('');
}

const chatChunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  id: 'chatcmpl-case',
  object: 'chat.completion.chunk',
  model: 'case-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const chatEvents = [
  chatChunk({ role: 'assistant', content: '' }),
  chatChunk({ content: 'Hello' }),
  chatChunk({ content: ' world' }),
  chatChunk({}, 'stop'),
  {
    id: 'chatcmpl-case',
    object: 'chat.completion.chunk',
    model: 'case-model',
    choices: [],
    usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
  },
];
const chatBody = {
  id: 'chatcmpl-case',
  object: 'chat.completion',
  model: 'case-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello world' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
};
const openAiError = (message: string) => ({
  error: { message, type: 'case_error', param: null, code: null },
});
const chatSample: FormatSample = {
  success: chatBody,
  requestIdHeader: 'x-request-id',
  errorBody: openAiError,
  stream: {
    events: chatEvents,
    equivalent: chatBody,
    withError: [
      ...chatEvents.slice(0, 3),
      { error: { message: 'upstream broke', type: 'server_error', code: null } },
    ],
    truncated: chatEvents.slice(0, 3),
    sse: `${sseOf(chatEvents)}data: [DONE]\n\n`,
  },
};

const response = (status: string, output: unknown[]) => ({
  id: 'resp_case',
  object: 'response',
  created_at: 1,
  status,
  model: 'case-model',
  output,
  usage: status === 'completed' ? { input_tokens: 7, output_tokens: 2, total_tokens: 9 } : null,
});
const finalResponse = response('completed', [
  {
    id: 'msg_case',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Hello world', annotations: [] }],
  },
]);
const responsesEvents = [
  { type: 'response.created', sequence_number: 0, response: response('in_progress', []) },
  {
    type: 'response.output_item.added',
    sequence_number: 1,
    output_index: 0,
    item: { id: 'msg_case', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  },
  {
    type: 'response.output_text.delta',
    sequence_number: 2,
    item_id: 'msg_case',
    output_index: 0,
    content_index: 0,
    delta: 'Hello',
  },
  {
    type: 'response.output_text.delta',
    sequence_number: 3,
    item_id: 'msg_case',
    output_index: 0,
    content_index: 0,
    delta: ' world',
  },
  { type: 'response.completed', sequence_number: 4, response: finalResponse },
];

const anthropicMessage = {
  id: 'msg_case',
  type: 'message',
  role: 'assistant',
  model: 'case-model',
  content: [{ type: 'text', text: 'Hello world' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 7, output_tokens: 2 },
};
const anthropicEvents = [
  {
    type: 'message_start',
    message: {
      ...anthropicMessage,
      content: [],
      stop_reason: null,
      usage: { input_tokens: 7, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' world' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 2 },
  },
  { type: 'message_stop' },
];

const geminiChunk = (text: string, finish?: string) => ({
  candidates: [
    { content: { parts: [{ text }], role: 'model' }, index: 0, ...(finish ? { finishReason: finish } : {}) },
  ],
  usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 2, totalTokenCount: 9 },
  modelVersion: 'case-model',
});
const geminiEvents = [geminiChunk('Hello'), geminiChunk(' world', 'STOP')];

const imageUsage = {
  total_tokens: 4300,
  input_tokens: 50,
  output_tokens: 4250,
  input_tokens_details: { text_tokens: 50, image_tokens: 0 },
};
const imageBody = {
  created: 1,
  data: [{ b64_json: 'iVBORw0KGgo=' }],
  size: '1024x1024',
  output_format: 'png',
  usage: imageUsage,
};
const imageEvent = (type: string, b64: string, extra: object = {}) => ({
  type,
  b64_json: b64,
  created_at: 1,
  size: '1024x1024',
  quality: 'low',
  background: 'opaque',
  output_format: 'png',
  ...extra,
});
const imageEvents = [
  imageEvent('image_generation.partial_image', 'AAAA', { partial_image_index: 0 }),
  imageEvent('image_generation.partial_image', 'AAAB', { partial_image_index: 1 }),
  imageEvent('image_generation.completed', 'iVBORw0KGgo=', { usage: imageUsage }),
];

const converseBody = {
  output: { message: { role: 'assistant', content: [{ text: 'Hello world' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 },
  metrics: { latencyMs: 321 },
};
const converseEvents: Record<string, unknown>[] = [
  { messageStart: { role: 'assistant' } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hello' } } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: ' world' } } },
  { contentBlockStop: { contentBlockIndex: 0 } },
  { messageStop: { stopReason: 'end_turn' } },
  { metadata: { usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 }, metrics: { latencyMs: 321 } } },
];

const completionChunk = (text: string, finish: string | null = null) => ({
  id: 'cmpl-case',
  object: 'text_completion',
  created: 1,
  model: 'case-model',
  choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
});
const completionEvents = [
  completionChunk('Hello'),
  completionChunk(' world'),
  completionChunk('', 'stop'),
  {
    id: 'cmpl-case',
    object: 'text_completion',
    created: 1,
    model: 'case-model',
    choices: [],
    usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
  },
];
const completionBody = {
  id: 'cmpl-case',
  object: 'text_completion',
  created: 1,
  model: 'case-model',
  choices: [{ index: 0, text: 'Hello world', logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
};

const cohereUsage = {
  billed_units: { input_tokens: 5, output_tokens: 2 },
  tokens: { input_tokens: 7, output_tokens: 2 },
};
const cohereBody = {
  id: 'case-cohere',
  finish_reason: 'COMPLETE',
  message: { role: 'assistant', content: [{ type: 'text', text: 'Hello world' }] },
  usage: cohereUsage,
};
const cohereDelta = (text: string) => ({
  type: 'content-delta',
  index: 0,
  delta: { message: { content: { text } } },
});
const cohereEvents = [
  {
    type: 'message-start',
    id: 'case-cohere',
    delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
  },
  { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
  cohereDelta('Hello'),
  cohereDelta(' world'),
  { type: 'content-end', index: 0 },
  { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: cohereUsage } },
];

const ollamaFinal = {
  model: 'case-model',
  created_at: '2026-01-01T00:00:00Z',
  done: true,
  done_reason: 'stop',
  total_duration: 5_000_000,
  prompt_eval_count: 7,
  eval_count: 2,
};
const ollamaChatBody = { ...ollamaFinal, message: { role: 'assistant', content: 'Hello world' } };
const ollamaChatLine = (content: string) => ({
  model: 'case-model',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', content },
  done: false,
});
const ollamaChatEvents = [
  ollamaChatLine('Hello'),
  ollamaChatLine(' world'),
  { ...ollamaFinal, message: { role: 'assistant', content: '' } },
];
const ollamaGenerateBody = { ...ollamaFinal, response: 'Hello world', context: [1, 2, 3] };
const ollamaGenerateLine = (response: string) => ({
  model: 'case-model',
  created_at: '2026-01-01T00:00:00Z',
  response,
  done: false,
});
const ollamaGenerateEvents = [
  ollamaGenerateLine('Hello'),
  ollamaGenerateLine(' world'),
  { ...ollamaFinal, response: '', context: [1, 2, 3] },
];
const ollamaError = (message: string) => ({ error: message });

const titanBody = {
  inputTextTokenCount: 7,
  results: [{ tokenCount: 2, outputText: 'Hello world', completionReason: 'FINISH' }],
};
const titanChunks: Record<string, unknown>[] = [
  {
    outputText: 'Hello',
    index: 0,
    totalOutputTextTokenCount: 1,
    completionReason: null,
    inputTextTokenCount: 7,
  },
  {
    outputText: ' world',
    index: 0,
    totalOutputTextTokenCount: 2,
    completionReason: 'FINISH',
    inputTextTokenCount: null,
    'amazon-bedrock-invocationMetrics': {
      inputTokenCount: 7,
      outputTokenCount: 2,
      invocationLatency: 400,
      firstByteLatency: 150,
    },
  },
];
/** A model chunk as InvokeModelWithResponseStream's decoded events carry it: `{ chunk: { bytes } }`, base64. */
const chunkEvent = (chunk: object) => ({ chunk: { bytes: btoa(JSON.stringify(chunk)) } });
const invokeEvents = titanChunks.map(chunkEvent);

const speechEvents = [
  { type: 'speech.audio.delta', audio: 'SUQz' },
  { type: 'speech.audio.delta', audio: 'BAA=' },
  { type: 'speech.audio.done', usage: null },
];
const transcriptUsage = {
  type: 'tokens',
  input_tokens: 7,
  input_token_details: { text_tokens: 0, audio_tokens: 7 },
  output_tokens: 2,
  total_tokens: 9,
};
const transcriptEvents = [
  { type: 'transcript.text.delta', delta: 'Hello', logprobs: [] },
  { type: 'transcript.text.delta', delta: ' world', logprobs: [] },
  { type: 'transcript.text.done', text: 'Hello world', logprobs: [], usage: transcriptUsage },
];

/** One sample per format; the case table runs over all of them. */
export const FORMAT_SAMPLES: Record<UnifiedFormat, FormatSample> = {
  'openai.chat': chatSample,
  'openrouter.chat': { ...chatSample, success: { ...chatBody, provider: 'Case' } },
  'openai-compatible.chat': chatSample,
  'openai.responses': {
    success: finalResponse,
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
    stream: {
      events: responsesEvents,
      equivalent: finalResponse,
      withError: [
        ...responsesEvents.slice(0, 3),
        { type: 'error', sequence_number: 3, code: 'server_error', message: 'upstream broke', param: null },
      ],
      truncated: responsesEvents.slice(0, 4),
      sse: sseOf(responsesEvents, true),
    },
  },
  'openai.images': {
    success: imageBody,
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
    stream: {
      events: imageEvents,
      equivalent: imageBody,
      withError: [
        imageEvents[0],
        {
          type: 'error',
          error: { type: 'server_error', code: null, message: 'upstream broke', param: null },
        },
      ],
      truncated: imageEvents.slice(0, 2),
      sse: sseOf(imageEvents, true),
    },
  },
  'openai.speech': {
    success: new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00]),
    successHeaders: { 'content-type': 'audio/mpeg' },
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
    stream: {
      events: speechEvents,
      equivalent: new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00]),
      withError: [
        speechEvents[0],
        {
          type: 'error',
          error: { type: 'server_error', code: null, message: 'upstream broke', param: null },
        },
      ],
      truncated: speechEvents.slice(0, 2),
      sse: sseOf(speechEvents, true),
    },
  },
  'openai.transcription': {
    success: { text: 'Hello world', usage: transcriptUsage },
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
    stream: {
      events: transcriptEvents,
      equivalent: { text: 'Hello world', usage: transcriptUsage },
      withError: [
        transcriptEvents[0],
        {
          type: 'error',
          error: { type: 'server_error', code: null, message: 'upstream broke', param: null },
        },
      ],
      truncated: transcriptEvents.slice(0, 2),
      sse: sseOf(transcriptEvents, true),
    },
  },
  'openai.completions': {
    success: completionBody,
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
    stream: {
      events: completionEvents,
      equivalent: completionBody,
      withError: [
        ...completionEvents.slice(0, 2),
        { error: { message: 'upstream broke', type: 'server_error', code: null } },
      ],
      truncated: completionEvents.slice(0, 2),
      sse: `${sseOf(completionEvents)}data: [DONE]\n\n`,
    },
  },
  'cohere.chat': {
    success: cohereBody,
    requestIdHeader: 'x-request-id',
    errorBody: (message) => ({ id: 'case-error', message }),
    stream: {
      events: cohereEvents,
      equivalent: cohereBody,
      withError: [
        ...cohereEvents.slice(0, 3),
        { type: 'message-end', delta: { finish_reason: 'ERROR', error: 'upstream broke' } },
      ],
      truncated: cohereEvents.slice(0, 4),
      sse: sseOf(cohereEvents, true),
    },
  },
  'ollama.chat': {
    success: ollamaChatBody,
    requestIdHeader: 'x-request-id',
    errorBody: ollamaError,
    stream: {
      events: ollamaChatEvents,
      equivalent: ollamaChatBody,
      withError: [ollamaChatEvents[0], { error: 'upstream broke' }],
      truncated: ollamaChatEvents.slice(0, 2),
      sse: ollamaChatEvents.map((event) => JSON.stringify(event)).join('\n'),
    },
  },
  'ollama.generate': {
    success: ollamaGenerateBody,
    requestIdHeader: 'x-request-id',
    errorBody: ollamaError,
    stream: {
      events: ollamaGenerateEvents,
      equivalent: ollamaGenerateBody,
      withError: [ollamaGenerateEvents[0], { error: 'upstream broke' }],
      truncated: ollamaGenerateEvents.slice(0, 2),
      sse: ollamaGenerateEvents.map((event) => JSON.stringify(event)).join('\n'),
    },
  },
  'bedrock.invoke': {
    success: titanBody,
    requestIdHeader: 'x-amzn-requestid',
    // No x-amzn-errortype header, so that only the status decides.
    errorBody: (message) => ({ message }),
    stream: {
      events: invokeEvents,
      equivalent: titanBody,
      withError: [invokeEvents[0], { internalServerException: { message: 'upstream broke' } }],
      truncated: invokeEvents.slice(0, 1),
      sse: invokeEventStream(titanChunks),
    },
  },
  'openai.videos': {
    success: {
      id: 'video_case',
      object: 'video',
      model: 'sora-2',
      status: 'completed',
      progress: 100,
      size: '720x1280',
      seconds: '4',
    },
    requestIdHeader: 'x-request-id',
    errorBody: openAiError,
  },
  'anthropic.messages': {
    success: anthropicMessage,
    requestIdHeader: 'request-id',
    // An error type Anthropic does not document, so that only the status decides.
    errorBody: (message) => ({ type: 'error', error: { type: 'case_error', message } }),
    stream: {
      events: anthropicEvents,
      equivalent: anthropicMessage,
      withError: [
        ...anthropicEvents.slice(0, 3),
        { type: 'error', error: { type: 'api_error', message: 'upstream broke' } },
      ],
      truncated: anthropicEvents.slice(0, 4),
      sse: sseOf(anthropicEvents, true),
    },
  },
  'google.generate-content': {
    success: { ...geminiChunk('Hello world', 'STOP') },
    requestIdHeader: 'x-goog-request-id',
    errorBody: (message) => ({ error: { message } }),
    stream: {
      events: geminiEvents,
      equivalent: geminiChunk('Hello world', 'STOP'),
      withError: [
        geminiChunk('Hello'),
        { error: { code: 500, message: 'upstream broke', status: 'INTERNAL' } },
      ],
      truncated: [geminiChunk('Hello')],
      sse: sseOf(geminiEvents),
    },
  },
  'bedrock.converse': {
    success: converseBody,
    requestIdHeader: 'x-amzn-requestid',
    // No x-amzn-errortype header, so that only the status decides.
    errorBody: (message) => ({ message }),
    stream: {
      events: converseEvents,
      equivalent: converseBody,
      withError: [...converseEvents.slice(0, 2), { internalServerException: { message: 'upstream broke' } }],
      truncated: converseEvents.slice(0, 3),
      sse: converseEventStream(converseEvents),
    },
  },
  'google.imagen': {
    success: { predictions: [{ mimeType: 'image/png', bytesBase64Encoded: 'iVBORw0KGgo=' }] },
    requestIdHeader: 'x-goog-request-id',
    errorBody: (message) => ({ error: { message } }),
  },
  'google.veo': {
    success: {
      name: 'models/veo-3.0-generate-001/operations/case',
      done: true,
      response: {
        generateVideoResponse: {
          generatedSamples: [
            { video: { uri: 'https://generativelanguage.googleapis.com/v1beta/files/case:download' } },
          ],
        },
      },
    },
    requestIdHeader: 'x-goog-request-id',
    errorBody: (message) => ({ error: { message } }),
  },
  'replicate.prediction': {
    success: {
      id: 'p_case',
      model: 'owner/model',
      status: 'succeeded',
      output: ['Hello', ' world'],
      error: null,
      metrics: { predict_time: 0.5 },
    },
    requestIdHeader: 'x-request-id',
    errorBody: (message) => ({ detail: message }),
  },
};
