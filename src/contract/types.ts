/** The optional `meta` member: facts about the run that produced a result. Unknown members are allowed. */
export interface ResultMeta {
  /** Version of the shared envelope; always the number 1 for this contract. */
  schema_version?: 1;
  /** Name of the operation that produced the result. */
  command?: string;
  /** Wall-clock duration of the operation in milliseconds. */
  duration_ms?: number;
  /** Free-form maturity facts about the command. */
  command_maturity?: Record<string, unknown>;
  /** Any other fact; consumers ignore what they do not understand. */
  [key: string]: unknown;
}

/** Members every result may carry, whatever its outcome. */
export interface ResultBase {
  /** A complete human-readable summary of the outcome. */
  message: string;
  /** Structured evidence about the outcome. */
  details?: Record<string, unknown>;
  /** Remarks that do not change the outcome. */
  warnings?: string[];
  /** Facts about the run. */
  meta?: ResultMeta;
}

/** The members a domain may not redefine: they belong to the contract. */
export type CoreMemberName = 'success' | 'message' | 'error' | 'error_code';

/** Domain fields: anything but the core members. */
export type DomainFields = { [key: string]: unknown } & { [K in CoreMemberName]?: never };

/** A completed operation that succeeded: it never carries `error` or `error_code`. */
export type SuccessResult<F extends object = Record<never, never>> = ResultBase & {
  /** Always `true` for a success. */
  success: true;
  error?: never;
  error_code?: never;
} & Omit<F, CoreMemberName | keyof ResultBase>;

/** The failure fields: `error`, `error_code`, or both, never neither. */
export type FailureFields = { error: string; error_code?: string } | { error?: string; error_code: string };

/** A completed operation that failed: it carries `error`, `error_code` or both. */
export type FailureResult<F extends object = Record<never, never>> = ResultBase & {
  /** Always `false` for a failure. */
  success: false;
} & FailureFields &
  Omit<F, CoreMemberName | keyof ResultBase>;

/**
 * A QZX Result Contract v1 document, discriminated on `success`:
 * `if (result.success)` narrows to {@link SuccessResult}, else to {@link FailureResult}.
 */
export type ResultContract<S extends object = Record<never, never>, F extends object = Record<never, never>> =
  | SuccessResult<S>
  | FailureResult<F>;
