import { isJsonObject, pointerOf } from '../contract/findings.js';
import { FINISH_REASONS, type UnifiedOutput } from './types.js';
import type { UnifiedViolation, UnifiedViolationCode } from './violation-codes.js';

/** The outcome of {@link validateUnifiedOutput}: the typed envelope, or every violation found. */
export type UnifiedValidation =
  | { valid: true; value: UnifiedOutput; violations: [] }
  | { valid: false; violations: UnifiedViolation[] };

/** The members an envelope may carry at the top level (docs/unified.md: provider facts go into `metadata`). */
const TOP_LEVEL_MEMBERS = new Set([
  'success',
  'content',
  'provider',
  'usage',
  'metadata',
  'images',
  'files',
  'videos',
  'error',
]);
const SUCCESS_ONLY_MEMBERS = ['content', 'usage', 'images', 'files', 'videos'] as const;
const MEDIA_ARRAYS = ['images', 'files', 'videos'] as const;
/** A normalized provider id (see docs/unified.md): lowercase, such as `openai` or `openai-compatible`. */
export const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
/** The shape of a taxonomy code: UPPER_SNAKE_CASE (not the contract's snake_case `error_code`). */
const TAXONOMY_CODE_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const MEDIA_TYPE_PATTERN = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;.*)?$/i;
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

type Record_ = Record<string, unknown>;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isNonNegative(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** How each known metadata key is typed; unknown keys are not checked. */
const METADATA_CHECKS: Record<string, [(value: unknown) => boolean, string]> = {
  model: [isNonEmptyString, 'a non-empty string'],
  provider_request_id: [isNonEmptyString, 'a non-empty string'],
  latency_ms: [isNonNegative, 'a finite number >= 0'],
  duration_ms: [isNonNegative, 'a finite number >= 0'],
  usage_reported: [(value) => typeof value === 'boolean', 'a boolean'],
  usage_details: [
    (value) => isJsonObject(value) && Object.values(value).every(isNonNegative),
    'an object of numbers >= 0',
  ],
  cost: [
    (value) =>
      isJsonObject(value) &&
      (value.usd === null || isNonNegative(value.usd)) &&
      ['source', 'version', 'reason'].every(
        (name) => value[name] === undefined || isNonEmptyString(value[name]),
      ),
    'an object whose usd is a number >= 0 or null',
  ],
  // A gateway's cache hit (docs/unified.md): the original request's trace id and the entry's age.
  cache: [
    (value) =>
      isJsonObject(value) &&
      value.status === 'hit' &&
      isNonEmptyString(value.trace_id) &&
      Number.isInteger(value.age_s) &&
      (value.age_s as number) >= 0,
    'an object {"status": "hit", "trace_id": <non-empty string>, "age_s": <integer >= 0>}',
  ],
};

/** How each optional media member is typed. */
const MEDIA_CHECKS: Record<string, [(value: unknown) => boolean, string]> = {
  url: [isNonEmptyString, 'a non-empty string'],
  data: [(value) => isNonEmptyString(value) && BASE64_PATTERN.test(value), 'a non-empty base64 string'],
  media_type: [
    (value) => typeof value === 'string' && MEDIA_TYPE_PATTERN.test(value),
    'a media type like image/png',
  ],
  width: [(value) => isCount(value) && (value as number) > 0, 'a positive integer'],
  height: [(value) => isCount(value) && (value as number) > 0, 'a positive integer'],
  duration_s: [isNonNegative, 'a finite number >= 0'],
  revised_prompt: [(value) => typeof value === 'string', 'a string'],
  name: [isNonEmptyString, 'a non-empty string'],
};

/**
 * Check a value against the unified output envelope (see docs/unified.md) and report every violation; never throws.
 * @example
 * const result = validateUnifiedOutput(JSON.parse(body));
 * if (!result.valid) console.error(result.violations.map((v) => `${v.code} at ${v.path}`));
 */
export function validateUnifiedOutput(value: unknown): UnifiedValidation {
  const violations: UnifiedViolation[] = [];
  const report = (code: UnifiedViolationCode, path: string, message: string) => {
    violations.push({ code, path, message });
  };
  if (!isJsonObject(value)) {
    report('not_an_object', '', 'The envelope is not a JSON object.');
    return { valid: false, violations };
  }
  for (const key of Object.keys(value)) {
    if (!TOP_LEVEL_MEMBERS.has(key)) {
      report(
        'unknown_member',
        pointerOf(key),
        `\`${key}\` is not an envelope member; put provider facts in metadata.`,
      );
    }
  }
  if (typeof value.success !== 'boolean') {
    report('success_not_boolean', '/success', '`success` must be a boolean.');
  }
  if (typeof value.provider !== 'string' || !PROVIDER_ID_PATTERN.test(value.provider)) {
    report('provider_invalid', '/provider', '`provider` must be a lowercase id such as openai or system.');
  }
  checkMetadata(value.metadata, report);
  if (value.success === true) checkSuccess(value, report);
  if (value.success === false) checkFailure(value, report);
  return violations.length === 0
    ? { valid: true, value: value as unknown as UnifiedOutput, violations: [] }
    : { valid: false, violations };
}

type Report = (code: UnifiedViolationCode, path: string, message: string) => void;

function checkMetadata(metadata: unknown, report: Report): void {
  if (!isJsonObject(metadata)) {
    report('metadata_invalid', '/metadata', '`metadata` must be an object.');
    return;
  }
  // docs/unified.md: the trace id is always present in metadata.trace_id, on successes and failures alike.
  if (!isNonEmptyString(metadata.trace_id)) {
    report('trace_id_invalid', '/metadata/trace_id', '`metadata.trace_id` must be a non-empty string.');
  }
  for (const [key, [check, expected]] of Object.entries(METADATA_CHECKS)) {
    if (key in metadata && !check(metadata[key])) {
      report(
        'metadata_member_invalid',
        pointerOf('metadata', key),
        `\`metadata.${key}\` must be ${expected}.`,
      );
    }
  }
  if (
    'finish_reason' in metadata &&
    !(FINISH_REASONS as readonly unknown[]).includes(metadata.finish_reason)
  ) {
    report(
      'finish_reason_invalid',
      '/metadata/finish_reason',
      `\`metadata.finish_reason\` must be one of ${FINISH_REASONS.join(', ')}.`,
    );
  }
}

function checkSuccess(value: Record_, report: Report): void {
  if ('error' in value) report('success_with_error', '/error', 'A success must not carry `error`.');
  if (typeof value.content !== 'string') report('content_invalid', '/content', '`content` must be a string.');
  if (!isJsonObject(value.usage)) {
    report('usage_invalid', '/usage', '`usage` must be an object.');
  } else {
    const unreported = isJsonObject(value.metadata) && value.metadata.usage_reported === false;
    for (const key of ['input_tokens', 'output_tokens'] as const) {
      if (!isCount(value.usage[key])) {
        report(
          'usage_tokens_invalid',
          pointerOf('usage', key),
          `\`usage.${key}\` must be a non-negative integer.`,
        );
      } else if (unreported && value.usage[key] !== 0) {
        // docs/unified.md: when a provider reports no usage, the counts are 0 and usage_reported is false.
        report(
          'usage_counted_but_unreported',
          pointerOf('usage', key),
          `\`usage.${key}\` must be 0 when \`metadata.usage_reported\` is false.`,
        );
      }
    }
  }
  for (const name of MEDIA_ARRAYS) {
    const items = value[name];
    if (!Array.isArray(items)) {
      report(
        'media_not_array',
        pointerOf(name),
        `\`${name}\` must be an array (empty when the modality does not apply).`,
      );
      continue;
    }
    for (const [index, item] of items.entries()) checkMediaItem(item, pointerOf(name, index), report);
  }
}

function checkMediaItem(item: unknown, path: string, report: Report): void {
  if (!isJsonObject(item)) {
    report('media_item_invalid', path, 'A media item must be an object.');
    return;
  }
  const hasUrl = 'url' in item;
  const hasData = 'data' in item;
  if (!hasUrl && !hasData) {
    report('media_item_invalid', path, 'A media item needs a `url` or `data`.');
  } else if (hasData && !hasUrl && !('media_type' in item)) {
    report('media_item_invalid', path, 'A media item with `data` needs a `media_type`.');
  }
  for (const [key, [check, expected]] of Object.entries(MEDIA_CHECKS)) {
    if (key in item && !check(item[key])) {
      report('media_member_invalid', `${path}/${key}`, `\`${key}\` must be ${expected}.`);
    }
  }
}

function checkFailure(value: Record_, report: Report): void {
  for (const key of SUCCESS_ONLY_MEMBERS) {
    if (key in value) {
      report('failure_with_success_member', pointerOf(key), `A failure must not carry \`${key}\`.`);
    }
  }
  const error = value.error;
  if (!isJsonObject(error)) {
    report('error_invalid', '/error', 'A failure must carry an `error` object.');
    return;
  }
  if (typeof error.code !== 'string' || !TAXONOMY_CODE_PATTERN.test(error.code)) {
    report('error_code_invalid', '/error/code', '`error.code` must be an UPPER_SNAKE_CASE string.');
  }
  if (!isNonEmptyString(error.message)) {
    report('error_message_invalid', '/error/message', '`error.message` must be a non-empty string.');
  }
  if (!isJsonObject(error.details)) {
    report('error_details_invalid', '/error/details', '`error.details` must be an object.');
  }
}
