import { CONTRACT_SCHEMA_URL, INVALID_RESULT_CONTRACT } from './codes.js';
import { type Finding, formatFinding } from './findings.js';
import type { FailureResult, ResultContract } from './types.js';
import { validateResult } from './validate-result.js';

/** The replacement {@link ensureResult} returns for a non-conforming result. */
export type InvalidResultContract = FailureResult<{
  error: string;
  error_code: typeof INVALID_RESULT_CONTRACT;
  details: { violations: Finding[]; contract: string };
  meta: { schema_version: 1 };
}>;

/**
 * The runtime guard: returns `value` unchanged when it conforms, otherwise a conforming failure
 * (`error_code: "invalid_result_contract"`) that lists the violations. Never lets an invalid result out.
 * @example
 * ensureResult({ success: true, message: 'ok', error: null }).error_code // 'invalid_result_contract'
 */
export function ensureResult<T>(value: T): (T & ResultContract) | InvalidResultContract {
  const report = validateResult(value);
  if (report.valid) return value as T & ResultContract;
  const list = report.violations.map(formatFinding).join('; ');
  return {
    success: false,
    message: 'An internal result violated QZX Result Contract v1 and was replaced by this failure.',
    error: `The result violated the contract: ${list}.`,
    error_code: INVALID_RESULT_CONTRACT,
    details: { violations: report.violations, contract: CONTRACT_SCHEMA_URL },
    meta: { schema_version: 1 },
  };
}
