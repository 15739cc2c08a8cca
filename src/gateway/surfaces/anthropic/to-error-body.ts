import { STATUS_OF_UNLISTED_CODE, statusForCode } from '../../../unified/error-taxonomy.js';
import type { UnifiedFailure } from '../../../unified/types.js';
import type { Unrenderable } from './to-message.js';

/**
 * A failure envelope as Anthropic's error body `{type: "error", error: {type, message}}` (docs/gateway.md,
 * "Anthropic clients"). The status stays the one verdict's taxonomy gives the code, and verdict's code rides
 * along as `error.verdict_code` (and the `x-verdict-error-code` header) for programs that want the finer meaning.
 */

/** Anthropic's error type for each of verdict's codes; a code outside the table is an `api_error`. */
export const ANTHROPIC_ERROR_TYPES = {
  VALIDATION_ERROR: 'invalid_request_error',
  CONTEXT_LENGTH_EXCEEDED: 'invalid_request_error',
  CONTENT_FILTERED: 'invalid_request_error',
  AUTHENTICATION_ERROR: 'authentication_error',
  INSUFFICIENT_CREDITS: 'billing_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  REQUEST_TIMEOUT: 'timeout_error',
  PAYLOAD_TOO_LARGE: 'request_too_large',
  RATE_LIMITED: 'rate_limit_error',
  INTERNAL_ERROR: 'api_error',
  PROVIDER_ERROR: 'api_error',
  INVALID_PROVIDER_RESPONSE: 'api_error',
  PROVIDER_UNAVAILABLE: 'overloaded_error',
  PROVIDER_TIMEOUT: 'timeout_error',
} as const;

/** One of the Anthropic error types the gateway answers with. */
export type AnthropicErrorType = (typeof ANTHROPIC_ERROR_TYPES)[keyof typeof ANTHROPIC_ERROR_TYPES];

/** The header that names verdict's own error code on every drop-in error answer. */
export const VERDICT_ERROR_CODE_HEADER = 'x-verdict-error-code';

/** Anthropic's error body. */
export interface AnthropicErrorBody {
  type: 'error';
  error: {
    type: AnthropicErrorType;
    message: string;
    verdict_code: string;
    details?: Record<string, unknown>;
  };
  request_id: string;
}

/** Anthropic's error type for a verdict code. */
export function errorTypeOf(code: string): AnthropicErrorType {
  return Object.hasOwn(ANTHROPIC_ERROR_TYPES, code)
    ? ANTHROPIC_ERROR_TYPES[code as keyof typeof ANTHROPIC_ERROR_TYPES]
    : 'api_error';
}

/** The error body and status of a failure envelope. */
export function toErrorBody(failure: UnifiedFailure): { status: number; body: AnthropicErrorBody } {
  const details = failure.error.details;
  return {
    status: statusForCode(failure.error.code) ?? STATUS_OF_UNLISTED_CODE,
    body: {
      type: 'error',
      error: {
        type: errorTypeOf(failure.error.code),
        message: failure.error.message,
        verdict_code: failure.error.code,
        ...(Object.keys(details).length > 0 ? { details } : {}),
      },
      request_id: failure.metadata.trace_id,
    },
  };
}

/** The error answered for a success that cannot be written as a Message (docs/gateway.md, "Anthropic clients"). */
export function unrenderableError(
  problem: Unrenderable,
  traceId: string,
): { status: number; body: AnthropicErrorBody } {
  return {
    status: statusForCode(problem.code),
    body: {
      type: 'error',
      error: {
        type: errorTypeOf(problem.code),
        message: problem.message,
        verdict_code: problem.code,
        details: problem.details,
      },
      request_id: traceId,
    },
  };
}
