import { z } from 'zod';
import type { UnifiedOutput, UnifiedSuccess } from '../../../unified/types.js';
import type { EventStream, TextStreamWrite } from '../../basics/create-event-stream.js';
import type { ConfigProblem } from '../../config/config-problem.js';
import { type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';
import type { ChatMessage, ChatUserPart } from '../../request/chat-request-schema.js';
import {
  fileDataSchema,
  imageUrlSchema,
  MAX_TOOLS,
  tokenCountSchema,
  toolFunctionShape,
} from '../../request/chat-request-schema.js';
import { modelSchema, type TextRequest } from '../../request/request-schemas.js';
import { type EnvelopeParts, inexpressibleFailure, readEnvelopeParts } from '../read-envelope-parts.js';
import { renderOpenAiFailure, toOpenAiError } from './openai-errors.js';

/**
 * `POST /openai/v1/responses`: OpenAI's Responses API in front of the gateway's text pipeline (docs/gateway.md,
 * "Use it from your existing client"). `input` (a string or items: messages, `function_call`,
 * `function_call_output`) becomes the gateway's conversation; the answer is a `response` object with `message`
 * and `function_call` items, or `response.*` events ending with `response.completed`. The gateway keeps no
 * responses: a conversation is sent whole, never by `previous_response_id`.
 */

/** Most input items in one request, as many as the messages of a text request. */
const MAX_ITEMS = 2048;
/** Most content parts of one message item. */
const MAX_PARTS = 256;

const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
const outputText = z.strictObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.record(z.string(), z.unknown())).max(MAX_PARTS).optional(),
  logprobs: z.array(z.unknown()).max(0).optional(),
});
const inputImage = z.strictObject({
  type: z.literal('input_image'),
  image_url: imageUrlSchema,
  detail: z.enum(['auto', 'low', 'high']).optional(),
});
const inputFile = z.strictObject({
  type: z.literal('input_file'),
  file_data: fileDataSchema,
  filename: z.string().min(1).max(256).optional(),
});

const contentPart = z.discriminatedUnion('type', [inputText, outputText, inputImage, inputFile], {
  error: 'Must be a part of type input_text, output_text, input_image (by URL) or input_file (by file_data).',
});

const messageItem = z.strictObject({
  type: z.literal('message'),
  id: z.string().max(256).optional(),
  status: z.string().max(64).optional(),
  role: z.enum(['user', 'system', 'developer', 'assistant']),
  content: z.union([z.string(), z.array(contentPart).min(1).max(MAX_PARTS)], {
    error: 'Must be a string or a non-empty list of parts.',
  }),
});
const functionCallItem = z.strictObject({
  type: z.literal('function_call'),
  id: z.string().max(256).optional(),
  status: z.string().max(64).optional(),
  call_id: z.string().min(1).max(256),
  name: z.string().min(1).max(64),
  arguments: z.string().describe('The arguments as the JSON text the model wrote.'),
});
const functionCallOutputItem = z.strictObject({
  type: z.literal('function_call_output'),
  id: z.string().max(256).optional(),
  status: z.string().max(64).optional(),
  call_id: z.string().min(1).max(256),
  output: z.union([z.string(), z.array(inputText).max(MAX_PARTS)], {
    error: 'Must be a string or a list of input_text parts.',
  }),
});
/** A reasoning item of an earlier answer, sent back as the SDK gave it; the next call does not need it. */
const reasoningItem = z.looseObject({ type: z.literal('reasoning') });

const inputItem = z.preprocess(
  // A message may leave out its type (`{role, content}`), as the SDKs' easy input form does.
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('type' in value) &&
    'role' in value
      ? { ...value, type: 'message' }
      : value,
  z.discriminatedUnion('type', [messageItem, functionCallItem, functionCallOutputItem, reasoningItem], {
    error: 'Must be an item of type message, function_call, function_call_output or reasoning.',
  }),
);

const functionTool = z.strictObject({ type: z.literal('function'), ...toolFunctionShape });

const textFormat = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('text') }),
    z.strictObject({ type: z.literal('json_object') }),
    z.strictObject({
      type: z.literal('json_schema'),
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, "_" or "-".'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().optional(),
    }),
  ],
  { error: 'Must be {type: "text"}, {type: "json_object"} or {type: "json_schema", name, schema}.' },
);

/** The Responses request, as OpenAI's SDKs and the agents built on them send it. */
export const responsesRequestSchema = z.strictObject({
  model: modelSchema,
  input: z.union([z.string().min(1), z.array(inputItem).min(1).max(MAX_ITEMS)], {
    error: 'Must be a non-empty string or a non-empty list of items.',
  }),
  instructions: z.string().optional().describe('System instructions.'),
  tools: z
    .array(functionTool)
    .max(MAX_TOOLS)
    .optional()
    .describe('Function tools only: the gateway runs no hosted tool.'),
  tool_choice: z
    .union(
      [
        z.enum(['auto', 'none', 'required']),
        z.strictObject({ type: z.literal('function'), name: z.string().min(1).max(64) }),
      ],
      { error: 'Must be "auto", "none", "required" or {type: "function", name}.' },
    )
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_output_tokens: tokenCountSchema.optional(),
  text: z.strictObject({ format: textFormat.optional() }).optional(),
  reasoning: z
    .strictObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
    })
    .optional(),
  stream: z.boolean().optional().describe('Answer with response.* events ending with response.completed.'),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).optional(),
  store: z.boolean().optional(),
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((value) => Object.keys(value).length <= 16, 'Must hold at most 16 members.')
    .optional(),
  user: z.string().max(256).optional(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).optional(),
  truncation: z
    .literal('disabled', 'Must be "disabled": the gateway sends the conversation whole.')
    .optional(),
  previous_response_id: z
    .null('Must be left out: the gateway keeps no responses; send the whole conversation in "input".')
    .optional(),
  include: z.array(z.string()).max(0, 'Must be empty: the gateway adds nothing to the output.').optional(),
  prompt_cache_key: z.string().max(256).optional().describe('Accepted; it does not change the answer.'),
  safety_identifier: z.string().max(256).optional().describe('Accepted; it does not change the answer.'),
});

/** A Responses request after validation. */
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** One input item after validation. */
type InputItem = z.infer<typeof inputItem>;

/** A message item's parts as the text request's user parts, or the problem of a part a role cannot hold. */
function userPartOf(part: z.infer<typeof contentPart>): ChatUserPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'input_image':
      return {
        type: 'image_url',
        image_url: { url: part.image_url, ...(part.detail === undefined ? {} : { detail: part.detail }) },
      };
    case 'input_file':
      return {
        type: 'file',
        file: {
          file_data: part.file_data,
          ...(part.filename === undefined ? {} : { filename: part.filename }),
        },
      };
  }
}

/** The text of a message that holds text only, or undefined when a part is not text. */
function textOnly(
  content: string | z.infer<typeof contentPart>[],
): { type: 'text'; text: string }[] | string | undefined {
  if (typeof content === 'string') return content;
  const texts = content.flatMap((part) =>
    part.type === 'input_text' || part.type === 'output_text'
      ? [{ type: 'text' as const, text: part.text }]
      : [],
  );
  return texts.length === content.length ? texts : undefined;
}

/** The conversation of a Responses `input`, as the text request's messages. */
function messagesOf(items: InputItem[], problems: ConfigProblem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  items.forEach((item, index) => {
    if (item.type === 'reasoning') return;
    if (item.type === 'function_call') {
      const call = {
        id: item.call_id,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      // Calls that follow an assistant message (or each other) belong to that one turn.
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      return;
    }
    if (item.type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content:
          typeof item.output === 'string'
            ? item.output
            : item.output.map((part) => ({ type: 'text' as const, text: part.text })),
      });
      return;
    }
    if (item.role === 'user') {
      messages.push({
        role: 'user',
        content: typeof item.content === 'string' ? item.content : item.content.map(userPartOf),
      });
      return;
    }
    const text = textOnly(item.content);
    if (text === undefined) {
      problems.push({
        path: `/input/${index}/content`,
        message: `A ${item.role} message holds text parts only.`,
      });
      return;
    }
    messages.push({ role: item.role, content: text });
  });
  return messages;
}

/** The gateway's text request for a Responses request, or the problems that keep it from one. */
export function toTextRequest(
  body: ResponsesRequest,
): { ok: true; request: TextRequest } | { ok: false; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const messages: ChatMessage[] =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : messagesOf(body.input, problems);
  if (messages.length === 0) problems.push({ path: '/input', message: 'Must hold at least one message.' });
  if (problems.length > 0) return { ok: false, problems };
  const format = body.text?.format;
  const request: TextRequest = {
    model: body.model,
    messages,
    ...(body.instructions === undefined ? {} : { system: body.instructions }),
    ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    ...(body.top_p === undefined ? {} : { top_p: body.top_p }),
    ...(body.max_output_tokens === undefined ? {} : { max_output_tokens: body.max_output_tokens }),
    ...(body.tools === undefined
      ? {}
      : { tools: body.tools.map(({ type, ...fn }) => ({ type, function: fn })) }),
    ...(body.tool_choice === undefined
      ? {}
      : {
          tool_choice:
            typeof body.tool_choice === 'string'
              ? body.tool_choice
              : { type: 'function' as const, function: { name: body.tool_choice.name } },
        }),
    ...(body.parallel_tool_calls === undefined ? {} : { parallel_tool_calls: body.parallel_tool_calls }),
    ...(format === undefined
      ? {}
      : {
          response_format:
            format.type === 'json_schema'
              ? {
                  type: 'json_schema' as const,
                  json_schema: {
                    name: format.name,
                    schema: format.schema,
                    ...(format.description === undefined ? {} : { description: format.description }),
                    ...(format.strict === undefined ? {} : { strict: format.strict }),
                  },
                }
              : format,
        }),
    ...(body.reasoning?.effort == null ? {} : { reasoning_effort: body.reasoning.effort }),
    ...(body.store === undefined ? {} : { store: body.store }),
    ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
    ...(body.user === undefined ? {} : { user: body.user }),
    ...(body.service_tier === undefined ? {} : { service_tier: body.service_tier }),
    ...(body.stream === undefined ? {} : { stream: body.stream }),
  };
  return { ok: true, request };
}

/** Seconds since the epoch. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The ids of an answer's items, the same in a stream and in the final response. */
const messageIdOf = (traceId: string) => `msg_${traceId}`;
const functionCallIdOf = (callId: string) => `fc_${callId}`;

/** The usage of a response, in OpenAI's names. */
function usageOf(parts: EnvelopeParts) {
  const { usage } = parts;
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
}

/** A response object's members that echo the request, and its state. */
function responseShell(traceId: string, request: ResponsesRequest, createdAt: number, model: string) {
  return {
    id: `resp_${traceId}`,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model,
    output: [] as unknown[],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: null },
    store: request.store ?? false,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: 'disabled',
    usage: null as unknown,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/** The message item of an answer's text. */
function messageItemOf(traceId: string, text: string) {
  return {
    type: 'message',
    id: messageIdOf(traceId),
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

/** The `response` of a success: the text as a message item, then a `function_call` item per tool call. */
export function toResponse(envelope: UnifiedSuccess, request: ResponsesRequest, createdAt = nowSeconds()) {
  const traceId = envelope.metadata.trace_id;
  const parts = readEnvelopeParts(envelope, request.model);
  const output: unknown[] = [];
  if (parts.text !== '' || parts.toolCalls.length === 0) output.push(messageItemOf(traceId, parts.text));
  for (const call of parts.toolCalls) {
    output.push({
      type: 'function_call',
      id: functionCallIdOf(call.id),
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    });
  }
  const cut = parts.finishReason === 'length';
  return {
    ...responseShell(traceId, request, createdAt, parts.model),
    status: cut ? 'incomplete' : 'completed',
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    output,
    output_text: parts.text,
    usage: usageOf(parts),
  };
}

/** The stream of one request: `response.*` events as the pipeline's events come. */
function openResponsesStream(
  events: EventStream,
  traceId: string,
  request: ResponsesRequest,
): TextStreamWrite {
  const createdAt = nowSeconds();
  let sequence = 0;
  let outputs = 0;
  let message: { index: number; text: string } | undefined;
  const calls = new Map<string, { index: number; name: string; args: string }>();
  let begun = false;
  const emit = (type: string, data: Record<string, unknown>) =>
    events.write(type, { type, sequence_number: sequence++, ...data });
  const shell = () => responseShell(traceId, request, createdAt, request.model);
  const begin = async () => {
    if (begun) return;
    begun = true;
    await emit('response.created', { response: shell() });
    await emit('response.in_progress', { response: shell() });
  };
  const closeMessage = async () => {
    if (message === undefined) return;
    const { index, text } = message;
    message = undefined;
    const item_id = messageIdOf(traceId);
    await emit('response.output_text.done', {
      item_id,
      output_index: index,
      content_index: 0,
      text,
      logprobs: [],
    });
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    await emit('response.content_part.done', { item_id, output_index: index, content_index: 0, part });
    await emit('response.output_item.done', { output_index: index, item: messageItemOf(traceId, text) });
  };
  const closeCalls = async () => {
    for (const [callId, call] of calls) {
      const item_id = functionCallIdOf(callId);
      await emit('response.function_call_arguments.done', {
        item_id,
        output_index: call.index,
        arguments: call.args,
      });
      await emit('response.output_item.done', {
        output_index: call.index,
        item: {
          type: 'function_call',
          id: item_id,
          call_id: callId,
          name: call.name,
          arguments: call.args,
          status: 'completed',
        },
      });
    }
    calls.clear();
  };
  return async (event, data) => {
    const value = data as Record<string, unknown>;
    if (event === 'delta') {
      await begin();
      if (message === undefined) {
        message = { index: outputs++, text: '' };
        const item = {
          type: 'message',
          id: messageIdOf(traceId),
          status: 'in_progress',
          role: 'assistant',
          content: [],
        };
        await emit('response.output_item.added', { output_index: message.index, item });
        await emit('response.content_part.added', {
          item_id: item.id,
          output_index: message.index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        });
      }
      const delta = String(value.text);
      message.text += delta;
      await emit('response.output_text.delta', {
        item_id: messageIdOf(traceId),
        output_index: message.index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    } else if (event === 'tool_call_start') {
      await begin();
      await closeMessage();
      const callId = String(value.id);
      const call = { index: outputs++, name: String(value.name), args: '' };
      calls.set(callId, call);
      await emit('response.output_item.added', {
        output_index: call.index,
        item: {
          type: 'function_call',
          id: functionCallIdOf(callId),
          call_id: callId,
          name: call.name,
          arguments: '',
          status: 'in_progress',
        },
      });
    } else if (event === 'tool_call_delta') {
      const callId = String(value.id);
      const call = calls.get(callId);
      if (call === undefined) return;
      call.args += String(value.arguments);
      await emit('response.function_call_arguments.delta', {
        item_id: functionCallIdOf(callId),
        output_index: call.index,
        delta: value.arguments,
      });
    } else {
      const envelope = data as UnifiedOutput;
      const failure = envelope.success ? inexpressibleFailure(envelope, 'a response') : envelope;
      await begin();
      if (failure !== undefined) {
        // OpenAI's streaming error event, then the response that failed.
        const error = toOpenAiError(failure);
        await emit('error', {
          code: error.code,
          message: error.message,
          param: error.param,
          verdict_code: error.verdict_code,
        });
        await emit('response.failed', {
          response: { ...shell(), status: 'failed', error: { code: error.code, message: error.message } },
        });
        return;
      }
      if (!envelope.success) return;
      await closeMessage();
      await closeCalls();
      const response = toResponse(envelope, request, createdAt);
      await emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
        response,
      });
    }
  };
}

/** The renderer of one Responses request. */
export function responsesRenderer(request: ResponsesRequest): Renderer {
  const renderer: Renderer = {
    surface: 'openai',
    requestIdHeader: 'x-request-id',
    render(envelope, headers) {
      const failure = envelope.success ? inexpressibleFailure(envelope, 'a response') : envelope;
      if (failure !== undefined) return renderOpenAiFailure(failure, headers);
      if (!envelope.success) return renderOpenAiFailure(envelope, headers);
      return Response.json(toResponse(envelope, request), {
        headers: surfaceHeaders(renderer, envelope.metadata.trace_id, headers),
      });
    },
    openStream: (events, traceId) => openResponsesStream(events, traceId, request),
  };
  return renderer;
}
