import { assembleFailure } from '../../unified/assemble-output.js';
import type { FinishReason, UnifiedFailure, UnifiedSuccess } from '../../unified/types.js';

/**
 * The parts of a text envelope every surface renders its answer from: one reading of the envelope, so that a
 * drop-in answer carries exactly the envelope's text, tool calls, finish reason and usage.
 */

/** One tool call of the answer, its arguments as the JSON text the model wrote. */
export interface EnvelopeToolCall {
  /** The call's id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
}

/** What a text answer holds, as the surfaces render it. */
export interface EnvelopeParts {
  /** The answer's text. */
  text: string;
  /** The tool calls the model made, in order. */
  toolCalls: EnvelopeToolCall[];
  /** Why the model stopped (`stop` when the provider did not say). */
  finishReason: FinishReason;
  /** The model that answered, or the requested one when the provider did not name it. */
  model: string;
  /** Token counts: all input (cached included), all output (reasoning included), and those two details. */
  usage: { input: number; output: number; cached: number; reasoning: number; cacheWrite: number };
  /** The reasoning text, when the request asked for reasoning. */
  reasoning: string | undefined;
}

/** A JSON object's member read as a count (0 when absent). */
function countOf(details: unknown, name: string): number {
  const value = (details as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** One tool call of `metadata.tool_calls`, its arguments as text. */
function toolCallOf(call: unknown): EnvelopeToolCall | undefined {
  const { id, name, arguments: args } = (call ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || typeof name !== 'string') return undefined;
  // A call whose arguments were not JSON keeps the model's raw text (`arguments_not_json`): passed on as it is.
  const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  return { id, name, arguments: text };
}

/** Read a text success's parts; `requestedModel` names the model when the provider did not. */
export function readEnvelopeParts(envelope: UnifiedSuccess, requestedModel: string): EnvelopeParts {
  const { metadata } = envelope;
  const calls = Array.isArray(metadata.tool_calls) ? metadata.tool_calls : [];
  const details = metadata.usage_details;
  return {
    text: envelope.content,
    toolCalls: calls.map(toolCallOf).filter((call) => call !== undefined),
    finishReason: metadata.finish_reason ?? 'stop',
    model: typeof metadata.model === 'string' ? metadata.model : requestedModel,
    usage: {
      input: envelope.usage.input_tokens,
      output: envelope.usage.output_tokens,
      // The AI SDK names cache reads `cached_input_tokens`; the Anthropic normalizer, as Anthropic does.
      cached: Math.max(countOf(details, 'cached_input_tokens'), countOf(details, 'cache_read_input_tokens')),
      reasoning: countOf(details, 'reasoning_tokens'),
      cacheWrite: countOf(details, 'cache_creation_input_tokens'),
    },
    reasoning: typeof metadata.reasoning === 'string' ? metadata.reasoning : undefined,
  };
}

/**
 * The failure answered instead of a success a client's API cannot carry (images or files in a text answer):
 * a `VALIDATION_ERROR` naming the limitation, never an answer with parts silently left out.
 */
export function inexpressibleFailure(envelope: UnifiedSuccess, api: string): UnifiedFailure | undefined {
  const media = envelope.images.length + envelope.files.length + envelope.videos.length;
  if (media === 0) return undefined;
  return assembleFailure(
    'system',
    'VALIDATION_ERROR',
    `The answer holds ${media} image, file or video part${media === 1 ? '' : 's'}, which ${api} cannot carry: ask POST /v1/text for it.`,
    { limitation: 'media_output', media },
    { trace_id: envelope.metadata.trace_id },
  );
}
