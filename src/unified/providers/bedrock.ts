import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { HeadersLike } from '../header-value.js';
import { headerValue } from '../header-value.js';
import type { FinishReason, MediaItem } from '../types.js';
import { decodeEventStream, looksLikeEventStream } from './aws-event-stream.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import {
  bodySnippet,
  codeForProviderStatus,
  contentFiltered,
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
  type UnifiedErrorCode,
} from './provider-outcome.js';

/** Converse `stopReason` values that end a usable turn, and what they normalize to. */
const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
};

/** Converse `stopReason` values that mean a guardrail or the model's content filter blocked the turn. */
const FILTERED_STOP_REASONS = new Set(['guardrail_intervened', 'content_filtered']);

/** Converse `stopReason` values that mean the model failed to produce a usable turn. */
const FAILING_STOP_REASONS = new Set(['malformed_model_output', 'malformed_tool_use']);

/**
 * Bedrock Runtime exception names (the `x-amzn-errortype` header, `__type` in the body, or the key of a stream
 * exception event) and the code each stands for; the Bedrock API reference lists them per operation.
 */
const EXCEPTIONS: Readonly<Record<string, UnifiedErrorCode>> = {
  validationexception: 'VALIDATION_ERROR',
  conflictexception: 'VALIDATION_ERROR',
  accessdeniedexception: 'PERMISSION_DENIED',
  unrecognizedclientexception: 'AUTHENTICATION_ERROR',
  invalidsignatureexception: 'AUTHENTICATION_ERROR',
  incompletesignatureexception: 'AUTHENTICATION_ERROR',
  missingauthenticationtokenexception: 'AUTHENTICATION_ERROR',
  expiredtokenexception: 'AUTHENTICATION_ERROR',
  resourcenotfoundexception: 'NOT_FOUND',
  throttlingexception: 'RATE_LIMITED',
  servicequotaexceededexception: 'RATE_LIMITED',
  modeltimeoutexception: 'PROVIDER_TIMEOUT',
  modelnotreadyexception: 'PROVIDER_UNAVAILABLE',
  serviceunavailableexception: 'PROVIDER_UNAVAILABLE',
  internalserverexception: 'PROVIDER_ERROR',
  modelerrorexception: 'PROVIDER_ERROR',
  modelstreamerrorexception: 'PROVIDER_ERROR',
};

/** The exception name of an `x-amzn-errortype` value or `__type` (`ThrottlingException:http://…`, `ns#Name`). */
function exceptionName(value: string | undefined): string | undefined {
  const name = value?.split(':')[0]?.split('#').at(-1)?.trim();
  return name === undefined || name === '' ? undefined : name;
}

/** The failure a Bedrock error (`{ message }` with the exception in a header or `__type`) stands for. */
export function bedrockFailure(
  body: unknown,
  status: number,
  text: string,
  headers: HeadersLike | undefined,
  streamed?: string,
): FailureOutcome {
  const error = isJsonObject(body) ? body : {};
  const name =
    streamed ??
    exceptionName(headerValue(headers, 'x-amzn-errortype')) ??
    exceptionName(typeof error.__type === 'string' ? error.__type : undefined);
  const message =
    typeof error.message === 'string'
      ? error.message
      : typeof error.Message === 'string'
        ? error.Message
        : bodySnippet(text);
  // A model's own error relayed mid-stream carries the status the model answered with.
  const original = typeof error.originalStatusCode === 'number' ? error.originalStatusCode : undefined;
  const effective =
    status < 400 && original !== undefined && original >= 400 && original <= 599 ? original : status;
  const mapped = name === undefined ? undefined : EXCEPTIONS[name.toLowerCase()];
  const code =
    name?.toLowerCase() === 'modelstreamerrorexception' && original !== undefined && original >= 400
      ? codeForProviderStatus(original)
      : (mapped ?? (effective < 400 ? 'PROVIDER_ERROR' : undefined));
  const details = omitUndefined({
    provider_type: name,
    original_status: original,
    original_message: typeof error.originalMessage === 'string' ? error.originalMessage : undefined,
    provider_error: isJsonObject(body) ? body : undefined,
  });
  return failureForStatus(effective, message, details, code);
}

/**
 * Converse usage. Whether `inputTokens` already counts cache reads and writes differs by model; the body's own
 * `totalTokens` decides, as for OpenAI-style reasoning counts: when it equals input + output + cache tokens, the
 * cache tokens are added to the input.
 */
function bedrockUsage(value: unknown): ReportedUsage | undefined {
  if (value === undefined || value === null) return undefined;
  const usage = expectObject(value, '`usage`');
  const input = tokenCount(usage.inputTokens, '`usage.inputTokens`') ?? 0;
  const output = tokenCount(usage.outputTokens, '`usage.outputTokens`') ?? 0;
  const total = tokenCount(usage.totalTokens, '`usage.totalTokens`');
  const read = tokenCount(usage.cacheReadInputTokens, '`usage.cacheReadInputTokens`');
  const written = tokenCount(usage.cacheWriteInputTokens, '`usage.cacheWriteInputTokens`');
  const cached = (read ?? 0) + (written ?? 0);
  const separate = cached > 0 && total === input + output + cached;
  return {
    input: separate ? input + cached : input,
    output,
    details: omitUndefined({
      total_tokens: total,
      uncached_input_tokens: separate ? input : undefined,
      cache_read_input_tokens: read,
      cache_write_input_tokens: written,
    }),
  };
}

/** Parse a Converse response body into an outcome. */
export function parseConverse(body: unknown, status: number, headers: HeadersLike | undefined): Outcome {
  const root = expectObject(body, 'The body');
  if (root.output === undefined && (root.message !== undefined || root.Message !== undefined))
    return bedrockFailure(root, status < 400 ? 502 : status, '', headers);
  const output = expectObject(root.output, '`output`');
  const message = expectObject(output.message, '`output.message`');
  const blocks = expectArray(message.content, '`output.message.content`');
  const stopReason = optionalString(root.stopReason, '`stopReason`');
  if (stopReason === undefined) throw new ShapeError('The response has no `stopReason`.');
  const metrics = isJsonObject(root.metrics) ? root.metrics : {};
  const metadata = omitUndefined({
    provider_latency_ms: typeof metrics.latencyMs === 'number' ? metrics.latencyMs : undefined,
    stop_reason: stopReason,
  });
  const segments: (string | undefined)[] = [];
  const calls: Json[] = [];
  const media: MediaItem[] = [];
  for (const entry of blocks) {
    const block = expectObject(entry, 'A content block');
    if (typeof block.text === 'string') segments.push(block.text);
    else if (isJsonObject(block.citationsContent) && Array.isArray(block.citationsContent.content)) {
      segments.push(
        block.citationsContent.content
          .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
          .join(''),
      );
    } else {
      // Any other block (a tool call, reasoning, an image) separates the texts around it; reasoning is not the
      // answer, and its tokens are already in outputTokens.
      segments.push(undefined);
      if (isJsonObject(block.toolUse)) {
        const use = block.toolUse;
        calls.push(omitUndefined({ id: use.toolUseId, name: use.name, arguments: use.input }));
      }
      const image = isJsonObject(block.image) ? block.image : undefined;
      const source = isJsonObject(image?.source) ? image.source : undefined;
      if (typeof source?.bytes === 'string')
        media.push({ data: source.bytes, media_type: `image/${String(image?.format ?? 'png')}` });
    }
  }
  const text = joinTextBlocks(segments);
  if (FILTERED_STOP_REASONS.has(stopReason)) {
    // The guardrail's blocked-output message stands in the output; the trace says which policy intervened.
    const details = omitUndefined({ provider_stop_reason: stopReason, trace: root.trace });
    return contentFiltered(
      text.trim() === '' ? `The output was blocked (${stopReason}).` : text,
      details,
      metadata,
    );
  }
  if (FAILING_STOP_REASONS.has(stopReason)) {
    return {
      kind: 'failure',
      code: 'PROVIDER_ERROR',
      message: `The model failed to finish its turn (${stopReason}).`,
      details: { provider_stop_reason: stopReason },
      metadata: { ...metadata, finish_reason: 'error' },
    };
  }
  return {
    kind: 'success',
    content: text,
    usage: bedrockUsage(root.usage),
    media,
    metadata: omitUndefined({
      ...metadata,
      finish_reason: STOP_REASONS[stopReason] ?? 'other',
      tool_calls: calls.length > 0 ? calls : undefined,
    }),
  };
}

/** The exception keys of ConverseStream events (the stream's error members). */
const STREAM_EXCEPTIONS = [
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
] as const;

interface BlockDraft {
  text?: string;
  toolUse?: { toolUseId?: unknown; name?: unknown; input: string };
  reasoning?: boolean;
}

/** The failure of a ConverseStream exception event (`{ throttlingException: { message } }`…), else `undefined`. */
function converseStreamError(event: unknown): FailureOutcome | undefined {
  if (!isJsonObject(event)) return undefined;
  const item = keyedEvent(event);
  for (const key of STREAM_EXCEPTIONS) {
    if (item[key] !== undefined) return bedrockFailure(item[key], 200, '', undefined, key);
  }
  if (isJsonObject(item.streamError)) {
    const { code, message } = item.streamError;
    return bedrockFailure({ message }, 200, '', undefined, typeof code === 'string' ? code : undefined);
  }
  return undefined;
}

/**
 * Fold ConverseStream events (decoded, one object per event keyed by its type, as the AWS SDKs yield them) into
 * the equivalent Converse body; an exception event ends the stream as a failure.
 */
export function assembleConverseStream(events: readonly unknown[]): StreamAssembly {
  const drafts: BlockDraft[] = [];
  let stopReason: unknown;
  let stopped = false;
  let started = false;
  let metadataEvent: Json = {};
  for (const event of events) {
    const item = keyedEvent(expectObject(event, 'A stream event'));
    const failure = converseStreamError(item);
    if (failure !== undefined) return failure;
    if (isJsonObject(item.messageStart)) started = true;
    if (isJsonObject(item.contentBlockStart)) {
      const index = blockIndex(item.contentBlockStart, drafts.length);
      const start = isJsonObject(item.contentBlockStart.start) ? item.contentBlockStart.start : {};
      const draft = drafts[index] ?? {};
      if (isJsonObject(start.toolUse))
        draft.toolUse = { toolUseId: start.toolUse.toolUseId, name: start.toolUse.name, input: '' };
      drafts[index] = draft;
    }
    if (isJsonObject(item.contentBlockDelta)) {
      const index = blockIndex(item.contentBlockDelta, drafts.length);
      const delta = isJsonObject(item.contentBlockDelta.delta) ? item.contentBlockDelta.delta : {};
      const draft = drafts[index] ?? {};
      drafts[index] = draft;
      if (typeof delta.text === 'string') draft.text = (draft.text ?? '') + delta.text;
      if (isJsonObject(delta.toolUse) && typeof delta.toolUse.input === 'string') {
        draft.toolUse ??= { input: '' };
        draft.toolUse.input += delta.toolUse.input;
      }
      if (isJsonObject(delta.reasoningContent)) draft.reasoning = true;
    }
    if (isJsonObject(item.messageStop)) {
      stopReason = item.messageStop.stopReason;
      stopped = true;
    }
    if (isJsonObject(item.metadata)) metadataEvent = item.metadata;
  }
  if (!started && !stopped) throw new ShapeError('The stream holds no ConverseStream event.');
  if (!stopped) throw new StreamCutError('The stream ended before messageStop.');
  const content = drafts.filter(Boolean).map((draft): Json => {
    if (draft.toolUse !== undefined) {
      const { toolUseId, name, input } = draft.toolUse;
      return { toolUse: { toolUseId, name, input: parseStreamedToolInput(input, 'toolUse') } };
    }
    if (draft.reasoning === true && draft.text === undefined) return { reasoningContent: {} };
    return { text: draft.text ?? '' };
  });
  return {
    kind: 'body',
    body: omitUndefined({
      output: { message: { role: 'assistant', content } },
      stopReason,
      usage: metadataEvent.usage,
      metrics: metadataEvent.metrics,
      trace: metadataEvent.trace,
    }),
  };
}

/** The ConverseStream event members; an event object holds one of them. */
const EVENT_KEYS = [
  'messageStart',
  'contentBlockStart',
  'contentBlockDelta',
  'contentBlockStop',
  'messageStop',
  'metadata',
  'streamError',
  ...STREAM_EXCEPTIONS,
];

/**
 * An event in the SDKs' keyed form. A capture of bare payloads (the event-stream payloads without their
 * `:event-type` header) is keyed by its shape, which differs for every event type.
 */
function keyedEvent(item: Json): Json {
  if (EVENT_KEYS.some((key) => item[key] !== undefined)) return item;
  if (item.delta !== undefined) return { contentBlockDelta: item };
  if (item.start !== undefined) return { contentBlockStart: item };
  if (item.stopReason !== undefined) return { messageStop: item };
  if (item.usage !== undefined || item.metrics !== undefined) return { metadata: item };
  if (item.role !== undefined) return { messageStart: item };
  if (item.contentBlockIndex !== undefined) return { contentBlockStop: item };
  return item;
}

function blockIndex(event: Json, fallback: number): number {
  return streamIndex(event.contentBlockIndex, fallback, '`contentBlockIndex`');
}

/**
 * `bedrock.converse`: Amazon Bedrock's Converse API, and ConverseStream given as its decoded events (JSON array
 * or one JSON event per line) or as the raw `application/vnd.amazon.eventstream` body.
 */
export const bedrockConverse: FormatSpec = {
  provider: 'bedrock',
  aiSdkProviders: ['amazon-bedrock'],
  // An image request the content filter refused: a 200 with `"status": "Request Moderated"`.
  thrownMessages: [{ startsWith: 'Amazon Bedrock request was moderated', code: 'CONTENT_FILTERED' }],
  requestIdHeaders: ['x-amzn-requestid', 'x-amz-request-id'],
  parseSuccess: (body, context) => parseConverse(body, context.status, context.headers),
  parseError: (body, status, text, headers) => bedrockFailure(body, status, text, headers),
  assembleStream: assembleConverseStream,
  parseStreamError: converseStreamError,
  decodeBinaryStream: decodeEventStream,
  isBinaryStream: looksLikeEventStream,
};
