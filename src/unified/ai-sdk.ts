/**
 * verdict/unified/ai-sdk: turn results and errors of the Vercel AI SDK (`ai`) into unified output envelopes.
 * It reads results structurally and recognizes errors by their `name`, so it has no runtime import of `ai`:
 * `ai` is an optional peer dependency and the rest of `verdict/unified` never needs it.
 */
import { assembleFailure, assembleSuccess } from './assemble-output.js';
import { canonicalMediaType } from './classify-media.js';
import { codeForProviderStatus, type UnifiedErrorCode } from './error-taxonomy.js';
import { type HeadersLike, headerValue } from './header-value.js';
import { openAiFailure } from './providers/openai-failure.js';
import { compact, type ReportedUsage, usageDetails } from './providers/provider-outcome.js';
import { readBody } from './read-body.js';
import { traceIdOr } from './trace-id-from.js';
import type { FinishReason, MediaItem, UnifiedFailure, UnifiedOutput } from './types.js';
import { PROVIDER_ID_PATTERN } from './validate-unified-output.js';

/** Facts the AI SDK results do not carry: who the provider is, the trace id and the latency. */
export interface AiSdkOptions {
  /** Provider id; by default the first key of `providerMetadata`, else the host of the failed call, else `ai-sdk`. */
  provider?: string | undefined;
  /** Trace id of the incoming request; generated when absent. */
  traceId?: string | undefined;
  /** Wall time of the call in milliseconds. */
  latencyMs?: number | undefined;
}

/** The part of AI SDK `LanguageModelUsage` (and image usage) the envelope needs. */
export interface AiSdkUsage {
  /** All input tokens, cached ones included. */
  inputTokens?: number | undefined;
  /** All output tokens, reasoning ones included. */
  outputTokens?: number | undefined;
  /** Total tokens. */
  totalTokens?: number | undefined;
  /** Breakdown of the input tokens. */
  inputTokenDetails?:
    | { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }
    | undefined;
  /** Breakdown of the output tokens. */
  outputTokenDetails?: { reasoningTokens?: number | undefined } | undefined;
}

/** The part of an AI SDK `GeneratedFile` the envelope needs. */
export interface AiSdkFile {
  /** The bytes, base64-encoded. */
  readonly base64: string;
  /** IANA media type. */
  readonly mediaType: string;
}

/** Response metadata of one AI SDK call. */
export interface AiSdkResponse {
  /** Provider response id. */
  readonly id?: string | undefined;
  /** The model that answered. */
  readonly modelId?: string | undefined;
  /** Provider response headers, where the provider request id is found. */
  readonly headers?: Record<string, string> | undefined;
}

/** The part of a `generateText` result the envelope needs. */
export interface AiSdkTextResult {
  /** Generated text. */
  readonly text: string;
  /** AI SDK finish reason (`stop`, `length`, `content-filter`, `tool-calls`, `error`, `interrupted`, `other`). */
  readonly finishReason: string;
  /** Usage of the last step. */
  readonly usage?: AiSdkUsage | undefined;
  /** Usage of all steps; preferred over `usage`. */
  readonly totalUsage?: AiSdkUsage | undefined;
  /** Generated files (images and other media). */
  readonly files?: readonly AiSdkFile[] | undefined;
  /** Tool calls of the last step. */
  readonly toolCalls?: readonly { toolCallId: string; toolName: string; input?: unknown }[] | undefined;
  /** Response metadata. */
  readonly response?: AiSdkResponse | undefined;
  /** Provider-specific metadata, keyed by provider. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The part of a `generateImage` result the envelope needs. */
export interface AiSdkImageResult {
  /** Generated images. */
  readonly images: readonly AiSdkFile[];
  /** Image model usage, when reported. */
  readonly usage?: AiSdkUsage | undefined;
  /** One response metadata entry per model call. */
  readonly responses?: readonly AiSdkResponse[] | undefined;
  /** Provider-specific metadata, keyed by provider. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The part of an `experimental_generateSpeech` result the envelope needs. */
export interface AiSdkSpeechResult {
  /** Generated audio, with its format (`mp3`, `wav`…). */
  readonly audio: AiSdkFile & { readonly format?: string };
  /** One response metadata entry per model call. */
  readonly responses?: readonly AiSdkResponse[] | undefined;
  /** Provider-specific metadata, keyed by provider. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The part of an `experimental_transcribe` result the envelope needs. */
export interface AiSdkTranscriptionResult {
  /** The transcript. */
  readonly text: string;
  /** Detected language, when known. */
  readonly language?: string | undefined;
  /** Audio duration in seconds, when known. */
  readonly durationInSeconds?: number | undefined;
  /** One response metadata entry per model call. */
  readonly responses?: readonly AiSdkResponse[] | undefined;
  /** Provider-specific metadata, keyed by provider. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/** AI SDK finish reasons and what they normalize to; `content-filter` and `error` become failures. */
const AI_SDK_FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
};

/** AI SDK error names and the taxonomy code each stands for (APICallError and RetryError are read apart). */
const ERROR_NAMES: Readonly<Record<string, UnifiedErrorCode>> = {
  // The "nothing generated" errors: the provider answered, but with nothing usable.
  AI_NoContentGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoOutputGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoObjectGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoImageGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoSpeechGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoTranscriptGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoTranslationGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoVideoGeneratedError: 'INVALID_PROVIDER_RESPONSE',
  AI_EmptyResponseBodyError: 'INVALID_PROVIDER_RESPONSE',
  AI_InvalidResponseDataError: 'INVALID_PROVIDER_RESPONSE',
  AI_JSONParseError: 'INVALID_PROVIDER_RESPONSE',
  AI_TypeValidationError: 'INVALID_PROVIDER_RESPONSE',
  AI_NoSuchModelError: 'NOT_FOUND',
  AI_NoSuchProviderError: 'NOT_FOUND',
  AI_LoadAPIKeyError: 'AUTHENTICATION_ERROR',
  AI_InvalidPromptError: 'VALIDATION_ERROR',
  AI_InvalidArgumentError: 'VALIDATION_ERROR',
  AI_UnsupportedFunctionalityError: 'VALIDATION_ERROR',
  AbortError: 'REQUEST_TIMEOUT',
  TimeoutError: 'REQUEST_TIMEOUT',
};

/** Provider ids of well-known API hosts, for failures whose provider was not given. */
const API_HOSTS: Readonly<Record<string, string>> = {
  'api.openai.com': 'openai',
  'api.anthropic.com': 'anthropic',
  'generativelanguage.googleapis.com': 'google',
  'openrouter.ai': 'openrouter',
  'api.replicate.com': 'replicate',
};

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-goog-request-id'];

function providerOf(
  options: AiSdkOptions | undefined,
  providerMetadata: unknown,
  fallback = 'ai-sdk',
): string {
  if (options?.provider !== undefined && PROVIDER_ID_PATTERN.test(options.provider)) return options.provider;
  const key =
    providerMetadata !== null && typeof providerMetadata === 'object'
      ? Object.keys(providerMetadata)[0]
      : undefined;
  return key !== undefined && PROVIDER_ID_PATTERN.test(key) ? key : fallback;
}

function baseMetadata(
  options: AiSdkOptions | undefined,
  response: AiSdkResponse | undefined,
): Record<string, unknown> {
  const headers = response?.headers as HeadersLike | undefined;
  return compact({
    trace_id: traceIdOr(options?.traceId),
    latency_ms: options?.latencyMs !== undefined && options.latencyMs >= 0 ? options.latencyMs : undefined,
    model: response?.modelId || undefined,
    response_id: response?.id || undefined,
    provider_request_id: REQUEST_ID_HEADERS.map((name) => headerValue(headers, name)).find((value) => value),
  });
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function usageOf(usage: AiSdkUsage | undefined): ReportedUsage | undefined {
  if (usage === undefined || (!isCount(usage.inputTokens) && !isCount(usage.outputTokens))) return undefined;
  const count = (value: number | undefined) => (isCount(value) ? value : undefined);
  return {
    input: count(usage.inputTokens) ?? 0,
    output: count(usage.outputTokens) ?? 0,
    details: usageDetails({
      total_tokens: count(usage.totalTokens),
      cached_input_tokens: count(usage.inputTokenDetails?.cacheReadTokens),
      cache_creation_input_tokens: count(usage.inputTokenDetails?.cacheWriteTokens),
      reasoning_tokens: count(usage.outputTokenDetails?.reasoningTokens),
    }),
  };
}

function fileItem(file: AiSdkFile): MediaItem {
  return { data: file.base64, media_type: canonicalMediaType(file.mediaType) };
}

/**
 * Turn a `generateText` result into an envelope; a `content-filter` or `error` finish becomes a failure.
 * @example
 * const output = fromGenerateText(await generateText({ model, prompt }), { traceId: traceIdFrom(request.headers) });
 */
export function fromGenerateText(result: AiSdkTextResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.response);
  const normalized = AI_SDK_FINISH_REASONS[result.finishReason] ?? 'other';
  metadata.finish_reason = normalized;
  if (normalized === 'content_filter') {
    return assembleFailure(
      provider,
      'CONTENT_FILTERED',
      'The provider stopped the output with its content filter.',
      { provider_finish_reason: result.finishReason },
      metadata,
    );
  }
  if (normalized === 'error') {
    return assembleFailure(
      provider,
      'PROVIDER_ERROR',
      'The model stopped with an error.',
      { provider_finish_reason: result.finishReason },
      metadata,
    );
  }
  const usage = usageOf(result.totalUsage ?? result.usage);
  const calls = (result.toolCalls ?? []).map((call) =>
    compact({ id: call.toolCallId, name: call.toolName, arguments: call.input }),
  );
  if (calls.length > 0) metadata.tool_calls = calls;
  return assembleSuccess(provider, result.text, usage, (result.files ?? []).map(fileItem), metadata);
}

/** Turn a `generateImage` result into an envelope with the images. */
export function fromGenerateImage(result: AiSdkImageResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.responses?.[0]);
  const usage = usageOf(result.usage);
  const count = result.images.length;
  return assembleSuccess(
    provider,
    `Generated ${count} image${count === 1 ? '' : 's'}.`,
    usage,
    result.images.map(fileItem),
    metadata,
  );
}

/** Turn an `experimental_generateSpeech` result into an envelope with the audio as a file. */
export function fromGenerateSpeech(result: AiSdkSpeechResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.responses?.[0]);
  const file = fileItem(result.audio);
  if (result.audio.format) file.name = `speech.${result.audio.format}`;
  return assembleSuccess(
    provider,
    `Generated speech audio (${file.media_type}).`,
    undefined,
    [file],
    metadata,
  );
}

/** Turn an `experimental_transcribe` result into an envelope whose content is the transcript. */
export function fromTranscription(result: AiSdkTranscriptionResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = {
    ...baseMetadata(options, result.responses?.[0]),
    ...compact({ language: result.language, audio_duration_s: result.durationInSeconds }),
  };
  return assembleSuccess(provider, result.text, undefined, [], metadata);
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  isRetryable?: unknown;
  data?: unknown;
  responseBody?: unknown;
  responseHeaders?: unknown;
  url?: unknown;
  lastError?: unknown;
  errors?: unknown;
}

/** A URL without its query string, which may hold an API key (`?key=` on some Google endpoints). */
function withoutQuery(url: unknown): string | undefined {
  return typeof url === 'string' ? url.split(/[?#]/)[0] : undefined;
}

function hostProvider(url: unknown): string | undefined {
  try {
    return typeof url === 'string' ? API_HOSTS[new URL(url).hostname] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turn an error thrown by an AI SDK call into a failure envelope: `APICallError` by its status code and error body
 * (`insufficient_quota` → `INSUFFICIENT_CREDITS`, 529 → `PROVIDER_UNAVAILABLE`…), `RetryError` by its last error,
 * the "nothing generated" errors as `INVALID_PROVIDER_RESPONSE`, anything unknown as `INTERNAL_ERROR`.
 */
export function fromAiSdkError(error: unknown, options?: AiSdkOptions): UnifiedFailure {
  const err = (error !== null && typeof error === 'object' ? error : {}) as ErrorLike;
  const name = typeof err.name === 'string' ? err.name : '';
  if (name === 'AI_RetryError' && err.lastError !== undefined && err.lastError !== error) {
    const last = fromAiSdkError(err.lastError, options);
    if (Array.isArray(err.errors)) last.error.details.attempts = err.errors.length;
    return last;
  }
  const message = typeof err.message === 'string' ? err.message : String(error);
  const headers = err.responseHeaders as Record<string, string> | undefined;
  const provider = providerOf(options, undefined, hostProvider(err.url) ?? 'system');
  const metadata = baseMetadata(options, { headers });
  if (name === 'AI_APICallError') {
    const details = compact({
      is_retryable: typeof err.isRetryable === 'boolean' ? err.isRetryable : undefined,
      url: withoutQuery(err.url),
    });
    if (typeof err.statusCode !== 'number') {
      // No status: the request never got an answer (network failure, DNS, connection reset).
      return assembleFailure(provider, 'PROVIDER_UNAVAILABLE', message, details, metadata);
    }
    const data =
      err.data ?? (typeof err.responseBody === 'string' ? parseJsonOrUndefined(err.responseBody) : undefined);
    const outcome = data === undefined ? undefined : openAiFailure(data, err.statusCode);
    const code = outcome?.code ?? codeForProviderStatus(err.statusCode);
    return assembleFailure(
      provider,
      code,
      message,
      { ...outcome?.details, http_status: err.statusCode, ...details },
      metadata,
    );
  }
  const code = ERROR_NAMES[name];
  if (code !== undefined) return assembleFailure(provider, code, message, { ai_sdk_error: name }, metadata);
  return assembleFailure(
    'system',
    'INTERNAL_ERROR',
    message,
    compact({ ai_sdk_error: name || undefined }),
    metadata,
  );
}

/** The value of a JSON text, or undefined when it is not JSON: an error body is evidence, not input to check. */
function parseJsonOrUndefined(text: string): unknown {
  const read = readBody(text);
  return read.ok ? read.value : undefined;
}

/**
 * Run one AI SDK call and always get an envelope: the result through `convert`, or the thrown error through
 * {@link fromAiSdkError}; the latency is measured. Never rejects.
 * @example
 * const output = await captureAiSdkCall(() => generateText({ model, prompt }), fromGenerateText, { traceId });
 */
export async function captureAiSdkCall<R>(
  call: () => PromiseLike<R>,
  convert: (result: R, options?: AiSdkOptions) => UnifiedOutput,
  options?: AiSdkOptions,
): Promise<UnifiedOutput> {
  const started = Date.now();
  const traceId = traceIdOr(options?.traceId);
  try {
    const result = await call();
    return convert(result, { ...options, traceId, latencyMs: options?.latencyMs ?? Date.now() - started });
  } catch (error) {
    return fromAiSdkError(error, {
      ...options,
      traceId,
      latencyMs: options?.latencyMs ?? Date.now() - started,
    });
  }
}
