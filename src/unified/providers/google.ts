import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { mediaTypeFromName } from '../classify-media.js';
import type { UnifiedErrorCode } from '../error-taxonomy.js';
import type { FinishReason, MediaItem } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import { StreamParts } from './google-stream-parts.js';
import {
  contentFiltered,
  embeddedStatus,
  errorMessage,
  errorObject,
  expectArray,
  expectObject,
  type FailureOutcome,
  failureForStatus,
  type Json,
  type Outcome,
  optionalString,
  type ReportedUsage,
  ShapeError,
  StreamCutError,
  tokenCount,
} from './provider-outcome.js';

/**
 * Gemini and Vertex AI `finishReason` values that mean the output was blocked (safety, recitation, blocklists,
 * PII, Vertex AI's Model Armor screening, jailbreak detection), as the two APIs' `FinishReason` enums document them.
 */
const BLOCKING_FINISH_REASONS = new Set([
  'SAFETY',
  'MODEL_ARMOR',
  'JAILBREAK',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Gemini `finishReason` values that mean the model failed to produce a usable turn. */
const FAILING_FINISH_REASONS = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

/** The other Gemini `finishReason` values; unknown ones are `other`. */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = { STOP: 'stop', MAX_TOKENS: 'length' };

/** google.rpc `status` names of Gemini error bodies, which say more than the HTTP status alone. */
const RPC_STATUSES: Readonly<Record<string, UnifiedErrorCode>> = {
  INVALID_ARGUMENT: 'VALIDATION_ERROR',
  FAILED_PRECONDITION: 'VALIDATION_ERROR',
  OUT_OF_RANGE: 'VALIDATION_ERROR',
  UNAUTHENTICATED: 'AUTHENTICATION_ERROR',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  NOT_FOUND: 'NOT_FOUND',
  RESOURCE_EXHAUSTED: 'RATE_LIMITED',
  INTERNAL: 'PROVIDER_ERROR',
  UNKNOWN: 'PROVIDER_ERROR',
  UNAVAILABLE: 'PROVIDER_UNAVAILABLE',
  DEADLINE_EXCEEDED: 'PROVIDER_TIMEOUT',
};

/**
 * `google.rpc.ErrorInfo` reasons of the `googleapis.com` domain (google/api/error_reason.proto) whose meaning is
 * sharper than the status they come with: Gemini answers an invalid key with 400 `INVALID_ARGUMENT` and reason
 * `API_KEY_INVALID`, a disabled billing account with 403 and `BILLING_DISABLED`.
 */
const ERROR_REASONS: Readonly<Record<string, UnifiedErrorCode>> = {
  API_KEY_INVALID: 'AUTHENTICATION_ERROR',
  ACCESS_TOKEN_EXPIRED: 'AUTHENTICATION_ERROR',
  ACCESS_TOKEN_TYPE_UNSUPPORTED: 'AUTHENTICATION_ERROR',
  CREDENTIALS_MISSING: 'AUTHENTICATION_ERROR',
  SESSION_COOKIE_INVALID: 'AUTHENTICATION_ERROR',
  BILLING_DISABLED: 'INSUFFICIENT_CREDITS',
  API_KEY_SERVICE_BLOCKED: 'PERMISSION_DENIED',
  API_KEY_HTTP_REFERRER_BLOCKED: 'PERMISSION_DENIED',
  API_KEY_IP_ADDRESS_BLOCKED: 'PERMISSION_DENIED',
  API_KEY_ANDROID_APP_BLOCKED: 'PERMISSION_DENIED',
  API_KEY_IOS_APP_BLOCKED: 'PERMISSION_DENIED',
  SERVICE_DISABLED: 'PERMISSION_DENIED',
  CONSUMER_SUSPENDED: 'PERMISSION_DENIED',
  USER_PROJECT_DENIED: 'PERMISSION_DENIED',
  SECURITY_POLICY_VIOLATED: 'PERMISSION_DENIED',
  LOCATION_POLICY_VIOLATED: 'PERMISSION_DENIED',
  RATE_LIMIT_EXCEEDED: 'RATE_LIMITED',
  RESOURCE_QUOTA_EXCEEDED: 'RATE_LIMITED',
};

/** The first `ErrorInfo` reason of an error's `details`, when it has one. */
function errorReason(error: Json): string | undefined {
  const details = Array.isArray(error.details) ? error.details : [];
  for (const detail of details) {
    if (isJsonObject(detail) && typeof detail.reason === 'string') return detail.reason;
  }
  return undefined;
}

/**
 * The failure a Gemini error body (`{ error: { code, message, status, details } }`) stands for: the
 * `ErrorInfo` reason first, then the rpc status name, then the HTTP status (the error's own numeric `code` in a
 * 2xx body or a stream).
 */
export function googleFailure(body: unknown, status: number, text = ''): FailureOutcome {
  const error = errorObject(body);
  const rpcStatus = typeof error.status === 'string' ? error.status : undefined;
  const reason = errorReason(error);
  const details = omitUndefined({
    provider_status: rpcStatus,
    provider_reason: reason,
    provider_error: isJsonObject(body) ? body.error : undefined,
  });
  const code =
    (reason === undefined ? undefined : ERROR_REASONS[reason]) ??
    (rpcStatus === undefined ? undefined : RPC_STATUSES[rpcStatus]);
  return failureForStatus(embeddedStatus(status, error), errorMessage(error, text), details, code);
}

/**
 * The failure of a stream chunk holding an error (`{ error: { code, message, status } }`), or of the error object
 * itself; a numeric `code` inside it stands for the HTTP status the stream's 200 hides.
 */
function googleStreamError(chunk: unknown): FailureOutcome | undefined {
  if (!isJsonObject(chunk)) return undefined;
  if (isJsonObject(chunk.error)) return googleFailure(chunk, 200);
  if (typeof chunk.message !== 'string') return undefined;
  return googleFailure({ error: chunk }, 200);
}

/** Gemini usage: verdict counts tool-use prompt tokens as input and thoughts as output. */
function googleUsage(value: unknown): ReportedUsage | undefined {
  if (value === undefined || value === null) return undefined;
  const usage = expectObject(value, '`usageMetadata`');
  const prompt = tokenCount(usage.promptTokenCount, '`promptTokenCount`');
  const toolPrompt = tokenCount(usage.toolUsePromptTokenCount, '`toolUsePromptTokenCount`');
  const candidates = tokenCount(usage.candidatesTokenCount, '`candidatesTokenCount`');
  const thoughts = tokenCount(usage.thoughtsTokenCount, '`thoughtsTokenCount`');
  return {
    input: (prompt ?? 0) + (toolPrompt ?? 0),
    output: (candidates ?? 0) + (thoughts ?? 0),
    details: omitUndefined({
      prompt_tokens: prompt,
      cached_input_tokens: tokenCount(usage.cachedContentTokenCount, '`cachedContentTokenCount`'),
      tool_use_prompt_tokens: toolPrompt,
      candidates_tokens: candidates,
      reasoning_tokens: thoughts,
      total_tokens: tokenCount(usage.totalTokenCount, '`totalTokenCount`'),
    }),
  };
}

/** Parse a Gemini `generateContent` body into an outcome. */
function parseGenerateContent(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (isJsonObject(root.error)) return googleFailure(root, status);
  const metadata = omitUndefined({
    model: optionalString(root.modelVersion, '`modelVersion`'),
    response_id: optionalString(root.responseId, '`responseId`'),
  });
  const feedback = isJsonObject(root.promptFeedback) ? root.promptFeedback : {};
  if (typeof feedback.blockReason === 'string') {
    const details = omitUndefined({
      block_reason: feedback.blockReason,
      safety_ratings: feedback.safetyRatings,
    });
    return contentFiltered(`The prompt was blocked (${feedback.blockReason}).`, details, metadata);
  }
  const first = expectArray(root.candidates, '`candidates`')[0];
  if (first === undefined) throw new ShapeError('`candidates` is empty and the prompt was not blocked.');
  const candidate = expectObject(first, 'The first candidate');
  const rawFinish = optionalString(candidate.finishReason, '`finishReason`');
  if (rawFinish !== undefined && BLOCKING_FINISH_REASONS.has(rawFinish)) {
    const details = omitUndefined({
      provider_finish_reason: rawFinish,
      safety_ratings: candidate.safetyRatings,
    });
    return contentFiltered(`The output was blocked (${rawFinish}).`, details, metadata);
  }
  if (rawFinish !== undefined && FAILING_FINISH_REASONS.has(rawFinish)) {
    return {
      kind: 'failure',
      code: 'PROVIDER_ERROR',
      message: `The model failed to finish its turn (${rawFinish}).`,
      details: { provider_finish_reason: rawFinish, finish_message: candidate.finishMessage ?? null },
      metadata: { ...metadata, finish_reason: 'error' },
    };
  }
  const content = isJsonObject(candidate.content) ? candidate.content : {};
  const parts = content.parts === undefined ? [] : expectArray(content.parts, '`content.parts`');
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: Json[] = [];
  const media: MediaItem[] = [];
  for (const entry of parts) {
    const part = expectObject(entry, 'A part');
    // Thought summaries are reasoning, not the answer (docs/unified.md, "Reasoning"); their tokens are already
    // counted as output.
    if (typeof part.text === 'string') (part.thought === true ? thoughts : texts).push(part.text);
    // Gemini API calls carry no id unless asked to; one by the call's place in the answer (`call_0`…) lets a
    // client tie its tool result to the call (docs/unified.md, "Tool calls").
    if (isJsonObject(part.functionCall))
      calls.push(
        omitUndefined({
          id: typeof part.functionCall.id === 'string' ? part.functionCall.id : `call_${calls.length}`,
          name: part.functionCall.name,
          arguments: part.functionCall.args,
        }),
      );
    if (isJsonObject(part.inlineData) && typeof part.inlineData.data === 'string') {
      media.push({
        data: part.inlineData.data,
        media_type: String(part.inlineData.mimeType ?? 'application/octet-stream'),
      });
    }
    if (isJsonObject(part.fileData) && typeof part.fileData.fileUri === 'string') {
      const type =
        optionalString(part.fileData.mimeType, '`fileData.mimeType`') ??
        mediaTypeFromName(part.fileData.fileUri);
      media.push(omitUndefined({ url: part.fileData.fileUri, media_type: type }) as MediaItem);
    }
  }
  if (rawFinish === undefined && parts.length === 0)
    throw new ShapeError('The candidate has neither parts nor a finishReason.');
  // A turn that ended for an unlisted reason (OTHER, NO_IMAGE, …) with neither text, media nor a call produced
  // nothing: a failure, not an empty success. STOP and MAX_TOKENS may legitimately end empty (all thinking).
  if (
    rawFinish !== undefined &&
    FINISH_REASONS[rawFinish] === undefined &&
    texts.join('').trim() === '' &&
    media.length === 0 &&
    calls.length === 0
  ) {
    return {
      kind: 'failure',
      code: 'PROVIDER_ERROR',
      message: `The model ended its turn (${rawFinish}) without producing any output.`,
      details: omitUndefined({ provider_finish_reason: rawFinish, finish_message: candidate.finishMessage }),
      metadata: { ...metadata, finish_reason: 'error' },
    };
  }
  const finish =
    rawFinish === undefined
      ? undefined
      : calls.length > 0 && rawFinish === 'STOP'
        ? 'tool_calls'
        : (FINISH_REASONS[rawFinish] ?? 'other');
  return {
    kind: 'success',
    content: texts.join(''),
    usage: googleUsage(root.usageMetadata),
    media,
    metadata: omitUndefined({
      ...metadata,
      finish_reason: finish,
      tool_calls: calls.length > 0 ? calls : undefined,
      reasoning: thoughts.join('') === '' ? undefined : thoughts.join(''),
    }),
  };
}

/** Fold `streamGenerateContent` chunks into one response; a chunk with `error` ends the stream as a failure. */
function assembleGenerateContentStream(events: readonly unknown[]): StreamAssembly {
  const merged: Json = {};
  const parts = new StreamParts();
  let candidate: Json | undefined;
  for (const event of events) {
    const chunk = expectObject(event, 'A stream chunk');
    if (isJsonObject(chunk.error)) return googleStreamError(chunk) ?? googleFailure(chunk, 200);
    for (const key of ['usageMetadata', 'modelVersion', 'responseId', 'promptFeedback'] as const) {
      if (chunk[key] !== undefined) merged[key] = chunk[key];
    }
    const first = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (!isJsonObject(first)) continue;
    candidate = { ...candidate, ...first };
    if (isJsonObject(first.content) && Array.isArray(first.content.parts))
      for (const part of first.content.parts) parts.append(part);
  }
  const blocked =
    isJsonObject(merged.promptFeedback) && typeof merged.promptFeedback.blockReason === 'string';
  if (!blocked && candidate?.finishReason === undefined)
    throw new StreamCutError('The stream ended before a finishReason.');
  const candidates =
    candidate === undefined ? [] : [{ ...candidate, content: { role: 'model', parts: parts.finish() } }];
  return { kind: 'body', body: { ...merged, candidates } };
}

/** Response headers that carry Google's own request id. */
export const GOOGLE_REQUEST_ID_HEADERS = ['x-goog-request-id', 'x-request-id'] as const;

/** `google.generate-content`: Gemini `generateContent` and `streamGenerateContent`. */
export const googleGenerateContent: FormatSpec = {
  provider: 'google',
  blockingFinishReasons: BLOCKING_FINISH_REASONS,
  // @ai-sdk/google names its language, image and video models `google.generative-ai`; all answer Gemini errors.
  aiSdkProviders: [
    'google.generative-ai',
    'google.generative-ai.speech',
    'google.generative-ai.transcription',
    // @ai-sdk/google-vertex's language models answer the same errors.
    'google.vertex.chat',
  ],
  requestIdHeaders: GOOGLE_REQUEST_ID_HEADERS,
  parseSuccess: (body, context) =>
    // The REST stream without `alt=sse` is one JSON array of chunks.
    Array.isArray(body)
      ? fromAssembly(assembleGenerateContentStream(body), context.status)
      : parseGenerateContent(body, context.status),
  parseError: (body, status, text) => googleFailure(Array.isArray(body) ? body[0] : body, status, text),
  assembleStream: assembleGenerateContentStream,
  parseStreamError: googleStreamError,
};

function fromAssembly(assembly: StreamAssembly, status: number): Outcome {
  return assembly.kind === 'body' ? parseGenerateContent(assembly.body, status) : assembly;
}
