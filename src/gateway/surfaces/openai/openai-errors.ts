import type { UnifiedErrorCode } from '../../../unified/error-taxonomy.js';
import { STATUS_OF_UNLISTED_CODE, statusForCode } from '../../../unified/error-taxonomy.js';
import type { UnifiedFailure, UnifiedOutput } from '../../../unified/types.js';
import { type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';

/**
 * Failures in OpenAI's error shape (docs/gateway.md, "Use it from your existing client"): `{error: {message,
 * type, param, code}}` with the HTTP status of verdict's code, so that an OpenAI SDK raises the error class it
 * raises for that status. Verdict's own code travels beside OpenAI's: `error.verdict_code` and the
 * `x-verdict-error-code` header.
 */

/** OpenAI's `type` and `code` for each of verdict's codes (OpenAI's own codes where it has one). */
export const OPENAI_ERRORS = {
  VALIDATION_ERROR: { type: 'invalid_request_error', code: 'invalid_request' },
  CONTEXT_LENGTH_EXCEEDED: { type: 'invalid_request_error', code: 'context_length_exceeded' },
  AUTHENTICATION_ERROR: { type: 'invalid_request_error', code: 'invalid_api_key' },
  INSUFFICIENT_CREDITS: { type: 'insufficient_quota', code: 'insufficient_quota' },
  PERMISSION_DENIED: { type: 'permission_error', code: 'permission_denied' },
  NOT_FOUND: { type: 'invalid_request_error', code: 'not_found' },
  REQUEST_TIMEOUT: { type: 'timeout_error', code: 'request_timeout' },
  PAYLOAD_TOO_LARGE: { type: 'invalid_request_error', code: 'request_too_large' },
  CONTENT_FILTERED: { type: 'invalid_request_error', code: 'content_filter' },
  RATE_LIMITED: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  INTERNAL_ERROR: { type: 'server_error', code: 'internal_error' },
  PROVIDER_ERROR: { type: 'server_error', code: 'provider_error' },
  INVALID_PROVIDER_RESPONSE: { type: 'server_error', code: 'invalid_provider_response' },
  PROVIDER_UNAVAILABLE: { type: 'server_error', code: 'service_unavailable' },
  PROVIDER_TIMEOUT: { type: 'timeout_error', code: 'provider_timeout' },
} as const satisfies Readonly<Record<UnifiedErrorCode, { type: string; code: string }>>;

/** The body of an OpenAI error. */
export interface OpenAiError {
  /** What went wrong, for people. */
  message: string;
  /** OpenAI's error type. */
  type: string;
  /** The request member at fault (`messages[0].content`), or null. */
  param: string | null;
  /** OpenAI's error code. */
  code: string;
  /** Verdict's own code (docs/unified.md, "Error codes"). */
  verdict_code: string;
  /** The request's trace id. */
  trace_id: string;
}

/** A JSON Pointer (`/messages/0/content`) as OpenAI names a parameter (`messages[0].content`). */
export function paramOf(pointer: string): string | null {
  if (pointer === '' || pointer === '/') return null;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(
      (name, token) =>
        /^[0-9]+$/.test(token) ? `${name}[${token}]` : name === '' ? token : `${name}.${token}`,
      '',
    );
}

/** The first problem's member of a validation failure, as OpenAI names it. */
function paramOfFailure(failure: UnifiedFailure): string | null {
  const problems = failure.error.details.problems;
  const first = Array.isArray(problems) ? (problems[0] as { path?: unknown } | undefined) : undefined;
  return typeof first?.path === 'string' ? paramOf(first.path) : null;
}

/** A failure as OpenAI's error body describes it. */
export function toOpenAiError(failure: UnifiedFailure): OpenAiError {
  const known = (OPENAI_ERRORS as Readonly<Record<string, { type: string; code: string }>>)[
    failure.error.code
  ];
  return {
    message: failure.error.message,
    type: known?.type ?? 'server_error',
    param: paramOfFailure(failure),
    code: known?.code ?? failure.error.code.toLowerCase(),
    verdict_code: failure.error.code,
    trace_id: failure.metadata.trace_id,
  };
}

/** The HTTP answer of a failure on the OpenAI surface: its status is verdict's for the code. */
export function renderOpenAiFailure(failure: UnifiedFailure, headers: Record<string, string>): Response {
  const status = statusForCode(failure.error.code) ?? STATUS_OF_UNLISTED_CODE;
  return Response.json(
    { error: toOpenAiError(failure) },
    {
      status,
      headers: {
        ...surfaceHeaders(OPENAI_ERROR_RENDERER, failure.metadata.trace_id, headers),
        'x-verdict-error-code': failure.error.code,
      },
    },
  );
}

/**
 * The OpenAI surface's answers before a route picks its own renderer: failures in OpenAI's shape, and the few
 * successes that are not an OpenAI object (none on this surface's routes) as the envelope.
 */
export const OPENAI_ERROR_RENDERER: Renderer = {
  surface: 'openai',
  requestIdHeader: 'x-request-id',
  render: (envelope: UnifiedOutput, headers) =>
    envelope.success
      ? Response.json(envelope, {
          headers: surfaceHeaders(OPENAI_ERROR_RENDERER, envelope.metadata.trace_id, headers),
        })
      : renderOpenAiFailure(envelope, headers),
};
