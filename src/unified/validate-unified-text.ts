import { duplicateMemberFinding } from '../contract/findings.js';
import { readJson } from '../json/index.js';
import type { ReadError, ReadOptions } from '../json/types.js';
import { validateUnifiedOutput } from './validate-unified-output.js';
import type { UnifiedViolation } from './violation-codes.js';

/** The outcome of {@link validateUnifiedText}: every violation, or the reason the input could not be read. */
export type UnifiedTextValidation =
  | { valid: boolean; violations: UnifiedViolation[]; readError?: undefined }
  | { valid: false; violations: []; readError: ReadError };

/**
 * Read `input` strictly (UTF-8 only, one value, depth checked) and validate it as a unified output envelope;
 * a member named twice is a `duplicate_member` violation at the object's pointer. Unreadable input comes back as `readError`.
 * @example validateUnifiedText('{"success":true}').violations.map((v) => v.code) // ['provider_invalid', …]
 */
export function validateUnifiedText(
  input: string | Uint8Array,
  options: ReadOptions = {},
): UnifiedTextValidation {
  const read = readJson(input, options);
  if (!read.ok) return { valid: false, violations: [], readError: read.error };
  const duplicates: UnifiedViolation[] = read.duplicates.map((duplicate) =>
    duplicateMemberFinding(duplicate),
  );
  const violations = [...duplicates, ...validateUnifiedOutput(read.value).violations];
  return { valid: violations.length === 0, violations };
}
