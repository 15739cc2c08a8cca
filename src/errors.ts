/**
 * The closed list of codes of the errors verdict throws: misuse (a builder given what cannot make a conforming
 * result, an argument of the wrong kind, a feature that is not there) and I/O failures that have no result to
 * carry them. Bad input is returned as data (a report, a read error, a failure result), never thrown.
 */
export const VERDICT_ERROR_CODES = [
  'invalid_builder_input',
  'invalid_argument',
  'io_error',
  'not_supported',
] as const;

/** One of {@link VERDICT_ERROR_CODES}. */
export type VerdictErrorCode = (typeof VERDICT_ERROR_CODES)[number];

/** The one error class verdict throws; `code` says what went wrong in a stable, machine-readable way. */
export class VerdictError extends Error {
  /** Stable snake_case code of this error, one of {@link VERDICT_ERROR_CODES}. */
  readonly code: VerdictErrorCode;

  constructor(code: VerdictErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VerdictError';
    this.code = code;
  }
}

/** True for a {@link VerdictError}, also one that crossed a realm or bundle boundary (matched on `name`). */
export function isVerdictError(value: unknown): value is VerdictError {
  return (
    value instanceof VerdictError ||
    (value instanceof Error &&
      value.name === 'VerdictError' &&
      (VERDICT_ERROR_CODES as readonly unknown[]).includes((value as { code?: unknown }).code))
  );
}
