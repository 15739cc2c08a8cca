import type { Finding } from '../contract/findings.js';

/**
 * Every violation code of the unified output envelope (see docs/unified.md), with what it means.
 * {@link UnifiedViolationCode} is derived from this table.
 */
export const UNIFIED_VIOLATION_CODES = {
  not_an_object: 'The envelope is not a JSON object.',
  success_not_boolean: '`success` is missing or not a boolean.',
  unknown_member: 'A top-level member outside the envelope; provider facts belong in `metadata`.',
  provider_invalid: '`provider` is missing or not a lowercase id such as `openai`.',
  content_invalid: 'A success has no string `content`.',
  usage_invalid: 'A success has no `usage` object.',
  usage_tokens_invalid: '`usage.input_tokens` or `usage.output_tokens` is not a non-negative integer.',
  usage_counted_but_unreported:
    '`metadata.usage_reported` is false but a token count is not 0 (unreported usage counts as 0).',
  metadata_invalid: '`metadata` is missing or not an object.',
  trace_id_invalid: '`metadata.trace_id` is missing or not a non-empty string.',
  metadata_member_invalid: 'A known `metadata` member has the wrong type.',
  finish_reason_invalid:
    '`metadata.finish_reason` is not stop, length, content_filter, tool_calls, error or other.',
  media_not_array: '`images`, `files` or `videos` is missing from a success or not an array.',
  media_item_invalid: 'A media item is not an object with a `url` or with `data` and `media_type`.',
  media_member_invalid:
    'A media item member has the wrong type (url, data, media_type, width, height, duration_s…).',
  success_with_error: 'A success carries `error`.',
  failure_with_success_member: 'A failure carries `content`, `usage`, `images`, `files` or `videos`.',
  error_invalid: 'A failure has no `error` object.',
  error_code_invalid: '`error.code` is not an UPPER_SNAKE_CASE string.',
  error_message_invalid: '`error.message` is not a non-empty string.',
  error_details_invalid: '`error.details` is missing or not an object.',
  duplicate_member: 'An object names the same member twice (found when validating text).',
} as const;

/** A stable violation code of the unified output envelope. */
export type UnifiedViolationCode = keyof typeof UNIFIED_VIOLATION_CODES;

/** One broken rule of the envelope: its code, where (a JSON Pointer, `""` for the root) and a sentence for people. */
export type UnifiedViolation = Finding<UnifiedViolationCode>;
