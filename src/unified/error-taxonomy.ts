/**
 * The error taxonomy of the unified output (see docs/unified.md): each code with its HTTP status and typical sources.
 * {@link UnifiedErrorCode} is derived from this table; nothing else decides a failure's status.
 */
export const UNIFIED_ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: 'Malformed request or unsupported parameter.' },
  CONTEXT_LENGTH_EXCEEDED: { status: 400, description: 'The prompt is longer than the model accepts.' },
  AUTHENTICATION_ERROR: { status: 401, description: 'Bad or missing credentials.' },
  INSUFFICIENT_CREDITS: {
    status: 402,
    description: 'Billing problem or exhausted quota (OpenAI insufficient_quota).',
  },
  PERMISSION_DENIED: { status: 403, description: 'The caller may not use this model, resource or region.' },
  NOT_FOUND: { status: 404, description: 'Unknown model or resource.' },
  REQUEST_TIMEOUT: { status: 408, description: 'The request timed out on the client side.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request is too large.' },
  CONTENT_FILTERED: { status: 422, description: 'Safety refusal or moderation block.' },
  RATE_LIMITED: { status: 429, description: 'Rate limit reached.' },
  INTERNAL_ERROR: { status: 500, description: 'A bug on our side.' },
  PROVIDER_ERROR: { status: 502, description: 'Provider 5xx or failed asynchronous job.' },
  INVALID_PROVIDER_RESPONSE: { status: 502, description: 'Unparseable or contradictory provider body.' },
  PROVIDER_UNAVAILABLE: { status: 503, description: 'Provider overloaded or unavailable (Anthropic 529).' },
  PROVIDER_TIMEOUT: { status: 504, description: 'The provider missed its deadline.' },
} as const;

/** One code of the unified error taxonomy. */
export type UnifiedErrorCode = keyof typeof UNIFIED_ERROR_CODES;

/** True when `code` is one of the taxonomy's codes. */
export function isUnifiedErrorCode(code: unknown): code is UnifiedErrorCode {
  return typeof code === 'string' && Object.hasOwn(UNIFIED_ERROR_CODES, code);
}

/** The status a failure whose code is not in the taxonomy is served with: it is treated as an internal error. */
export const STATUS_OF_UNLISTED_CODE = 500;

/**
 * The HTTP status a failure with this code is served with; `undefined` for a code outside the taxonomy.
 * @example statusForCode('RATE_LIMITED') // 429
 */
export function statusForCode(code: UnifiedErrorCode): number;
export function statusForCode(code: string): number | undefined;
export function statusForCode(code: string): number | undefined {
  return isUnifiedErrorCode(code) ? UNIFIED_ERROR_CODES[code].status : undefined;
}

/** The taxonomy code for an HTTP error status of a provider (docs/unified.md: 4xx by meaning, 5xx and 529 by kind). */
export function codeForProviderStatus(status: number): UnifiedErrorCode {
  switch (status) {
    case 400:
    case 409:
    case 422:
      return 'VALIDATION_ERROR';
    case 401:
      return 'AUTHENTICATION_ERROR';
    case 402:
      return 'INSUFFICIENT_CREDITS';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 408:
      return 'REQUEST_TIMEOUT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
    case 529:
      return 'PROVIDER_UNAVAILABLE';
    case 504:
      return 'PROVIDER_TIMEOUT';
    default:
      return status >= 500 ? 'PROVIDER_ERROR' : 'VALIDATION_ERROR';
  }
}
