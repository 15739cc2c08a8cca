import { assembleFailure, assembleSuccess } from './assemble-output.js';
import { type HeadersLike, headerValue } from './header-value.js';
import { type EventStreamParse, parseEventStream } from './parse-event-stream.js';
import { anthropicMessages } from './providers/anthropic.js';
import { bedrockConverse } from './providers/bedrock.js';
import { bedrockInvoke } from './providers/bedrock-invoke.js';
import { cohereChat } from './providers/cohere.js';
import type { FormatSpec, ParseContext } from './providers/format-spec.js';
import { googleGenerateContent } from './providers/google.js';
import { googleImagen } from './providers/google-imagen.js';
import { googleVeo } from './providers/google-veo.js';
import { ollamaChat, ollamaGenerate } from './providers/ollama.js';
import {
  openAiChat,
  openAiImages,
  openAiSpeech,
  openAiTranscription,
  openAiVideos,
} from './providers/openai.js';
import { openAiCompatibleChat } from './providers/openai-compatible.js';
import { openAiCompletions } from './providers/openai-completions.js';
import { openAiResponses } from './providers/openai-responses.js';
import { openRouterChat } from './providers/openrouter.js';
import {
  type FailureOutcome,
  type Outcome,
  ShapeError,
  StreamCutError,
} from './providers/provider-outcome.js';
import { replicatePrediction } from './providers/replicate.js';
import { readBody } from './read-body.js';
import type { StreamLimitExceeded, StreamMeter } from './stream-limits.js';
import { traceIdOr } from './trace-id-from.js';
import type { UnifiedOutput } from './types.js';
import { PROVIDER_ID_PATTERN } from './validate-unified-output.js';

/** The registry: every wire format verdict normalizes, by its fixed name (see docs/unified.md, "Formats"). */
const FORMATS = {
  'openai.chat': openAiChat,
  'openai.responses': openAiResponses,
  'openai.images': openAiImages,
  'openai.speech': openAiSpeech,
  'openai.transcription': openAiTranscription,
  'openai.videos': openAiVideos,
  'anthropic.messages': anthropicMessages,
  'google.generate-content': googleGenerateContent,
  'google.imagen': googleImagen,
  'google.veo': googleVeo,
  'replicate.prediction': replicatePrediction,
  'openrouter.chat': openRouterChat,
  'openai-compatible.chat': openAiCompatibleChat,
  'bedrock.converse': bedrockConverse,
  'openai.completions': openAiCompletions,
  'cohere.chat': cohereChat,
  'ollama.chat': ollamaChat,
  'ollama.generate': ollamaGenerate,
  'bedrock.invoke': bedrockInvoke,
} as const satisfies Record<string, FormatSpec>;

/** The name of a wire format, fixed so that scripts can rely on it. */
export type UnifiedFormat = keyof typeof FORMATS;

/** Every format name, in a stable order. */
export const UNIFIED_FORMATS = Object.keys(FORMATS) as UnifiedFormat[];

/** The formats that {@link normalizeStream} accepts. */
export const STREAM_FORMATS = UNIFIED_FORMATS.filter((format) => 'assembleStream' in FORMATS[format]);

/** The formats whose streams may come in a binary framing (Bedrock's AWS event-stream), read as bytes. */
export const BINARY_STREAM_FORMATS = UNIFIED_FORMATS.filter(
  (format) => 'decodeBinaryStream' in FORMATS[format],
);

/** Formats by the AI SDK provider ids their entries claim: exact ids, and `*.suffix` patterns by their suffix. */
const AI_SDK_IDS = new Map<string, UnifiedFormat>();
const AI_SDK_SUFFIXES = new Map<string, UnifiedFormat>();
for (const format of UNIFIED_FORMATS) {
  for (const id of (FORMATS[format] as FormatSpec).aiSdkProviders ?? []) {
    const table = id.startsWith('*.') ? AI_SDK_SUFFIXES : AI_SDK_IDS;
    const key = id.startsWith('*.') ? id.slice(2) : id;
    if (!table.has(key)) table.set(key, format);
  }
}

/**
 * The format an AI SDK model speaks, by its provider id: `openai.chat` → `openai.chat`, `anthropic.messages` →
 * `anthropic.messages`, `groq.chat` → `openai-compatible.chat`. An id an entry names exactly wins over a
 * `*.chat` pattern; `undefined` for an id no entry claims.
 */
export function formatOfAiSdkProvider(id: unknown): UnifiedFormat | undefined {
  if (typeof id !== 'string') return undefined;
  const exact = AI_SDK_IDS.get(id);
  if (exact !== undefined) return exact;
  const dot = id.indexOf('.');
  return dot < 0 ? undefined : AI_SDK_SUFFIXES.get(id.slice(dot + 1));
}

/** The format of a provider's own API (`anthropic` → `anthropic.messages`): the first entry that names it. */
export function formatOfProvider(provider: unknown): UnifiedFormat | undefined {
  return UNIFIED_FORMATS.find((format) => FORMATS[format].provider === provider);
}

/** How a format is read: its entry of the registry. */
export function formatSpecOf(format: UnifiedFormat): FormatSpec {
  return FORMATS[format];
}

/** True when `name` is a format name of {@link UNIFIED_FORMATS}. */
export function isUnifiedFormat(name: unknown): name is UnifiedFormat {
  return typeof name === 'string' && Object.hasOwn(FORMATS, name);
}

/** True when `name` can label envelopes: a lowercase provider id such as `groq`, `deepseek` or `azure-openai`. */
export function isProviderId(name: unknown): name is string {
  return typeof name === 'string' && PROVIDER_ID_PATTERN.test(name);
}

/** The facts of one provider call that every normalizer takes besides the body. */
export interface NormalizeContext {
  /** The wire format of the body. */
  format: UnifiedFormat;
  /** The provider's HTTP status; 200 when absent. */
  status?: number | undefined;
  /** The provider's response headers (its request id goes to `metadata.provider_request_id`). */
  headers?: HeadersLike | undefined;
  /** Wall time of the call in milliseconds, copied to `metadata.latency_ms`. */
  latencyMs?: number | undefined;
  /** Trace id of the incoming request (see `traceIdFrom`); generated when absent. */
  traceId?: string | undefined;
  /** Provider id to report instead of the format's (for example `groq` for `openai-compatible.chat`). */
  provider?: string | undefined;
}

/** Input of {@link normalizeResponse}: the call's facts and the response body. */
export interface NormalizeResponseInput extends NormalizeContext {
  /** The body: text or bytes as received, or an already parsed JSON value. Speech bodies are bytes. */
  body: unknown;
}

/** Input of {@link normalizeStream}: the call's facts and the stream's events. */
export interface NormalizeStreamInput extends NormalizeContext {
  /**
   * The events' JSON payloads (parsed values or JSON text), or the raw captured stream: text (SSE, JSON lines, a
   * JSON array) or bytes (the same text as UTF-8, or a binary framing such as Bedrock's AWS event-stream).
   */
  events: readonly unknown[] | string | Uint8Array;
}

/**
 * Turn one provider response into the unified envelope (see docs/unified.md): a success with content, usage and media, or a
 * failure whose code follows the error taxonomy. Never throws: a body it cannot understand becomes an
 * `INVALID_PROVIDER_RESPONSE` failure.
 * @example
 * const output = normalizeResponse({ format: 'openai.chat', status: res.status, headers: res.headers,
 *   body: await res.text(), traceId: traceIdFrom(request.headers) });
 */
export function normalizeResponse(input: NormalizeResponseInput): UnifiedOutput {
  return run(input, (spec, context) => {
    const { status } = context;
    let body = input.body;
    if (body instanceof ArrayBuffer) body = new Uint8Array(body);
    if (
      spec.binaryBody === true &&
      status < 300 &&
      (body instanceof Uint8Array || typeof body === 'string')
    ) {
      return spec.parseSuccess(body, context);
    }
    let text = '';
    if (typeof body === 'string' || body instanceof Uint8Array) {
      text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      const read = readBody(body);
      if (read.ok) body = read.value;
      else if (status >= 400) return spec.parseError(undefined, status, text, context.headers);
      else if (spec.parseText !== undefined && status < 300 && text.trim() !== '')
        return spec.parseText(text, context);
      else throw new ShapeError(read.message);
    }
    if (status >= 400) return spec.parseError(body, status, text, context.headers);
    if (status < 200 || status >= 300) throw new ShapeError(`HTTP ${status} is not a final answer.`);
    return spec.parseSuccess(body, context);
  });
}

/**
 * Turn a captured stream (OpenAI Chat chunks, OpenAI Responses events, Anthropic events, Gemini chunks) into the
 * same envelope as the equivalent non-streaming response; an error event anywhere yields a failure, and a stream
 * that stops before its end-of-answer event yields `INVALID_PROVIDER_RESPONSE` with `details.reason:
 * "no_end_of_answer"`, retryable. Never throws.
 */
export function normalizeStream(input: NormalizeStreamInput): UnifiedOutput {
  return run(input, (spec, context) => {
    if (spec.assembleStream === undefined) return notStreamed(input.format);
    let raw = input.events;
    if (raw instanceof Uint8Array) {
      // Bytes in a binary framing (Bedrock's AWS event-stream) decode to events; other bytes are UTF-8 text.
      const binary =
        context.status < 400 && spec.decodeBinaryStream !== undefined && spec.isBinaryStream?.(raw) === true;
      raw = binary ? (spec.decodeBinaryStream?.(raw) ?? []) : new TextDecoder().decode(raw);
    }
    // A stream request refused before streaming answers with an ordinary error body (often pretty-printed JSON or
    // an HTML page from a proxy), read like the error body of normalizeResponse.
    if (context.status >= 400) return refusedStream(spec, raw, context.status, context.headers);
    if (typeof raw === 'string') return assembleParsed(spec, context, parseEventStream(raw));
    const events = raw.flatMap((event) => {
      if (typeof event !== 'string') return [event];
      if (event.trim() === '[DONE]') return [];
      const read = readBody(event);
      if (!read.ok) throw new ShapeError(`A stream event is not JSON: ${read.message}`);
      return [read.value];
    });
    return assembleParsed(spec, context, { ok: true, events });
  });
}

/**
 * The envelope of a stream already read into its events by the event-stream parser (the gateway's live path
 * reads them incrementally with `createEventStreamParser`): the same folding as {@link normalizeStream}, for a
 * 2xx stream. Never throws.
 */
export function normalizeParsedStream(input: NormalizeContext & { parsed: EventStreamParse }): UnifiedOutput {
  return run(input, (spec, context) =>
    spec.assembleStream === undefined
      ? notStreamed(input.format)
      : assembleParsed(spec, context, input.parsed),
  );
}

function notStreamed(format: UnifiedFormat): FailureOutcome & { system: true } {
  return invalidRequest(`The format ${format} does not stream; use normalizeResponse.`);
}

/** The body or failure of a parsed stream; throws ShapeError when it is not understood. */
function assembleParsed(spec: FormatSpec, context: ParseContext, parsed: EventStreamParse): Outcome {
  if (!parsed.ok) throw new ShapeError(parsed.message);
  const assembly = (spec.assembleStream as NonNullable<FormatSpec['assembleStream']>)(parsed.events);
  return assembly.kind === 'body' ? spec.parseSuccess(assembly.body, context) : assembly;
}

/** The failure of a stream refused with an HTTP error status: its body is the whole text, or the first event. */
function refusedStream(
  spec: FormatSpec,
  events: readonly unknown[] | string,
  status: number,
  headers: HeadersLike | undefined,
): FailureOutcome {
  if (typeof events !== 'string') {
    const first = events[0];
    if (typeof first !== 'string') return spec.parseError(first, status, '', headers);
    const read = readBody(first);
    return spec.parseError(read.ok ? read.value : undefined, status, first, headers);
  }
  const whole = readBody(events);
  if (whole.ok) return spec.parseError(whole.value, status, events, headers);
  const parsed = parseEventStream(events);
  return spec.parseError(parsed.ok ? parsed.events[0] : undefined, status, events, headers);
}

/** The failure of a parser that threw something other than a ShapeError: a bug on verdict's side. */
function parserBug(format: UnifiedFormat, error: unknown, metadata: Record<string, unknown>): UnifiedOutput {
  const name = error instanceof Error ? error.name : typeof error;
  const reason = error instanceof Error ? error.message : String(error);
  return assembleFailure(
    'system',
    'INTERNAL_ERROR',
    `verdict failed to read this ${format} response; this is a bug in verdict, not in the response (${name}: ${reason}).`,
    { format, error: name },
    metadata,
  );
}

function invalidRequest(message: string): FailureOutcome & { system: true } {
  return { kind: 'failure', code: 'VALIDATION_ERROR', message, details: {}, system: true };
}

type Parse = (spec: FormatSpec, context: ParseContext) => Outcome | (FailureOutcome & { system: true });

function run(input: NormalizeContext, parse: Parse): UnifiedOutput {
  const traceId = traceIdOr(input.traceId);
  if (!isUnifiedFormat(input.format)) {
    return assembleFailure(
      'system',
      'VALIDATION_ERROR',
      `Unknown format ${JSON.stringify(input.format)}; expected one of ${UNIFIED_FORMATS.join(', ')}.`,
      {},
      { trace_id: traceId },
    );
  }
  const spec: FormatSpec = FORMATS[input.format];
  const provider = isProviderId(input.provider) ? input.provider : spec.provider;
  const status = input.status ?? 200;
  const base: Record<string, unknown> = { trace_id: traceId };
  const requestId = spec.requestIdHeaders
    .map((name) => headerValue(input.headers, name)?.trim())
    .find((value) => value);
  if (requestId !== undefined) base.provider_request_id = requestId;
  if (typeof input.latencyMs === 'number' && Number.isFinite(input.latencyMs) && input.latencyMs >= 0) {
    base.latency_ms = input.latencyMs;
  }
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    return assembleFailure(
      'system',
      'VALIDATION_ERROR',
      `HTTP status ${String(status)} is not a status code.`,
      {},
      base,
    );
  }
  let outcome: ReturnType<Parse>;
  try {
    outcome = parse(spec, { status, headers: input.headers });
  } catch (error) {
    // Parsers throw ShapeError for bodies they cannot understand: the provider's fault. Anything else thrown is a
    // bug of the parser, said as one; normalizing never throws (see docs/unified.md).
    if (!(error instanceof ShapeError)) return parserBug(input.format, error, base);
    if (error instanceof StreamCutError) {
      return assembleFailure(
        provider,
        'INVALID_PROVIDER_RESPONSE',
        `The ${input.format} stream ended before the answer was complete. ${error.message}`,
        { http_status: status, reason: 'no_end_of_answer', is_retryable: true },
        base,
      );
    }
    return assembleFailure(
      provider,
      'INVALID_PROVIDER_RESPONSE',
      `The ${input.format} response is not understood. ${error.message}`,
      { http_status: status },
      base,
    );
  }
  if (outcome.kind === 'failure') {
    const source = 'system' in outcome ? 'system' : provider;
    return assembleFailure(source, outcome.code, outcome.message, outcome.details ?? {}, {
      ...base,
      ...outcome.metadata,
      ...base,
    });
  }
  // The call's own facts (trace id, provider request id, latency) come first and win over anything a parser found.
  return assembleSuccess(provider, outcome.content, outcome.usage, outcome.media ?? [], {
    ...base,
    ...outcome.metadata,
    ...base,
  });
}

/** Input of {@link normalizeLimitExceeded}: the call's facts and the bound its answer passed. */
export interface NormalizeLimitInput extends NormalizeContext {
  /** The bound the answer passed, as a {@link StreamMeter} (or a body size check) reported it. */
  exceeded: StreamLimitExceeded;
}

/**
 * The envelope for an answer that was dropped because it passed a reading bound (see docs/unified.md,
 * "Bounds"): an `INVALID_PROVIDER_RESPONSE` failure whose `details.limit` names the bound and
 * `details.limit_value` gives its value. Never throws.
 */
export function normalizeLimitExceeded(input: NormalizeLimitInput): UnifiedOutput {
  const { exceeded } = input;
  return run(input, (_spec, context) => ({
    kind: 'failure',
    code: 'INVALID_PROVIDER_RESPONSE',
    message: `The ${input.format} answer was not read to its end. ${exceeded.message}`,
    details: { http_status: context.status, limit: exceeded.limit, limit_value: exceeded.value },
  }));
}
