import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { UnifiedErrorCode } from '../error-taxonomy.js';
import type { FinishReason } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import {
  contentFiltered,
  errorMessage,
  errorObject,
  expectArray,
  expectObject,
  type FailureOutcome,
  failureForStatus,
  type Json,
  joinTextBlocks,
  type Outcome,
  optionalString,
  parseStreamedToolInput,
  type ReportedUsage,
  ShapeError,
  StreamCutError,
  streamIndex,
  tokenCount,
} from './provider-outcome.js';

/** Anthropic `stop_reason` values; `refusal` is handled apart as a `CONTENT_FILTERED` failure. */
const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  pause_turn: 'other',
  refusal: 'content_filter',
};

/** Anthropic error `type` values, which decide the code even when the HTTP status is 200 (stream errors). */
const ERROR_TYPES: Readonly<Record<string, UnifiedErrorCode>> = {
  invalid_request_error: 'VALIDATION_ERROR',
  authentication_error: 'AUTHENTICATION_ERROR',
  billing_error: 'INSUFFICIENT_CREDITS',
  permission_error: 'PERMISSION_DENIED',
  not_found_error: 'NOT_FOUND',
  request_too_large: 'PAYLOAD_TOO_LARGE',
  rate_limit_error: 'RATE_LIMITED',
  api_error: 'PROVIDER_ERROR',
  timeout_error: 'PROVIDER_TIMEOUT',
  overloaded_error: 'PROVIDER_UNAVAILABLE',
};

/** The failure an Anthropic error body (`{ type: 'error', error: { type, message } }`) stands for. */
function anthropicFailure(body: unknown, status: number, text = ''): FailureOutcome {
  const error = errorObject(body);
  const type = typeof error.type === 'string' ? error.type : undefined;
  const details = omitUndefined({
    provider_type: type,
    provider_error: isJsonObject(body) ? body.error : undefined,
  });
  return failureForStatus(
    status,
    errorMessage(error, text),
    details,
    type === undefined ? undefined : ERROR_TYPES[type],
  );
}

/** The events of a Messages stream that carry the answer (or keep the connection alive). */
const ANSWER_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
]);

/**
 * The failure of a stream `error` event (`{ type: 'error', error: { type, message } }`), or of the error object
 * inside it; an error mid-stream arrives with HTTP 200, so its `type` decides the code.
 */
function anthropicStreamError(event: unknown): FailureOutcome | undefined {
  if (!isJsonObject(event)) return undefined;
  if (isJsonObject(event.error)) return anthropicFailure(event, 200);
  // The other events of a stream have a type too: they are the answer, not an error object.
  if (typeof event.type === 'string' && ANSWER_EVENTS.has(event.type)) return undefined;
  if (typeof event.type !== 'string' && typeof event.message !== 'string') return undefined;
  return anthropicFailure({ type: 'error', error: event }, 200);
}

/** Anthropic usage: `input_tokens` excludes cache writes and reads, so verdict adds them back. */
function anthropicUsage(value: unknown): ReportedUsage | undefined {
  if (value === undefined || value === null) return undefined;
  const usage = expectObject(value, '`usage`');
  const uncached = tokenCount(usage.input_tokens, '`usage.input_tokens`') ?? 0;
  const written = tokenCount(usage.cache_creation_input_tokens, '`usage.cache_creation_input_tokens`');
  const read = tokenCount(usage.cache_read_input_tokens, '`usage.cache_read_input_tokens`');
  const top = {
    input: uncached + (written ?? 0) + (read ?? 0),
    output: tokenCount(usage.output_tokens, '`usage.output_tokens`') ?? 0,
    details: omitUndefined({
      uncached_input_tokens: uncached,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
    }),
  };
  return Array.isArray(usage.iterations) ? withIterations(top, usage.iterations) : top;
}

/**
 * Usage of a request that sampled more than once on the server (compaction): the top-level counts are the last
 * iteration's only, while every entry of `usage.iterations` is billed. The envelope counts them all; the parts go
 * to `usage_details` by iteration type (`compaction_input_tokens`, `message_output_tokens`…).
 */
function withIterations(top: ReportedUsage, iterations: readonly unknown[]): ReportedUsage {
  if (iterations.length === 0) return top;
  let input = 0;
  let output = 0;
  const parts: Record<string, number> = {};
  for (const entry of iterations) {
    const iteration = expectObject(entry, 'A `usage.iterations` entry');
    const kind =
      typeof iteration.type === 'string' && /^[a-z_]{1,40}$/.test(iteration.type) ? iteration.type : 'other';
    const spent =
      (tokenCount(iteration.input_tokens, 'An iteration `input_tokens`') ?? 0) +
      (tokenCount(iteration.cache_creation_input_tokens, 'An iteration `cache_creation_input_tokens`') ?? 0) +
      (tokenCount(iteration.cache_read_input_tokens, 'An iteration `cache_read_input_tokens`') ?? 0);
    const made = tokenCount(iteration.output_tokens, 'An iteration `output_tokens`') ?? 0;
    input += spent;
    output += made;
    parts[`${kind}_input_tokens`] = (parts[`${kind}_input_tokens`] ?? 0) + spent;
    parts[`${kind}_output_tokens`] = (parts[`${kind}_output_tokens`] ?? 0) + made;
  }
  // A body whose iterations add up to less than its own top-level counts is read by the larger counts.
  return {
    input: Math.max(input, top.input),
    output: Math.max(output, top.output),
    details: { ...top.details, iteration_count: iterations.length, ...parts },
  };
}

/** Parse an Anthropic Messages body into an outcome. */
function parseMessage(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (root.type === 'error') return anthropicFailure(root, status);
  const blocks = expectArray(root.content, '`content`');
  const rawStop = optionalString(root.stop_reason, '`stop_reason`');
  const finish = rawStop === undefined ? undefined : (STOP_REASONS[rawStop] ?? 'other');
  const metadata = omitUndefined({
    model: optionalString(root.model, '`model`'),
    response_id: optionalString(root.id, '`id`'),
    finish_reason: finish,
    stop_sequence: optionalString(root.stop_sequence, '`stop_sequence`'),
  });
  const segments: (string | undefined)[] = [];
  const calls: Json[] = [];
  const thoughts: string[] = [];
  for (const entry of blocks) {
    const block = expectObject(entry, 'A content block');
    if (block.type === 'text' && typeof block.text === 'string') segments.push(block.text);
    else segments.push(undefined);
    // Thinking is reasoning, not the answer (docs/unified.md, "Reasoning"); its tokens are in output_tokens.
    if (block.type === 'thinking' && typeof block.thinking === 'string') thoughts.push(block.thinking);
    if (block.type === 'tool_use')
      calls.push(omitUndefined({ id: block.id, name: block.name, arguments: block.input }));
  }
  if (rawStop === 'refusal') {
    // Claude's streaming classifiers end a refused turn with stop_reason "refusal" and an explanation.
    const stopDetails = isJsonObject(root.stop_details) ? root.stop_details : {};
    const explanation = typeof stopDetails.explanation === 'string' ? stopDetails.explanation : undefined;
    return contentFiltered(
      explanation ?? 'The model refused to answer.',
      omitUndefined({ stop_details: root.stop_details }),
      metadata,
    );
  }
  if (rawStop === undefined) throw new ShapeError('The message has no `stop_reason`.');
  return {
    kind: 'success',
    content: joinTextBlocks(segments),
    usage: anthropicUsage(root.usage),
    metadata: omitUndefined({
      ...metadata,
      tool_calls: calls.length > 0 ? calls : undefined,
      reasoning: thoughts.join('') === '' ? undefined : thoughts.join(''),
    }),
  };
}

/** Fold Anthropic stream events into the final message; an `error` event ends the stream as a failure. */
function assembleMessageStream(events: readonly unknown[]): StreamAssembly {
  let message: Json | undefined;
  const blocks: Json[] = [];
  const partialJson: string[] = [];
  let stopped = false;
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    switch (item.type) {
      case 'error':
        return anthropicStreamError(item) ?? anthropicFailure(item, 200);
      case 'message_start':
        message = { ...expectObject(item.message, '`message_start.message`') };
        break;
      case 'content_block_start': {
        const index = streamIndex(item.index, blocks.length, '`content_block_start.index`');
        blocks[index] = { ...expectObject(item.content_block, '`content_block`') };
        break;
      }
      case 'content_block_delta': {
        const index = streamIndex(item.index, blocks.length - 1, '`content_block_delta.index`');
        const block = blocks[index];
        const delta = isJsonObject(item.delta) ? item.delta : {};
        if (block === undefined) throw new ShapeError('A delta arrived for a block that never started.');
        if (delta.type === 'text_delta') block.text = String(block.text ?? '') + String(delta.text ?? '');
        if (delta.type === 'thinking_delta')
          block.thinking = String(block.thinking ?? '') + String(delta.thinking ?? '');
        if (delta.type === 'input_json_delta')
          partialJson[index] = (partialJson[index] ?? '') + String(delta.partial_json ?? '');
        break;
      }
      case 'message_delta': {
        if (message === undefined) throw new ShapeError('message_delta arrived before message_start.');
        const delta = isJsonObject(item.delta) ? item.delta : {};
        Object.assign(
          message,
          omitUndefined({
            stop_reason: delta.stop_reason,
            stop_sequence: delta.stop_sequence,
            stop_details: delta.stop_details,
          }),
        );
        // message_delta usage is cumulative; it replaces the counts of message_start member by member. Its
        // input and cache counts are nullable ("not reported here"), so a null never erases a known count.
        if (isJsonObject(item.usage))
          message.usage = { ...(isJsonObject(message.usage) ? message.usage : {}), ...reported(item.usage) };
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (message === undefined || !stopped) throw new StreamCutError('The stream ended before message_stop.');
  blocks.forEach((block, index) => {
    const json = partialJson[index];
    if (block.type === 'tool_use' && json !== undefined)
      block.input = parseStreamedToolInput(json, 'tool_use');
  });
  return { kind: 'body', body: { ...message, content: blocks.filter(Boolean) } };
}

/** The members of an object that carry a value (neither `undefined` nor `null`). */
function reported(entries: Json): Json {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined && value !== null),
  );
}

/** `anthropic.messages`: the Anthropic Messages API. */
export const anthropicMessages: FormatSpec = {
  provider: 'anthropic',
  aiSdkProviders: ['anthropic.messages'],
  requestIdHeaders: ['request-id', 'x-request-id'],
  parseSuccess: (body, context) => parseMessage(body, context.status),
  parseError: (body, status, text) => anthropicFailure(body, status, text),
  assembleStream: assembleMessageStream,
  parseStreamError: anthropicStreamError,
};
