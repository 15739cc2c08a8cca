import { z } from 'zod';
import { isJsonObject } from '../../../contract/findings.js';
import type { FinishReason, UnifiedOutput } from '../../../unified/types.js';
import type { EventStream, TextStreamWrite } from '../../basics/create-event-stream.js';
import { type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';
import { chatMessagesSchema, chatOptionsShape } from '../../request/chat-request-schema.js';
import { checkOneTokenLimit, modelSchema, type TextRequest } from '../../request/request-schemas.js';
import { inexpressibleFailure, readEnvelopeParts } from '../read-envelope-parts.js';
import { renderOpenAiFailure, toOpenAiError } from './openai-errors.js';

/**
 * `POST /openai/v1/chat/completions`: OpenAI's Chat Completions API in front of the gateway's text pipeline
 * (docs/gateway.md, "Use it from your existing client"). The request is the gateway's own text request with
 * the members OpenAI clients add; the answer is a `chat.completion`, or `chat.completion.chunk` events ending
 * with `data: [DONE]`, rendered from the pipeline's envelope.
 */

/** The Chat Completions request, as the OpenAI SDKs, the AI SDK and LangChain send it. */
export const chatCompletionsRequestSchema = z
  .strictObject({
    model: modelSchema,
    messages: chatMessagesSchema,
    temperature: z.number().min(0).max(2).optional(),
    ...chatOptionsShape,
    stream: z.boolean().optional().describe('Answer with chat.completion.chunk events, then data: [DONE].'),
    logprobs: z.literal(false, 'Must be false: the gateway answers no log probabilities.').optional(),
    logit_bias: z
      .record(z.string(), z.number())
      .refine((bias) => Object.keys(bias).length === 0, 'Must be empty: the gateway sends no logit bias.')
      .optional(),
    modalities: z.array(z.literal('text', 'Must be "text": this route answers text.')).max(1).optional(),
    prompt_cache_key: z.string().max(256).optional().describe('Accepted; it does not change the answer.'),
    safety_identifier: z.string().max(256).optional().describe('Accepted; it does not change the answer.'),
  })
  .superRefine(checkOneTokenLimit, { when: ({ value }) => isJsonObject(value) });

/** A Chat Completions request after validation. */
export type ChatCompletionsRequest = z.infer<typeof chatCompletionsRequestSchema>;

/** The gateway's text request for a Chat Completions request: the same members, less OpenAI's extras. */
export function toTextRequest(body: ChatCompletionsRequest): TextRequest {
  const {
    logprobs: _logprobs,
    logit_bias: _bias,
    modalities: _modalities,
    prompt_cache_key: _cacheKey,
    safety_identifier: _safety,
    ...text
  } = body;
  return text;
}

/** OpenAI's finish reason for verdict's (`other` has no OpenAI name: the model stopped). */
function finishReasonOf(reason: FinishReason): string {
  return reason === 'other' || reason === 'error' ? 'stop' : reason;
}

/** The usage of a chat completion, in OpenAI's names. */
function usageOf(parts: ReturnType<typeof readEnvelopeParts>) {
  const { usage } = parts;
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

/** Seconds since the epoch, as OpenAI's `created`. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The `chat.completion` of a success. */
export function toChatCompletion(
  envelope: Extract<UnifiedOutput, { success: true }>,
  request: ChatCompletionsRequest,
) {
  const parts = readEnvelopeParts(envelope, request.model);
  const toolCalls = parts.toolCalls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${envelope.metadata.trace_id}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model: parts.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          // OpenAI answers null content beside tool calls when the model said nothing.
          content: parts.text === '' && toolCalls.length > 0 ? null : parts.text,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: finishReasonOf(parts.finishReason),
      },
    ],
    usage: usageOf(parts),
    system_fingerprint: null,
  };
}

/** The stream of one request: `chat.completion.chunk`s as the pipeline's events come. */
function openChatStream(
  events: EventStream,
  traceId: string,
  request: ChatCompletionsRequest,
): TextStreamWrite {
  const id = `chatcmpl-${traceId}`;
  const created = nowSeconds();
  const toolIndex = new Map<string, number>();
  let begun = false;
  const send = (data: unknown) => events.send(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    send({
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  // The first chunk names the role, as OpenAI's does.
  const begin = async () => {
    if (begun) return;
    begun = true;
    await chunk({ role: 'assistant', content: '', refusal: null });
  };
  return async (event, data) => {
    const value = data as Record<string, unknown>;
    if (event === 'delta') {
      await begin();
      await chunk({ content: value.text });
    } else if (event === 'tool_call_start') {
      await begin();
      const index = toolIndex.size;
      toolIndex.set(String(value.id), index);
      await chunk({
        tool_calls: [
          { index, id: value.id, type: 'function', function: { name: value.name, arguments: '' } },
        ],
      });
    } else if (event === 'tool_call_delta') {
      const index = toolIndex.get(String(value.id)) ?? 0;
      await chunk({ tool_calls: [{ index, function: { arguments: value.arguments } }] });
    } else {
      const envelope = data as UnifiedOutput;
      const failure = envelope.success ? inexpressibleFailure(envelope, 'a chat completion') : envelope;
      if (failure !== undefined) {
        // OpenAI's streaming error: a data line holding `error`, which its SDKs raise as an APIError.
        await send({ error: toOpenAiError(failure) });
        return;
      }
      if (!envelope.success) return;
      await begin();
      const parts = readEnvelopeParts(envelope, request.model);
      await chunk({}, finishReasonOf(parts.finishReason));
      if (request.stream_options?.include_usage === true) {
        await send({
          id,
          object: 'chat.completion.chunk',
          created,
          model: request.model,
          system_fingerprint: null,
          choices: [],
          usage: usageOf(parts),
        });
      }
      await events.send('data: [DONE]\n\n');
    }
  };
}

/** The renderer of one Chat Completions request. */
export function chatCompletionsRenderer(request: ChatCompletionsRequest): Renderer {
  const renderer: Renderer = {
    surface: 'openai',
    requestIdHeader: 'x-request-id',
    render(envelope, headers) {
      const failure = envelope.success ? inexpressibleFailure(envelope, 'a chat completion') : envelope;
      if (failure !== undefined) return renderOpenAiFailure(failure, headers);
      if (!envelope.success) return renderOpenAiFailure(envelope, headers);
      return Response.json(toChatCompletion(envelope, request), {
        headers: surfaceHeaders(renderer, envelope.metadata.trace_id, headers),
      });
    },
    openStream: (events, traceId) => openChatStream(events, traceId, request),
  };
  return renderer;
}
