import { isJsonObject, omitUndefined } from '../contract/findings.js';
/**
 * verdict/unified/ai-sdk: turn results and errors of the Vercel AI SDK (`ai`) into unified output envelopes.
 * It reads results structurally and recognizes errors by their `name`, so it has no runtime import of `ai`:
 * `ai` is an optional peer dependency and the rest of `verdict/unified` never needs it.
 */
import { VerdictError } from '../errors.js';
import { readJson } from '../json/index.js';
import { assembleFailure, assembleSuccess } from './assemble-output.js';
import { toBase64 } from './base64.js';
import { canonicalMediaType } from './classify-media.js';
import { codeForProviderStatus, type UnifiedErrorCode } from './error-taxonomy.js';
import { type HeadersLike, headerValue } from './header-value.js';
import { formatOfAiSdkProvider, formatOfProvider, formatSpecOf } from './normalize-response.js';
import type { FormatSpec } from './providers/format-spec.js';
import { openAiFailure } from './providers/openai-failure.js';
import { type FailureOutcome, failureForStatus, type ReportedUsage } from './providers/provider-outcome.js';
import { readBody } from './read-body.js';
import { traceIdOr } from './trace-id-from.js';
import type { FinishReason, MediaItem, UnifiedFailure, UnifiedOutput } from './types.js';
import { PROVIDER_ID_PATTERN } from './validate-unified-output.js';

/** The part of an AI SDK model (language, image, speech, transcription or video) the envelope needs. */
export interface AiSdkModelLike {
  /** The model's provider id, such as `openai.chat` or `anthropic.messages`; its first segment names the provider. */
  readonly provider?: unknown;
  /** The model id, such as `gpt-4o-mini`. */
  readonly modelId?: unknown;
}

/** Facts the AI SDK results do not carry: who the provider is, the trace id and the latency. */
export interface AiSdkOptions {
  /**
   * Provider id. When absent it is taken from `model`, so a success and a failure of the same model name the
   * same provider; without either, from the first key of `providerMetadata`, else the host of the failed call,
   * else `ai-sdk`.
   */
  provider?: string | undefined;
  /** The model that was called: its `provider` names the envelope's provider, its `modelId` fills `metadata.model`. */
  model?: AiSdkModelLike | undefined;
  /** Trace id of the incoming request; generated when absent. */
  traceId?: string | undefined;
  /** Wall time of the call in milliseconds. */
  latencyMs?: number | undefined;
  /**
   * `false` returns a success envelope unchecked, for a caller that adds metadata of its own and then validates
   * the whole once with `validateUnifiedOutput` (verdict's gateway does). Default `true`: an answer that does not
   * make a valid envelope is an `INVALID_PROVIDER_RESPONSE` failure.
   */
  validate?: boolean | undefined;
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
  /** The provider's own finish reason, as the AI SDK passes it on. */
  readonly rawFinishReason?: string | undefined;
  /** Usage of the last step. */
  readonly usage?: AiSdkUsage | undefined;
  /** Usage of all steps; preferred over `usage`. */
  readonly totalUsage?: AiSdkUsage | undefined;
  /** Generated files (images and other media). */
  readonly files?: readonly AiSdkFile[] | undefined;
  /** Tool calls of the last step. */
  readonly toolCalls?:
    | readonly { toolCallId: string; toolName: string; input?: unknown; invalid?: boolean | undefined }[]
    | undefined;
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

/** The part of an `experimental_generateVideo` result the envelope needs. */
export interface AiSdkVideoResult {
  /** Generated videos. */
  readonly videos: readonly AiSdkFile[];
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
/** Anthropic's own request id is `request-id`; an `x-request-id` beside it comes from something in between. */
const ANTHROPIC_REQUEST_ID_HEADERS = ['request-id', 'x-request-id'];

/** The provider id of an AI SDK model: the first segment of its `provider` (`openai.chat` → `openai`). */
function modelProvider(model: AiSdkModelLike | undefined): string | undefined {
  if (typeof model?.provider !== 'string') return undefined;
  const id = model.provider.split('.')[0]?.toLowerCase();
  return id !== undefined && PROVIDER_ID_PATTERN.test(id) ? id : undefined;
}

function providerOf(
  options: AiSdkOptions | undefined,
  providerMetadata: unknown,
  fallback = 'ai-sdk',
): string {
  if (options?.provider !== undefined && PROVIDER_ID_PATTERN.test(options.provider)) return options.provider;
  const fromModel = modelProvider(options?.model);
  if (fromModel !== undefined) return fromModel;
  const key =
    providerMetadata !== null && typeof providerMetadata === 'object'
      ? Object.keys(providerMetadata)[0]
      : undefined;
  return key !== undefined && PROVIDER_ID_PATTERN.test(key) ? key : fallback;
}

function baseMetadata(
  options: AiSdkOptions | undefined,
  response: AiSdkResponse | undefined,
  provider?: string,
): Record<string, unknown> {
  const headers = response?.headers as HeadersLike | undefined;
  const idHeaders = provider === 'anthropic' ? ANTHROPIC_REQUEST_ID_HEADERS : REQUEST_ID_HEADERS;
  return omitUndefined({
    trace_id: traceIdOr(options?.traceId),
    latency_ms: options?.latencyMs !== undefined && options.latencyMs >= 0 ? options.latencyMs : undefined,
    model:
      response?.modelId ||
      (typeof options?.model?.modelId === 'string' ? options.model.modelId : undefined) ||
      undefined,
    response_id: response?.id || undefined,
    provider_request_id: idHeaders.map((name) => headerValue(headers, name)).find((value) => value),
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
    details: omitUndefined({
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
  if (isStreamTextResult(result)) {
    throw new VerdictError(
      'invalid_argument',
      'fromGenerateText was given a streamText result, whose fields are promises: use fromStreamText (or captureAiSdkCall, which picks it).',
    );
  }
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.response, provider);
  // A provider's own blocking finish reason that the AI SDK does not know is read as the format reads it.
  const raw = result.rawFinishReason;
  const blocked = raw !== undefined && formatOf(options, provider)?.blockingFinishReasons?.has(raw) === true;
  const normalized = blocked ? 'content_filter' : (AI_SDK_FINISH_REASONS[result.finishReason] ?? 'other');
  metadata.finish_reason = normalized;
  if (normalized === 'content_filter') {
    return assembleFailure(
      provider,
      'CONTENT_FILTERED',
      'The provider stopped the output with its content filter.',
      { provider_finish_reason: blocked ? raw : result.finishReason },
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
  const calls = (result.toolCalls ?? []).map((call) => {
    // The AI SDK keeps arguments it could not parse as the model's raw text, on a call it marks invalid. Its
    // parser also refuses JSON holding a `__proto__` key (prototype poisoning), which verdict's strict reader
    // reads safely, as an own member: only text that is not JSON is flagged.
    if (call.invalid === true && typeof call.input === 'string') {
      const read = readJson(call.input);
      if (!read.ok)
        return { id: call.toolCallId, name: call.toolName, arguments: call.input, arguments_not_json: true };
      return { id: call.toolCallId, name: call.toolName, arguments: read.value };
    }
    return omitUndefined({ id: call.toolCallId, name: call.toolName, arguments: call.input });
  });
  if (calls.length > 0) metadata.tool_calls = calls;
  return assembleSuccess(
    provider,
    result.text,
    usage,
    (result.files ?? []).map(fileItem),
    metadata,
    options?.validate !== false,
  );
}

/** One part of a `streamText` result's `stream` (`fullStream`); only the parts the envelope needs are read. */
export interface AiSdkStreamPart {
  /** `text-delta`, `error`, `finish`, `abort`… */
  readonly type: string;
  /** The text of a `text-delta` part. */
  readonly text?: unknown;
  /** The error of an `error` part. */
  readonly error?: unknown;
  /** The provider's own event of a `raw` part (`streamText` with `includeRawChunks: true`). */
  readonly rawValue?: unknown;
}

/**
 * A stream's error part with the provider's own event it came from (the `raw` part before it, when the stream
 * was asked with `includeRawChunks: true`). Provider packages pass on their own parse of an error event, which
 * may drop members that decide its meaning (the `status_code` beside Groq's error); {@link fromAiSdkError}
 * reads the event itself by the call's format, else the error.
 */
export class AiSdkStreamFailure extends Error {
  /** The error of the stream's error part. */
  readonly error: unknown;
  /** The provider's event the error came from, when the stream carried raw parts. */
  readonly event: unknown;
  constructor(error: unknown, event: unknown) {
    super(
      error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error),
    );
    this.name = 'AiSdkStreamFailure';
    this.error = error;
    this.event = event;
  }
}

/** The part of a `streamText` result the envelope needs: its stream of parts and the promises of the final step. */
export interface AiSdkStreamTextResult {
  /** Every part of the stream (`fullStream` in older releases of `ai`). */
  readonly stream?: AsyncIterable<AiSdkStreamPart> | undefined;
  /** Every part of the stream, under its older name. */
  readonly fullStream?: AsyncIterable<AiSdkStreamPart> | undefined;
  /** The whole text, once the stream ended. */
  readonly text: PromiseLike<string>;
  /** The finish reason, once the stream ended. */
  readonly finishReason: PromiseLike<string>;
  /** The provider's own finish reason, once the stream ended. */
  readonly rawFinishReason?: PromiseLike<string | undefined> | undefined;
  /** Usage of all steps, once the stream ended. */
  readonly totalUsage?: PromiseLike<AiSdkUsage | undefined> | undefined;
  /** Usage of the last step, once the stream ended. */
  readonly usage?: PromiseLike<AiSdkUsage | undefined> | undefined;
  /** Generated files, once the stream ended. */
  readonly files?: PromiseLike<readonly AiSdkFile[] | undefined> | undefined;
  /** Tool calls, once the stream ended. */
  readonly toolCalls?: PromiseLike<AiSdkTextResult['toolCalls']> | undefined;
  /** Response metadata, once the stream ended. */
  readonly response?: PromiseLike<AiSdkResponse | undefined> | undefined;
  /** Provider-specific metadata, once the stream ended. */
  readonly providerMetadata?: PromiseLike<Readonly<Record<string, unknown>> | undefined> | undefined;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** True for a `streamText` result: its `text` is a promise and it has a stream of parts. */
export function isStreamTextResult(value: unknown): value is AiSdkStreamTextResult {
  if (value === null || typeof value !== 'object') return false;
  const result = value as Record<string, unknown>;
  return isPromiseLike(result.text) && (result.stream !== undefined || result.fullStream !== undefined);
}

/**
 * Consume a `streamText` result and turn it into the same envelope `fromGenerateText` gives for the same answer;
 * an `error` part anywhere in the stream makes it a failure (never a half-success). `onDelta` receives each
 * text delta as it arrives, for callers that relay the stream. Never rejects for a provider error.
 * @example
 * const output = await fromStreamText(streamText({ model, prompt }), { model }, (text) => process.stdout.write(text));
 */
export async function fromStreamText(
  result: AiSdkStreamTextResult,
  options?: AiSdkOptions,
  onDelta?: (text: string) => void | Promise<void>,
): Promise<UnifiedOutput> {
  const parts = result.stream ?? result.fullStream;
  let failure: unknown;
  let aborted = false;
  let event: unknown;
  try {
    if (parts !== undefined) {
      for await (const part of parts) {
        if (part.type === 'text-delta' && typeof part.text === 'string' && part.text !== '') {
          await onDelta?.(part.text);
        } else if (part.type === 'raw') {
          event = part.rawValue;
        } else if (part.type === 'error' && failure === undefined) {
          failure = event === undefined ? part.error : new AiSdkStreamFailure(part.error, event);
        } else if (part.type === 'abort') {
          aborted = true;
        }
      }
    }
    if (failure !== undefined) return fromAiSdkError(failure, options);
    if (aborted)
      return fromAiSdkError(
        Object.assign(new Error('The stream was aborted.'), { name: 'AbortError' }),
        options,
      );
    const [
      text,
      finishReason,
      rawFinishReason,
      totalUsage,
      usage,
      files,
      toolCalls,
      response,
      providerMetadata,
    ] = await Promise.all([
      result.text,
      result.finishReason,
      result.rawFinishReason,
      result.totalUsage,
      result.usage,
      result.files,
      result.toolCalls,
      result.response,
      result.providerMetadata,
    ]);
    return fromGenerateText(
      {
        text,
        finishReason,
        rawFinishReason,
        totalUsage,
        usage,
        files,
        toolCalls,
        response,
        providerMetadata,
      },
      options,
    );
  } catch (error) {
    return fromAiSdkError(failure ?? error, options);
  }
}

/**
 * The facts a provider package keeps per image in its metadata (`providerMetadata.openai.images[i]`): the
 * revised prompt, which the normalizers keep as the image's `revised_prompt` (the console's caption), and the
 * size as `width` and `height`.
 */
function imageFacts(
  providerMetadata: AiSdkImageResult['providerMetadata'],
  index: number,
): Partial<MediaItem> {
  for (const entry of Object.values(providerMetadata ?? {})) {
    const images = isJsonObject(entry) && Array.isArray(entry.images) ? entry.images : undefined;
    const image = images?.[index];
    if (!isJsonObject(image)) continue;
    const size = typeof image.size === 'string' ? /^(\d+)x(\d+)$/.exec(image.size) : null;
    return omitUndefined({
      revised_prompt:
        typeof image.revisedPrompt === 'string' && image.revisedPrompt !== ''
          ? image.revisedPrompt
          : undefined,
      width: size === null ? undefined : Number(size[1]),
      height: size === null ? undefined : Number(size[2]),
    });
  }
  return {};
}

/** Turn a `generateImage` result into an envelope with the images (and each one's revised prompt and size). */
export function fromGenerateImage(result: AiSdkImageResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.responses?.[0], provider);
  const usage = usageOf(result.usage);
  const count = result.images.length;
  return assembleSuccess(
    provider,
    `Generated ${count} image${count === 1 ? '' : 's'}.`,
    usage,
    result.images.map((image, index) => ({
      ...fileItem(image),
      ...imageFacts(result.providerMetadata, index),
    })),
    metadata,
    options?.validate !== false,
  );
}

/** Turn an `experimental_generateVideo` result into an envelope with the videos. */
export function fromGenerateVideo(result: AiSdkVideoResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.responses?.[0], provider);
  const count = result.videos.length;
  return assembleSuccess(
    provider,
    `Generated ${count} video${count === 1 ? '' : 's'}.`,
    undefined,
    result.videos.map(fileItem),
    metadata,
    options?.validate !== false,
  );
}

/** One video of an `experimental_getVideoStatus` result: a URL, base64 data, bytes, or uploaded elsewhere. */
export type AiSdkVideoData =
  | { readonly type: 'url'; readonly url: string; readonly mediaType?: string | undefined }
  | { readonly type: 'base64'; readonly data: string; readonly mediaType?: string | undefined }
  | { readonly type: 'binary'; readonly data: Uint8Array; readonly mediaType?: string | undefined }
  | { readonly type: 'uploaded' };

/** The part of an `experimental_getVideoStatus` result the envelope needs. */
export interface AiSdkVideoStatus {
  /** `completed`, `error` or `pending`. */
  readonly status: string;
  /** The videos of a completed job. */
  readonly videos?: readonly AiSdkVideoData[] | undefined;
  /** Why a job failed. */
  readonly error?: string | undefined;
  /** Response metadata of the status call. */
  readonly response?: AiSdkResponse | undefined;
  /** Provider-specific metadata, keyed by provider. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Turn the status of an asynchronous video job (`experimental_startVideo` + `experimental_getVideoStatus`) into an
 * envelope: a completed job's videos (URLs stay URLs: nothing is downloaded), a failed job as `PROVIDER_ERROR`,
 * a running one as a success without videos and `metadata.job_status: "pending"`.
 */
export function fromVideoStatus(result: AiSdkVideoStatus, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.response, provider);
  if (result.status === 'error') {
    return assembleFailure(
      provider,
      'PROVIDER_ERROR',
      result.error || 'The video job failed.',
      { job_status: 'error' },
      metadata,
    );
  }
  if (result.status !== 'completed') {
    metadata.job_status = 'pending';
    return assembleSuccess(
      provider,
      'The video is still being generated.',
      undefined,
      [],
      metadata,
      options?.validate !== false,
    );
  }
  const media: MediaItem[] = [];
  for (const video of result.videos ?? []) {
    const mediaType = canonicalMediaType(('mediaType' in video && video.mediaType) || 'video/mp4');
    if (video.type === 'url') media.push({ url: video.url, media_type: mediaType });
    else if (video.type === 'base64') media.push({ data: video.data, media_type: mediaType });
    else if (video.type === 'binary') media.push({ data: toBase64(video.data), media_type: mediaType });
  }
  metadata.job_status = 'completed';
  const count = media.length;
  return assembleSuccess(
    provider,
    `Generated ${count} video${count === 1 ? '' : 's'}.`,
    undefined,
    media,
    metadata,
    options?.validate !== false,
  );
}

/** Turn an `experimental_generateSpeech` result into an envelope with the audio as a file. */
export function fromGenerateSpeech(result: AiSdkSpeechResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = baseMetadata(options, result.responses?.[0], provider);
  const file = fileItem(result.audio);
  if (result.audio.format) file.name = `speech.${result.audio.format}`;
  return assembleSuccess(
    provider,
    `Generated speech audio (${file.media_type}).`,
    undefined,
    [file],
    metadata,
    options?.validate !== false,
  );
}

/** Turn an `experimental_transcribe` result into an envelope whose content is the transcript. */
export function fromTranscription(result: AiSdkTranscriptionResult, options?: AiSdkOptions): UnifiedOutput {
  const provider = providerOf(options, result.providerMetadata);
  const metadata = {
    ...baseMetadata(options, result.responses?.[0], provider),
    ...omitUndefined({ language: result.language, audio_duration_s: result.durationInSeconds }),
  };
  return assembleSuccess(provider, result.text, undefined, [], metadata, options?.validate !== false);
}

interface ErrorLike {
  type?: unknown;
  code?: unknown;
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
 * The format whose parsers read a call's errors, so that the same body means the same thing here as through
 * `normalizeResponse`: the one the model's AI SDK provider id selects, else the provider's own API format.
 */
function formatOf(options: AiSdkOptions | undefined, provider: string): FormatSpec | undefined {
  const format = formatOfAiSdkProvider(options?.model?.provider) ?? formatOfProvider(provider);
  return format === undefined ? undefined : formatSpecOf(format);
}

/**
 * The failure of an error body of a provider no format claims: an OpenAI-shaped body (`{ error: { message } }`,
 * what most compatible servers send) by OpenAI's table, anything else by its status and wording.
 */
function unclaimedFailure(body: unknown, status: number, text: string): FailureOutcome {
  if (isJsonObject(body) && isJsonObject(body.error) && typeof body.error.message === 'string')
    return openAiFailure(body, status, text);
  return failureForStatus(status, text, {});
}

/** True when the headers say the answer was a stream (an error the SDK met inside it, not an error body). */
function isEventStream(headers: Record<string, string> | undefined): boolean {
  return headerValue(headers, 'content-type')?.toLowerCase().startsWith('text/event-stream') === true;
}

/**
 * What the format makes of a 2xx body the AI SDK refused: a failure it stands for (a failed Replicate
 * prediction, an error in a 200 body), or `undefined` when it is unreadable or a success the SDK could not use.
 */
function refusedBodyFailure(spec: FormatSpec | undefined, body: unknown): FailureOutcome | undefined {
  if (spec === undefined || body === undefined) return undefined;
  try {
    const outcome = spec.parseSuccess(body, { status: 200, headers: undefined });
    return outcome.kind === 'failure' ? outcome : undefined;
  } catch {
    // A body the format cannot read either is the provider's fault: INVALID_PROVIDER_RESPONSE.
    return undefined;
  }
}

/** The failure an `APICallError` with a status stands for, read by the call's format. */
function apiCallFailure(
  spec: FormatSpec | undefined,
  err: ErrorLike,
  status: number,
  headers: Record<string, string> | undefined,
): FailureOutcome | undefined {
  const text = typeof err.responseBody === 'string' ? err.responseBody : '';
  // The bytes the provider sent, as `normalizeResponse` reads them; the SDK's `data` is its own parse, which
  // drops members its schema does not know (OpenRouter's moderation `metadata`).
  const body = (text === '' ? undefined : parseJsonOrUndefined(text)) ?? err.data;
  // An error event of a stream that had started, raised as an APICallError: its status is the SDK's guess.
  if (isEventStream(headers)) return spec?.parseStreamError?.(err.data ?? body);
  if (status < 400) return refusedBodyFailure(spec, body);
  return spec === undefined
    ? unclaimedFailure(body, status, text)
    : spec.parseError(body, status, text, headers);
}

/**
 * Turn an error thrown by an AI SDK call into a failure envelope. Provider errors are read by the parsers of
 * the format the model speaks (its AI SDK provider id selects it, see docs/unified.md, "Formats"), so an error
 * body or a stream's error event means the same here as through `normalizeResponse` and `normalizeStream`:
 * `APICallError` by its body and status, `StreamProviderError` by its event; `RetryError` by its last error,
 * the "nothing generated" errors as `INVALID_PROVIDER_RESPONSE`, anything unknown as `INTERNAL_ERROR`.
 */
export function fromAiSdkError(error: unknown, options?: AiSdkOptions): UnifiedFailure {
  const err = (error !== null && typeof error === 'object' ? error : {}) as ErrorLike;
  const name = typeof err.name === 'string' ? err.name : '';
  if (error instanceof AiSdkStreamFailure) return fromStreamFailure(error, options);
  if (name === 'AI_RetryError' && err.lastError !== undefined && err.lastError !== error) {
    const last = fromAiSdkError(err.lastError, options);
    if (Array.isArray(err.errors)) last.error.details.attempts = err.errors.length;
    return last;
  }
  const message = typeof err.message === 'string' ? err.message : String(error);
  const headers = err.responseHeaders as Record<string, string> | undefined;
  const provider = providerOf(options, undefined, hostProvider(err.url) ?? 'system');
  const metadata = baseMetadata(options, { headers }, provider);
  const spec = formatOf(options, provider);
  if (name === 'AI_APICallError') {
    const details = omitUndefined({
      is_retryable: typeof err.isRetryable === 'boolean' ? err.isRetryable : undefined,
      url: withoutQuery(err.url),
    });
    if (typeof err.statusCode !== 'number') {
      // No status: the request never got an answer (network failure, DNS, connection reset).
      return assembleFailure(provider, 'PROVIDER_UNAVAILABLE', message, details, metadata);
    }
    const outcome = apiCallFailure(spec, err, err.statusCode, headers);
    // A 2xx whose body the SDK could not read (an HTML sign-in page, a truncated body) is the provider's fault.
    const code =
      outcome?.code ??
      (err.statusCode < 400 ? 'INVALID_PROVIDER_RESPONSE' : codeForProviderStatus(err.statusCode));
    const status = isEventStream(headers) ? outcome?.details?.http_status : err.statusCode;
    return assembleFailure(
      provider,
      code,
      message,
      { ...outcome?.details, ...omitUndefined({ http_status: status }), ...details },
      metadata,
    );
  }
  if (name === 'AI_StreamProviderError') {
    // An error event after the stream started, read like the same event through normalizeStream; without a
    // format that knows it, by the status the provider package inferred.
    const outcome = spec?.parseStreamError?.(err.data);
    const streamCode =
      outcome?.code ??
      (typeof err.statusCode === 'number' && err.statusCode >= 400
        ? codeForProviderStatus(err.statusCode)
        : 'PROVIDER_ERROR');
    const details = omitUndefined({
      ...outcome?.details,
      ai_sdk_error: name,
      provider_error_type: typeof err.type === 'string' ? err.type : undefined,
      provider_error_code:
        typeof err.code === 'string' || typeof err.code === 'number' ? err.code : undefined,
      http_status:
        outcome?.details?.http_status ?? (typeof err.statusCode === 'number' ? err.statusCode : undefined),
    });
    return assembleFailure(provider, streamCode, message, details, metadata);
  }
  if (name === '' && isJsonObject(error)) {
    // A stream's error part the SDK passed on as the provider's plain error object.
    const outcome = spec?.parseStreamError?.(error);
    if (outcome !== undefined)
      return assembleFailure(provider, outcome.code, outcome.message, outcome.details ?? {}, metadata);
  }
  if (name === 'AI_InvalidResponseDataError') {
    // A 2xx body the provider package refused (a failed Replicate prediction): the format says what it means.
    const outcome = refusedBodyFailure(spec, err.data);
    if (outcome !== undefined)
      return assembleFailure(
        provider,
        outcome.code,
        message,
        { ...outcome.details, ai_sdk_error: name },
        metadata,
      );
  }
  const code = ERROR_NAMES[name];
  if (code !== undefined) return assembleFailure(provider, code, message, { ai_sdk_error: name }, metadata);
  const thrown =
    name === 'Error'
      ? spec?.thrownMessages?.find((known) => message.startsWith(known.startsWith))
      : undefined;
  if (thrown !== undefined) return assembleFailure(provider, thrown.code, message, {}, metadata);
  return assembleFailure(
    'system',
    'INTERNAL_ERROR',
    message,
    omitUndefined({ ai_sdk_error: name || undefined }),
    metadata,
  );
}

/** A stream's error part: its provider event when the call's format reads it, else the error the SDK gave. */
function fromStreamFailure(failure: AiSdkStreamFailure, options: AiSdkOptions | undefined): UnifiedFailure {
  const read = fromAiSdkError(failure.error, options);
  const provider = read.provider === 'system' ? providerOf(options, undefined, 'system') : read.provider;
  const outcome = formatOf(options, provider)?.parseStreamError?.(failure.event);
  if (outcome === undefined) return read;
  return assembleFailure(
    provider,
    outcome.code,
    read.error.message,
    omitUndefined({ ...outcome.details, ai_sdk_error: read.error.details.ai_sdk_error }),
    read.metadata,
  );
}

function withLatency(output: UnifiedOutput, latencyMs: number): UnifiedOutput {
  if (latencyMs >= 0) (output.metadata as Record<string, unknown>).latency_ms = latencyMs;
  return output;
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
  call: () => R | PromiseLike<R>,
  convert: (result: R, options?: AiSdkOptions) => UnifiedOutput | PromiseLike<UnifiedOutput>,
  options?: AiSdkOptions,
): Promise<UnifiedOutput> {
  const started = Date.now();
  const traceId = traceIdOr(options?.traceId);
  try {
    const result = await call();
    // A streamText result is consumed first (its fields are promises), whatever `convert` was given.
    if (isStreamTextResult(result)) {
      const streamed = await fromStreamText(result, { ...options, traceId });
      return withLatency(streamed, options?.latencyMs ?? Date.now() - started);
    }
    return await convert(result, {
      ...options,
      traceId,
      latencyMs: options?.latencyMs ?? Date.now() - started,
    });
  } catch (error) {
    return fromAiSdkError(error, {
      ...options,
      traceId,
      latencyMs: options?.latencyMs ?? Date.now() - started,
    });
  }
}
