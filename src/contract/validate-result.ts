import type { DuplicateMember, ReadWarning } from '../json/types.js';
import { ERROR_CODE_PATTERN, type ValidationWarning, type Violation, type ViolationCode } from './codes.js';
import { duplicateMemberFinding, isJsonObject } from './findings.js';
import type { ResultContract } from './types.js';

// Kept importable from here: modules written against the validator's helpers before they moved to findings.ts.
export { escapePointerToken, isJsonObject } from './findings.js';

/** The outcome of validating one value against the contract: every violation, never only the first. */
export type ValidationReport =
  | { valid: true; value: ResultContract; violations: []; warnings: ValidationWarning[] }
  | { valid: false; violations: Violation[]; warnings: ValidationWarning[] };

/** Facts about the source text that a validator of parsed values cannot see. */
export interface ValidateOptions {
  /** Duplicate member names found while reading; each becomes a `duplicate_member` violation. */
  duplicates?: readonly DuplicateMember[];
  /** Warnings from reading (such as `utf8_bom`), passed through to the report. */
  readWarnings?: readonly ReadWarning[];
}

// docs/library.md: "whitespace" is ECMAScript \s, the meaning of the schema pattern \S under ECMA-262.
const NON_BLANK = /\S/;

/** True for a string with at least one character that is not ECMAScript whitespace. */
export function isNonBlankString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  // Fast path: printable ASCII other than space is never whitespace, and most texts start with one.
  const first = value.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || NON_BLANK.test(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    if (value.length === 0) return 'an empty string';
    return NON_BLANK.test(value) ? 'a string' : 'a string of only whitespace';
  }
  if (typeof value === 'number')
    return Number.isFinite(value) ? `the number ${value}` : 'a non-finite number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Own enumerable member check that never consults the prototype chain. */
function has(object: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(object, key);
}

/**
 * Validates a parsed value against QZX Result Contract v1 and reports every violation.
 * Never throws, whatever the input.
 * @example
 * validateResult({ success: true, message: 'Done.' }).valid // true
 * validateResult({ success: false, message: 'Nope.' }).violations[0].code // 'failure_without_error'
 */
export function validateResult(value: unknown, options: ValidateOptions = {}): ValidationReport {
  const violations: Violation[] = [];
  const add = (code: ViolationCode, path: string, message: string) => {
    violations.push({ code, path, message });
  };
  const readWarnings = options.readWarnings;
  const warnings: ValidationWarning[] =
    readWarnings === undefined || readWarnings.length === 0 ? [] : readWarnings.map((w) => ({ ...w }));

  for (const duplicate of options.duplicates ?? []) violations.push(duplicateMemberFinding(duplicate));

  if (!isJsonObject(value)) {
    add('not_an_object', '', `A result must be a JSON object, got ${describe(value)}.`);
    return { valid: false, violations, warnings };
  }

  const success = value.success;
  if (typeof success !== 'boolean') {
    add(
      'success_not_boolean',
      '/success',
      has(value, 'success')
        ? `success must be a boolean, got ${describe(success)}.`
        : 'success is required and must be a boolean.',
    );
  }

  if (!isNonBlankString(value.message)) {
    add(
      'message_invalid',
      '/message',
      has(value, 'message')
        ? `message must be a string with a non-whitespace character, got ${describe(value.message)}.`
        : 'message is required and must be a string with a non-whitespace character.',
    );
  }

  const hasError = has(value, 'error');
  const hasErrorCode = has(value, 'error_code');
  if (hasError && !isNonBlankString(value.error)) {
    add(
      'error_invalid',
      '/error',
      `error must be a string with a non-whitespace character, got ${describe(value.error)}.`,
    );
  }
  if (hasErrorCode) {
    const code = value.error_code;
    if (typeof code !== 'string' || !ERROR_CODE_PATTERN.test(code)) {
      add(
        'error_code_invalid',
        '/error_code',
        typeof code === 'string'
          ? `error_code must match ^[a-z][a-z0-9_]*$, got ${JSON.stringify(code)}.`
          : `error_code must be a string, got ${describe(code)}.`,
      );
    }
  }

  // The outcome rules only apply when the outcome is known (see docs/library.md).
  if (success === false && !hasError && !hasErrorCode) {
    add('failure_without_error', '', 'A failure must carry error or error_code.');
  }
  if (success === true) {
    if (hasError) {
      add('success_with_error', '/error', `A success must not carry error (here ${describe(value.error)}).`);
    }
    if (hasErrorCode) {
      add(
        'success_with_error',
        '/error_code',
        `A success must not carry error_code (here ${describe(value.error_code)}).`,
      );
    }
  }

  if (has(value, 'details') && !isJsonObject(value.details)) {
    add('details_not_object', '/details', `details must be an object, got ${describe(value.details)}.`);
  }

  if (has(value, 'warnings')) {
    const list = value.warnings;
    if (!Array.isArray(list)) {
      add('warnings_not_array', '/warnings', `warnings must be an array of strings, got ${describe(list)}.`);
    } else {
      list.forEach((item, index) => {
        if (!isNonBlankString(item)) {
          add(
            'warning_item_invalid',
            `/warnings/${index}`,
            `Each warning must be a string with a non-whitespace character, got ${describe(item)}.`,
          );
        }
      });
    }
  }

  if (has(value, 'meta')) {
    validateMeta(value.meta, add);
  }

  if (violations.length > 0) return { valid: false, violations, warnings };
  return { valid: true, value: value as unknown as ResultContract, violations: [], warnings };
}

function validateMeta(
  meta: unknown,
  add: (code: ViolationCode, path: string, message: string) => void,
): void {
  if (!isJsonObject(meta)) {
    add('meta_not_object', '/meta', `meta must be an object, got ${describe(meta)}.`);
    return;
  }
  // `true` is not 1: JSON Schema's `const: 1` compares numbers by value, so 1.0 and 1e0 are 1.
  if (has(meta, 'schema_version') && meta.schema_version !== 1) {
    add(
      'meta_schema_version_invalid',
      '/meta/schema_version',
      `meta.schema_version must be the number 1, got ${describe(meta.schema_version)}.`,
    );
  }
  if (has(meta, 'command') && !isNonBlankString(meta.command)) {
    add(
      'meta_command_invalid',
      '/meta/command',
      `meta.command must be a string with a non-whitespace character, got ${describe(meta.command)}.`,
    );
  }
  if (has(meta, 'duration_ms')) {
    const duration = meta.duration_ms;
    if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) {
      add(
        'meta_duration_invalid',
        '/meta/duration_ms',
        `meta.duration_ms must be a finite number >= 0, got ${describe(duration)}.`,
      );
    }
  }
  if (has(meta, 'command_maturity') && !isJsonObject(meta.command_maturity)) {
    add(
      'meta_command_maturity_not_object',
      '/meta/command_maturity',
      `meta.command_maturity must be an object, got ${describe(meta.command_maturity)}.`,
    );
  }
}
