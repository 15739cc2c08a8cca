/** Codes of the errors verdict throws for misuse and I/O failures (bad input is never thrown: it is data). */
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
  /** Stable snake_case code of this error. */
  readonly code: VerdictErrorCode | (string & {});

  constructor(code: VerdictErrorCode | (string & {}), message: string, options?: { cause?: unknown }) {
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
      typeof (value as { code?: unknown }).code === 'string')
  );
}
