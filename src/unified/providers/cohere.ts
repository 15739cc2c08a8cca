import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { UnifiedErrorCode } from '../error-taxonomy.js';
import type { FinishReason } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import {
  bodySnippet,
  contentFiltered,
  expectArray,
  expectObject,
  type FailureOutcome,
  failureForStatus,
  type Json,
  joinTextBlocks,
  type Outcome,
  optionalLabel,
  optionalString,
  type ReportedUsage,
  ShapeError,
  StreamCutError,
  streamIndex,
  tokenCount,
} from './provider-outcome.js';

/** Cohere `finish_reason` values (v2 and v1) that end a usable turn, and what they normalize to. */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  USER_CANCEL: 'other',
};

/** Cohere `finish_reason` values that mean the turn failed: v1's toxic-output and limit errors among them. */
const FAILING_FINISH_REASONS: Readonly<Record<string, UnifiedErrorCode>> = {
  ERROR: 'PROVIDER_ERROR',
  ERROR_LIMIT: 'PROVIDER_ERROR',
  TIMEOUT: 'PROVIDER_TIMEOUT',
  ERROR_TOXIC: 'CONTENT_FILTERED',
};

/** The failure a Cohere error body (`{ "id": …, "message": … }`) stands for; the status decides its code. */
function cohereFailure(body: unknown, status: number, text: string): FailureOutcome {
  const error = isJsonObject(body) ? body : {};
  const message = typeof error.message === 'string' ? error.message : bodySnippet(text);
  return failureForStatus(
    status,
    message,
    omitUndefined({ provider_error: isJsonObject(body) ? body : undefined }),
  );
}

/**
 * Cohere usage: `tokens` counts what the model read and wrote (the prompt template included); `billed_units`
 * counts what is charged. The envelope counts the tokens, and falls back on the billed units when a body has no
 * `tokens`; both go to `usage_details`. v1 bodies carry the same object as `meta`.
 */
function cohereUsage(value: unknown): ReportedUsage | undefined {
  if (!isJsonObject(value)) return undefined;
  const tokens = isJsonObject(value.tokens) ? value.tokens : {};
  const billed = isJsonObject(value.billed_units) ? value.billed_units : {};
  const input = tokenCount(tokens.input_tokens, '`tokens.input_tokens`');
  const output = tokenCount(tokens.output_tokens, '`tokens.output_tokens`');
  const billedInput = tokenCount(billed.input_tokens, '`billed_units.input_tokens`');
  const billedOutput = tokenCount(billed.output_tokens, '`billed_units.output_tokens`');
  if ([input, output, billedInput, billedOutput].every((count) => count === undefined)) return undefined;
  return {
    input: input ?? billedInput ?? 0,
    output: output ?? billedOutput ?? 0,
    details: omitUndefined({
      billed_input_tokens: billedInput,
      billed_output_tokens: billedOutput,
      search_units: tokenCount(billed.search_units, '`billed_units.search_units`'),
    }),
  };
}

/** Tool calls of a v2 message (`{ id, type, function: { name, arguments } }`) or v1 body (`{ name, parameters }`). */
function cohereToolCalls(value: unknown): Json[] | undefined {
  if (value === undefined || value === null) return undefined;
  const calls = expectArray(value, '`tool_calls`').map((item) => {
    const call = expectObject(item, 'A tool call');
    if (isJsonObject(call.function)) {
      return omitUndefined({ id: call.id, name: call.function.name, arguments: call.function.arguments });
    }
    return omitUndefined({ name: call.name, arguments: call.parameters });
  });
  return calls.length > 0 ? calls : undefined;
}

/** The outcome of a finished turn, from its text, calls, finish reason and usage (both API versions). */
function turnOutcome(
  text: string,
  calls: Json[] | undefined,
  rawFinish: string | undefined,
  usage: ReportedUsage | undefined,
  facts: Record<string, unknown>,
): Outcome {
  const finish: FinishReason | undefined =
    rawFinish === undefined ? undefined : (FINISH_REASONS[rawFinish] ?? 'other');
  const metadata = omitUndefined({ ...facts, finish_reason: finish });
  const failing = rawFinish === undefined ? undefined : FAILING_FINISH_REASONS[rawFinish];
  if (failing === 'CONTENT_FILTERED') {
    return contentFiltered(
      'Cohere stopped the output as toxic.',
      { provider_finish_reason: rawFinish },
      metadata,
    );
  }
  if (failing !== undefined) {
    const failure = failureForStatus(
      200,
      `The generation ended with finish_reason ${rawFinish}.`,
      { provider_finish_reason: rawFinish },
      failing,
    );
    return { ...failure, metadata: { ...metadata, finish_reason: 'error' } };
  }
  return {
    kind: 'success',
    content: text,
    usage,
    metadata: omitUndefined({ ...metadata, tool_calls: calls }),
  };
}

/** Parse a v2 `/v2/chat` body: `message.content` blocks, `finish_reason`, `usage`. */
function parseV2(root: Json): Outcome {
  const message = expectObject(root.message, '`message`');
  const blocks = message.content === undefined || message.content === null ? [] : message.content;
  const segments = expectArray(blocks, '`message.content`').map((entry) => {
    const block = expectObject(entry, 'A content block');
    // Reasoning models add `thinking` blocks; they are not the answer.
    if (block.type === 'thinking') return undefined;
    return block.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
  });
  const calls = cohereToolCalls(message.tool_calls);
  const text = joinTextBlocks(segments);
  const rawFinish = optionalString(root.finish_reason, '`finish_reason`');
  if (rawFinish === undefined) throw new ShapeError('The body has no `finish_reason`.');
  if (text === '' && calls === undefined && FAILING_FINISH_REASONS[rawFinish] === undefined)
    throw new ShapeError('The message has neither text nor tool calls.');
  return turnOutcome(text, calls, rawFinish, cohereUsage(root.usage), {
    response_id: optionalLabel(root.id, '`id`'),
    tool_plan: optionalLabel(message.tool_plan, '`message.tool_plan`'),
    citation_count: Array.isArray(message.citations) ? message.citations.length : undefined,
  });
}

/** Parse a v1 `/v1/chat` body: `text`, `finish_reason`, `meta`. */
function parseV1(root: Json): Outcome {
  const text = optionalString(root.text, '`text`');
  if (text === undefined) throw new ShapeError('The body has no `text`.');
  return turnOutcome(
    text,
    cohereToolCalls(root.tool_calls),
    optionalString(root.finish_reason, '`finish_reason`'),
    cohereUsage(root.meta),
    {
      response_id: optionalLabel(root.response_id, '`response_id`'),
      generation_id: optionalLabel(root.generation_id, '`generation_id`'),
      citation_count: Array.isArray(root.citations) ? root.citations.length : undefined,
    },
  );
}

/** Parse a Cohere chat body of either API version (v2 has `message`, v1 has `text`). */
function parseCohereChat(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (root.message !== undefined && !isJsonObject(root.message) && root.text === undefined)
    return cohereFailure(root, status, '');
  if (isJsonObject(root.message)) return parseV2(root);
  if (root.text !== undefined) return parseV1(root);
  throw new ShapeError('The body is neither a v2 chat response (`message`) nor a v1 one (`text`).');
}

interface CallDraft {
  id?: unknown;
  name: string;
  arguments: string;
}

/** The `delta.message` of a v2 stream event, or an empty object. */
function deltaMessage(event: Json): Json {
  const delta = isJsonObject(event.delta) ? event.delta : {};
  return isJsonObject(delta.message) ? delta.message : {};
}

/**
 * Fold a v2 chat stream (`message-start`, `content-delta`, `tool-call-start` / `-delta`, `message-end`) into the
 * equivalent v2 body. v1 streams (`event_type` `text-generation` … `stream-end`) end with the whole v1 response
 * in `stream-end`, which is the body. A `message-end` with an `error`, or v1's `stream-end` with
 * `finish_reason: ERROR`, ends the stream as a failure.
 */
function assembleCohereStream(events: readonly unknown[]): StreamAssembly {
  let id: unknown;
  const texts: string[] = [];
  let plan = '';
  const calls: CallDraft[] = [];
  let v1Text = '';
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    if (typeof item.event_type === 'string') {
      if (item.event_type === 'text-generation' && typeof item.text === 'string') v1Text += item.text;
      if (item.event_type === 'stream-end') {
        const response = isJsonObject(item.response) ? item.response : {};
        return {
          kind: 'body',
          body: { text: v1Text, ...response, finish_reason: item.finish_reason ?? response.finish_reason },
        };
      }
      continue;
    }
    const message = deltaMessage(item);
    const index = streamIndex(item.index, 0, "A stream event's `index`");
    switch (item.type) {
      case 'message-start':
        id = item.id;
        break;
      case 'content-start':
      case 'content-delta': {
        const content = isJsonObject(message.content) ? message.content : {};
        if (content.type === 'thinking' || content.thinking !== undefined) break;
        if (typeof content.text === 'string') texts[index] = (texts[index] ?? '') + content.text;
        break;
      }
      case 'tool-plan-delta':
        if (typeof message.tool_plan === 'string') plan += message.tool_plan;
        break;
      case 'tool-call-start':
      case 'tool-call-delta': {
        const call = isJsonObject(message.tool_calls) ? message.tool_calls : {};
        const fn = isJsonObject(call.function) ? call.function : {};
        const draft = calls[index] ?? { name: '', arguments: '' };
        calls[index] = draft;
        if (call.id !== undefined) draft.id = call.id;
        if (typeof fn.name === 'string') draft.name += fn.name;
        if (typeof fn.arguments === 'string') draft.arguments += fn.arguments;
        break;
      }
      case 'message-end': {
        const delta = isJsonObject(item.delta) ? item.delta : {};
        if (typeof delta.error === 'string' && delta.error !== '') {
          return failureForStatus(200, delta.error, { provider_finish_reason: delta.finish_reason });
        }
        const toolCalls = calls.filter(Boolean).map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
        return {
          kind: 'body',
          body: omitUndefined({
            id,
            finish_reason: delta.finish_reason,
            message: omitUndefined({
              role: 'assistant',
              content: texts.filter((text) => text !== undefined).map((text) => ({ type: 'text', text })),
              tool_plan: plan === '' ? undefined : plan,
              tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
            }),
            usage: delta.usage,
          }),
        };
      }
      default:
        break;
    }
  }
  throw new StreamCutError('The stream ended before `message-end` (v2) or `stream-end` (v1).');
}

/** `cohere.chat`: Cohere's Chat API, v2 (`/v2/chat`) and v1 (`/v1/chat`) bodies and their streams. */
export const cohereChat: FormatSpec = {
  provider: 'cohere',
  aiSdkProviders: ['cohere.chat'],
  requestIdHeaders: ['x-request-id'],
  parseSuccess: (body, context) => parseCohereChat(body, context.status),
  parseError: (body, status, text) => cohereFailure(body, status, text),
  assembleStream: assembleCohereStream,
};
