import type { DuplicateMember, ReadError } from '../json/types.js';

/**
 * One finding of any validator in verdict: a stable code, where (a JSON Pointer, `""` for the root) and one
 * sentence for people. Violations and warnings of every contract and profile have this shape.
 */
export interface Finding<C extends string = string> {
  /** Stable snake_case code. */
  code: C;
  /** JSON Pointer of the value the finding is about. */
  path: string;
  /** One sentence saying what is wrong or remarkable. */
  message: string;
}

/**
 * Renders a finding as one line that starts with its stable code, as receipts and reports list them.
 * @example
 * formatFinding({ code: 'message_invalid', path: '/message', message: 'message is required.' })
 * // 'message_invalid at /message: message is required.'
 */
export function formatFinding(finding: Finding): string {
  return `${finding.code} at ${finding.path === '' ? '(root)' : finding.path}: ${finding.message}`;
}

// JSON Pointers are written by the strict reader's module; every validator builds its findings' paths with it.
export { escapePointerToken, pointerOf } from '../json/json-pointer.js';

/**
 * The `duplicate_member` finding for a member name read twice in one object: its path is the object's pointer
 * and its message names the key (see "Strict reading" in docs/library.md). Every validator reports it this way.
 */
export function duplicateMemberFinding(duplicate: DuplicateMember): Finding<'duplicate_member'>;
/** The same finding under another code, such as `tool_definition_duplicate_member`. */
export function duplicateMemberFinding<C extends string>(duplicate: DuplicateMember, code: C): Finding<C>;
export function duplicateMemberFinding(duplicate: DuplicateMember, code = 'duplicate_member'): Finding {
  const where = duplicate.path === '' ? 'The root object' : `The object at ${duplicate.path}`;
  return {
    code,
    path: duplicate.path,
    message: `${where} names the member ${JSON.stringify(duplicate.key)} more than once.`,
  };
}

/** One line for people saying why an input could not be read, with its position when known. */
export function describeReadError(error: ReadError): string {
  const where = error.line === undefined ? '' : ` (line ${error.line}, column ${error.column ?? '?'})`;
  return `${error.reason}: ${error.message}${where}`;
}

/** The finding for an input that could not be read: `what` (such as "The tool definition") and why. */
export function readErrorFinding<C extends string>(code: C, error: ReadError, what: string): Finding<C> {
  return { code, path: '', message: `${what} could not be read: ${describeReadError(error)}` };
}

/**
 * The read error for an exception thrown while opening or reading a file, named `label` in the message:
 * a missing file (`ENOENT`, `ENOTDIR`) is `not_found`, anything else `unreadable`.
 */
export function readErrorFromThrown(thrown: unknown, label: string): ReadError {
  const code =
    typeof thrown === 'object' && thrown !== null ? (thrown as { code?: unknown }).code : undefined;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return { reason: 'not_found', message: `${label} does not exist.` };
  if (code === 'EISDIR') return { reason: 'unreadable', message: `${label} is a directory, not a file.` };
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : thrown instanceof Error
        ? thrown.message
        : String(thrown);
  return { reason: 'unreadable', message: `${label} could not be read: ${why}.` };
}

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `fields` without the members whose value is `undefined` (a value that could not be obtained is
 * omitted, never written as a placeholder). A `__proto__` member stays an ordinary member of the copy.
 */
export function omitUndefined<T extends object>(fields: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy as { [K in keyof T]: Exclude<T[K], undefined> };
}
