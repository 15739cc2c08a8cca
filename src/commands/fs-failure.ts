import { type FailureResult, fail } from '../contract/index.js';

/** Failure codes for the file-system errors the reference commands report, keyed by Node's errno code. */
export const FS_FAILURE_CODES = {
  ENOENT: 'path_not_found',
  ENOTDIR: 'path_not_found',
  ELOOP: 'path_not_found',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EISDIR: 'is_a_directory',
} as const;

/** A failure code derived from a file-system error. */
export type FsFailureCode = (typeof FS_FAILURE_CODES)[keyof typeof FS_FAILURE_CODES];

const MESSAGES: Record<FsFailureCode, (path: string) => string> = {
  path_not_found: (path) => `Nothing exists at ${path}.`,
  permission_denied: (path) => `Permission denied for ${path}.`,
  is_a_directory: (path) => `${path} is a directory, not a file.`,
};

/** The errno code (`ENOENT`, …) of a Node system error, or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a file-system error about `path` into a contract failure, or returns undefined when the error is not
 * one of {@link FS_FAILURE_CODES} (the caller rethrows it, and the runtime reports `unexpected_error`).
 */
export function toFsFailure(error: unknown, path: string): FailureResult | undefined {
  const errno = errnoOf(error);
  if (errno === undefined || !Object.hasOwn(FS_FAILURE_CODES, errno)) return undefined;
  const code = FS_FAILURE_CODES[errno as keyof typeof FS_FAILURE_CODES];
  const detail = error instanceof Error ? error.message : errno;
  return fail(MESSAGES[code](path), { error_code: code, error: detail, path });
}
