import { readJson } from '../json/read-json.js';
import type { ReadError, ReadOptions } from '../json/types.js';
import type { ValidationWarning } from './codes.js';
import { type ValidationReport, validateResult } from './validate-result.js';

/** The outcome of validating text or bytes: a validation report, or the reason the input could not be read. */
export type TextValidationReport =
  | (ValidationReport & { readError?: undefined })
  | { valid: false; readError: ReadError; violations: []; warnings: ValidationWarning[] };

/**
 * Reads `input` strictly (UTF-8 only, one value, duplicate members and depth checked) and validates it against
 * the contract. Unreadable input is not a violation: it comes back as `readError`.
 * @example
 * validateResultText('{"success":true,"message":"ok","message":"again"}').violations[0].code // 'duplicate_member'
 */
export function validateResultText(
  input: string | Uint8Array,
  options: ReadOptions = {},
): TextValidationReport {
  const read = readJson(input, options);
  if (!read.ok) return { valid: false, readError: read.error, violations: [], warnings: [] };
  return validateResult(read.value, { duplicates: read.duplicates, readWarnings: read.warnings });
}
