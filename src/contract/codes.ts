import type { Finding } from './findings.js';

/**
 * Every violation code of QZX Result Contract v1 (see docs/library.md), with what it means.
 * The union type {@link ViolationCode} is derived from this table.
 */
export const VIOLATION_CODES = {
  not_an_object: 'The document is not a JSON object.',
  success_not_boolean: '`success` is missing or not a boolean.',
  message_invalid: '`message` is missing or not a string with a non-whitespace character.',
  error_invalid: '`error` is not a string with a non-whitespace character.',
  error_code_invalid: '`error_code` is not a string matching ^[a-z][a-z0-9_]*$.',
  failure_without_error: 'A failure carries neither `error` nor `error_code`.',
  success_with_error: 'A success carries `error` or `error_code`.',
  details_not_object: '`details` is not an object.',
  warnings_not_array: '`warnings` is not an array.',
  warning_item_invalid: 'An item of `warnings` is not a string with a non-whitespace character.',
  meta_not_object: '`meta` is not an object.',
  meta_schema_version_invalid: '`meta.schema_version` is not the number 1.',
  meta_command_invalid: '`meta.command` is not a string with a non-whitespace character.',
  meta_duration_invalid: '`meta.duration_ms` is not a finite number >= 0.',
  meta_command_maturity_not_object: '`meta.command_maturity` is not an object.',
  duplicate_member: 'An object names the same member twice.',
} as const;

/** A stable violation code of the result contract. */
export type ViolationCode = keyof typeof VIOLATION_CODES;

/** Codes of warnings: remarks that do not make a document non-conforming. */
export const WARNING_CODES = {
  utf8_bom: 'The input starts with a UTF-8 byte order mark.',
} as const;

/** One broken rule: its stable code, where (a JSON Pointer, `""` for the root) and a sentence for people. */
export type Violation = Finding<ViolationCode>;

/** A remark that does not break the contract, with its stable snake_case code. */
export type ValidationWarning = Finding;

/** The `$id` of QZX Result Contract v1's JSON Schema. */
export const CONTRACT_SCHEMA_URL = 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json';

/** `error_code` of the replacement that {@link ensureResult} returns for a non-conforming result. */
export const INVALID_RESULT_CONTRACT = 'invalid_result_contract';

/** The pattern every `error_code` matches, whole string. */
export const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_]*$/;
