import { ERROR_CODE_PATTERN } from './codes.js';
import { VerdictError } from './errors.js';
import { formatFinding, omitUndefined } from './findings.js';
import type { FailureFields, FailureResult, SuccessResult } from './types.js';
import { isNonBlankString, validateResult } from './validate-result.js';

/** Domain fields a success may carry: anything but the core members. */
export type SuccessFields = { [key: string]: unknown } & {
  success?: never;
  message?: never;
  error?: never;
  error_code?: never;
};

/** What a failure carries besides its message: `error` and/or `error_code`, plus domain fields. */
export type FailureInput = FailureFields & { [key: string]: unknown } & { success?: never; message?: never };

const CORE_MEMBERS = ['success', 'message', 'error', 'error_code'] as const;

function checkMessage(message: unknown, builder: string): void {
  if (!isNonBlankString(message)) {
    throw new VerdictError(
      'invalid_builder_input',
      `${builder}(): message must be a string with a non-whitespace character.`,
    );
  }
}

/** The domain fields to copy into a result: members set to undefined are dropped, core members skipped. */
function copyDefined(fields: object, skip: readonly string[]): Record<string, unknown> {
  const copy = omitUndefined(fields) as Record<string, unknown>;
  for (const key of skip) delete copy[key];
  return copy;
}

function checkBuilt(result: Record<string, unknown>, builder: string): void {
  const report = validateResult(result);
  if (!report.valid) {
    const list = report.violations.map(formatFinding).join('; ');
    throw new VerdictError(
      'invalid_builder_input',
      `${builder}() would produce a non-conforming result: ${list}.`,
    );
  }
}

/**
 * Builds a success result; throws a {@link VerdictError} when the message is blank, a domain field tries to
 * take a core member, or an optional member has the wrong type.
 * @example
 * ok('Found 2 files.', { matches: ['a.txt', 'b.txt'] })
 * // { success: true, message: 'Found 2 files.', matches: ['a.txt', 'b.txt'] }
 */
export function ok<const F extends SuccessFields = Record<never, never>>(
  message: string,
  fields?: F,
): SuccessResult<F> {
  checkMessage(message, 'ok');
  const extra = fields === undefined ? {} : copyDefined(fields, []);
  for (const core of CORE_MEMBERS) {
    if (Object.hasOwn(extra, core)) {
      throw new VerdictError(
        'invalid_builder_input',
        `ok(): the domain field "${core}" would overwrite a core member.`,
      );
    }
  }
  const result = { success: true, message, ...extra };
  checkBuilt(result, 'ok');
  return result as unknown as SuccessResult<F>;
}

/**
 * Builds a failure result from a message and `error` and/or `error_code`; throws a {@link VerdictError} when
 * both are missing, the code does not match `^[a-z][a-z0-9_]*$`, or a domain field tries to take a core member.
 * @example
 * fail('The file does not exist.', { error_code: 'path_not_found', path: 'a.txt' })
 */
export function fail<const F extends FailureInput>(
  message: string,
  fields: F,
): FailureResult<F> & Pick<F, 'error_code' & keyof F> {
  checkMessage(message, 'fail');
  if (typeof fields !== 'object' || fields === null) {
    throw new VerdictError(
      'invalid_builder_input',
      'fail(): the second argument must carry error or error_code.',
    );
  }
  for (const core of ['success', 'message'] as const) {
    if (Object.hasOwn(fields, core)) {
      throw new VerdictError(
        'invalid_builder_input',
        `fail(): the field "${core}" would overwrite a core member.`,
      );
    }
  }
  const { error, error_code } = fields as { error?: unknown; error_code?: unknown };
  if (error === undefined && error_code === undefined) {
    throw new VerdictError('invalid_builder_input', 'fail(): a failure must carry error or error_code.');
  }
  if (error !== undefined && !isNonBlankString(error)) {
    throw new VerdictError(
      'invalid_builder_input',
      'fail(): error must be a string with a non-whitespace character.',
    );
  }
  if (error_code !== undefined && (typeof error_code !== 'string' || !ERROR_CODE_PATTERN.test(error_code))) {
    throw new VerdictError(
      'invalid_builder_input',
      `fail(): error_code must match ^[a-z][a-z0-9_]*$, got ${JSON.stringify(error_code)}.`,
    );
  }
  // Spread, not Object.assign: assigning a `__proto__` domain field would replace the result's prototype.
  const result: Record<string, unknown> = {
    success: false,
    message,
    ...(error === undefined ? {} : { error }),
    ...(error_code === undefined ? {} : { error_code }),
    ...copyDefined(fields, CORE_MEMBERS),
  };
  checkBuilt(result, 'fail');
  // The code's literal type stays on the result, so a command's codes can be checked against its table.
  return result as unknown as FailureResult<F> & Pick<F, 'error_code' & keyof F>;
}
