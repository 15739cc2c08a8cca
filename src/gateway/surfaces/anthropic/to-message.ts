import type { FinishReason, UnifiedSuccess } from '../../../unified/types.js';

/**
 * The envelope of a text answer as an Anthropic Message object (docs/gateway.md, "Anthropic clients"): the
 * envelope is the one normalized result, and this is only its rendering, so the two cannot disagree.
 */

/** A content block of an answer. */
export type MessageBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** The usage of a Message, in Anthropic's names: `input_tokens` counts the uncached input only. */
export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** An Anthropic Message object. */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessageBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  stop_sequence: string | null;
  usage: MessageUsage;
}

/** Anthropic's stop reason for each normalized finish reason; the envelope does not say which stop sequence hit. */
const STOP_REASONS: Readonly<Record<FinishReason, AnthropicMessage['stop_reason']>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'end_turn',
  error: 'end_turn',
  other: 'end_turn',
};

/** The stop reason of an envelope. */
export function stopReasonOf(envelope: UnifiedSuccess): AnthropicMessage['stop_reason'] {
  const reason = envelope.metadata.finish_reason;
  return reason === undefined ? 'end_turn' : STOP_REASONS[reason];
}

/** A message id for a trace id: the same for the plain answer and the stream's `message_start`. */
export function messageIdOf(traceId: string): string {
  return `msg_${traceId}`;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/**
 * The usage of an envelope in Anthropic's names. The envelope counts every input token, cached ones included
 * (docs/unified.md); Anthropic counts cache reads and writes apart from `input_tokens`, so they are taken out.
 */
export function usageOf(envelope: UnifiedSuccess): MessageUsage {
  const details = envelope.metadata.usage_details ?? {};
  // The AI SDK names cache reads `cached_input_tokens`; the Anthropic normalizer, as Anthropic does.
  const read = count(details.cached_input_tokens ?? details.cache_read_input_tokens);
  const created = count(details.cache_creation_input_tokens);
  return {
    input_tokens: Math.max(0, envelope.usage.input_tokens - read - created),
    output_tokens: envelope.usage.output_tokens,
    cache_creation_input_tokens: created,
    cache_read_input_tokens: read,
  };
}

/**
 * Why a success cannot be written as a Message: a part the Messages API has no block for (images, files or
 * videos in a text answer: `VALIDATION_ERROR`), or a tool call whose arguments are not a JSON object, which a
 * `tool_use` block's `input` must be (`INVALID_PROVIDER_RESPONSE`). Answered as an error, never left out.
 */
export interface Unrenderable {
  code: 'VALIDATION_ERROR' | 'INVALID_PROVIDER_RESPONSE';
  message: string;
  details: Record<string, unknown>;
}

/** The media parts of a text answer, which no Messages block carries. */
export function mediaProblemOf(envelope: UnifiedSuccess): Unrenderable | undefined {
  const media = envelope.images.length + envelope.files.length + envelope.videos.length;
  if (media === 0) return undefined;
  return {
    code: 'VALIDATION_ERROR',
    message: `The answer holds ${media} image, file or video part${media === 1 ? '' : 's'}, which the Anthropic Messages API cannot carry: ask POST /v1/text for it.`,
    details: { limitation: 'media_output', media },
  };
}

/** One tool call of the envelope (`metadata.tool_calls`, docs/gateway.md, "Tool calls"). */
interface EnvelopeToolCall {
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
  arguments_not_json?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool calls of an envelope as `tool_use` blocks, or why the first that cannot be one cannot. */
export function toolUseBlocksOf(
  envelope: UnifiedSuccess,
):
  | { ok: true; blocks: Extract<MessageBlock, { type: 'tool_use' }>[] }
  | { ok: false; problem: Unrenderable } {
  const calls = Array.isArray(envelope.metadata.tool_calls)
    ? (envelope.metadata.tool_calls as EnvelopeToolCall[])
    : [];
  const blocks: Extract<MessageBlock, { type: 'tool_use' }>[] = [];
  for (const call of calls) {
    const name = typeof call.name === 'string' ? call.name : '';
    if (call.arguments_not_json === true || !isObject(call.arguments)) {
      return {
        ok: false,
        problem: {
          code: 'INVALID_PROVIDER_RESPONSE',
          message: `The arguments of the tool call "${name}" are not a JSON object, which a tool_use block needs.`,
          details: { tool: name },
        },
      };
    }
    blocks.push({
      type: 'tool_use',
      id: typeof call.id === 'string' ? call.id : `toolu_${blocks.length}`,
      name,
      input: call.arguments,
    });
  }
  return { ok: true, blocks };
}

/** The reasoning text of an envelope (`metadata.reasoning`), when there is any. */
export function reasoningOf(envelope: UnifiedSuccess): string | undefined {
  const reasoning = envelope.metadata.reasoning;
  return typeof reasoning === 'string' && reasoning !== '' ? reasoning : undefined;
}

/**
 * A successful envelope as a Message: thinking first, then the text, then the tool calls. `model` is the
 * requested one when the envelope does not name the model that answered.
 * @example
 * const message = toMessage(envelope, 'anthropic:claude-sonnet-4-5');
 * if (message.ok) message.message.content; // [{ type: 'text', text: 'Paris.' }]
 */
export function toMessage(
  envelope: UnifiedSuccess,
  model: string,
): { ok: true; message: AnthropicMessage } | { ok: false; problem: Unrenderable } {
  const media = mediaProblemOf(envelope);
  if (media !== undefined) return { ok: false, problem: media };
  const tools = toolUseBlocksOf(envelope);
  if (!tools.ok) return tools;
  const content: MessageBlock[] = [];
  const reasoning = reasoningOf(envelope);
  // The envelope keeps no thinking signature, so a thinking block cannot be sent back to Anthropic as proof.
  if (reasoning !== undefined) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  if (envelope.content !== '') content.push({ type: 'text', text: envelope.content });
  content.push(...tools.blocks);
  return {
    ok: true,
    message: {
      id: messageIdOf(envelope.metadata.trace_id),
      type: 'message',
      role: 'assistant',
      model: typeof envelope.metadata.model === 'string' ? envelope.metadata.model : model,
      content,
      stop_reason: stopReasonOf(envelope),
      stop_sequence: null,
      usage: usageOf(envelope),
    },
  };
}
