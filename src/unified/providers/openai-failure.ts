import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { UnifiedErrorCode } from '../error-taxonomy.js';
import {
  bodySnippet,
  embeddedStatus,
  type FailureOutcome,
  failureForStatus,
  saysContextLength,
} from './provider-outcome.js';

// OpenAI error `code`/`type` values whose meaning is sharper than the HTTP status (OpenAI error codes guide):
// a 429 `insufficient_quota` is a billing problem, not a rate limit; a 400 `content_policy_violation` is a block.
const OPENAI_ERROR_CODES: Readonly<Record<string, UnifiedErrorCode>> = {
  insufficient_quota: 'INSUFFICIENT_CREDITS',
  billing_hard_limit_reached: 'INSUFFICIENT_CREDITS',
  context_length_exceeded: 'CONTEXT_LENGTH_EXCEEDED',
  string_above_max_length: 'CONTEXT_LENGTH_EXCEEDED',
  content_policy_violation: 'CONTENT_FILTERED',
  content_filter: 'CONTENT_FILTERED',
  moderation_blocked: 'CONTENT_FILTERED',
  invalid_api_key: 'AUTHENTICATION_ERROR',
  model_not_found: 'NOT_FOUND',
  rate_limit_exceeded: 'RATE_LIMITED',
  unsupported_country_region_territory: 'PERMISSION_DENIED',
};

/**
 * Error `type` values and what they mean when no HTTP status says it: an error event in the middle of a stream
 * (HTTP 200) or in a 2xx body maps like the same error outside a stream. OpenAI's and compatible servers' types,
 * and Anthropic-style types that proxies pass through.
 */
const ERROR_TYPES_WITHOUT_STATUS: Readonly<Record<string, UnifiedErrorCode>> = {
  invalid_request_error: 'VALIDATION_ERROR',
  authentication_error: 'AUTHENTICATION_ERROR',
  permission_error: 'PERMISSION_DENIED',
  not_found_error: 'NOT_FOUND',
  rate_limit_error: 'RATE_LIMITED',
  billing_error: 'INSUFFICIENT_CREDITS',
  request_too_large: 'PAYLOAD_TOO_LARGE',
  server_error: 'PROVIDER_ERROR',
  api_error: 'PROVIDER_ERROR',
  internal_server_error: 'PROVIDER_ERROR',
  overloaded_error: 'PROVIDER_UNAVAILABLE',
  service_unavailable: 'PROVIDER_UNAVAILABLE',
  service_unavailable_error: 'PROVIDER_UNAVAILABLE',
  timeout_error: 'PROVIDER_TIMEOUT',
};

/**
 * Statuses outside the HTTP registry that OpenAI-compatible providers answer with: Groq's 498 means its flex tier
 * is at capacity (try again later), not a malformed request.
 */
const NONSTANDARD_STATUSES: Readonly<Record<number, UnifiedErrorCode>> = { 498: 'PROVIDER_UNAVAILABLE' };

/** Wording of OpenAI's safety refusals of a prompt. */
const FLAGGED_WORDING = /flagged|usage polic/i;

/**
 * The failure an OpenAI-style error body (`{ error: { message, type, code, param } }`) stands for.
 * `status` is the HTTP status, or the status the error carries itself when it arrived in a 2xx body or a stream
 * (OpenRouter puts the HTTP status in a numeric `error.code`).
 */
export function openAiFailure(body: unknown, status: number, text = ''): FailureOutcome {
  const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : isJsonObject(body) ? body : {};
  const message =
    typeof error.message === 'string'
      ? error.message
      : typeof (body as { error?: unknown } | undefined)?.error === 'string'
        ? String((body as { error: string }).error)
        : bodySnippet(text);
  const code = typeof error.code === 'string' ? error.code : undefined;
  const type = typeof error.type === 'string' ? error.type : undefined;
  const effectiveStatus = embeddedStatus(status, error, isJsonObject(body) ? body : undefined);
  const mapped =
    (code === undefined ? undefined : OPENAI_ERROR_CODES[code]) ??
    (type === undefined ? undefined : OPENAI_ERROR_CODES[type]);
  const details = omitUndefined({
    provider_code: error.code ?? undefined,
    provider_type: type,
    param: error.param ?? undefined,
    provider_error: isJsonObject(body) ? body.error : undefined,
  });
  if (mapped !== undefined) return failureForStatus(effectiveStatus, message, details, mapped);
  // `invalid_prompt` is also how OpenAI refuses a prompt its safety check flagged ("flagged as potentially
  // violating our usage policy"): a moderation block, not a malformed request.
  if (code === 'invalid_prompt' && FLAGGED_WORDING.test(message))
    return failureForStatus(effectiveStatus, message, details, 'CONTENT_FILTERED');
  // OpenRouter's moderation answers 403 with the flagged input and reasons in `error.metadata`.
  if (
    isJsonObject(error.metadata) &&
    (error.metadata.flagged_input !== undefined || Array.isArray(error.metadata.reasons))
  ) {
    return failureForStatus(effectiveStatus, message, details, 'CONTENT_FILTERED');
  }
  if (saysContextLength(code, message))
    return failureForStatus(effectiveStatus, message, details, 'CONTEXT_LENGTH_EXCEEDED');
  // An error that arrives in a 2xx body or mid-stream without its own status is read by its type, else it is a
  // provider-side failure.
  const byType = effectiveStatus < 400 && type !== undefined ? ERROR_TYPES_WITHOUT_STATUS[type] : undefined;
  return failureForStatus(
    effectiveStatus,
    message,
    details,
    effectiveStatus < 400 ? (byType ?? 'PROVIDER_ERROR') : NONSTANDARD_STATUSES[effectiveStatus],
  );
}
