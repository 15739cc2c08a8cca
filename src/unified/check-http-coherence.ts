import { STATUS_OF_UNLISTED_CODE, statusForCode } from './error-taxonomy.js';

/** The outcome of {@link checkHttpCoherence}: coherent, or the status that was expected and why. */
export type HttpCoherence =
  | { ok: true; expected: number }
  | { ok: false; expected: number | undefined; message: string };

/**
 * Whether an HTTP status agrees with an envelope (see docs/unified.md): 200 for a success, the taxonomy's status for a failure.
 * Never throws; an envelope without a readable `success` or `error.code` is reported as incoherent.
 */
export function checkHttpCoherence(status: number, envelope: unknown): HttpCoherence {
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    return { ok: false, expected: undefined, message: 'The envelope is not an object.' };
  }
  const record = envelope as { success?: unknown; error?: unknown };
  if (record.success === true) {
    return status === 200
      ? { ok: true, expected: 200 }
      : { ok: false, expected: 200, message: `A success is served with 200, not ${status}.` };
  }
  if (record.success !== false) {
    return { ok: false, expected: undefined, message: '`success` is not a boolean.' };
  }
  const code =
    typeof record.error === 'object' && record.error !== null
      ? (record.error as { code?: unknown }).code
      : undefined;
  if (typeof code !== 'string') {
    return { ok: false, expected: undefined, message: 'The failure has no `error.code`.' };
  }
  // A code outside the taxonomy has no row of its own; it is served as an internal error (toHttpResponse does).
  const expected = statusForCode(code) ?? STATUS_OF_UNLISTED_CODE;
  return status === expected
    ? { ok: true, expected }
    : { ok: false, expected, message: `A ${code} failure is served with ${expected}, not ${status}.` };
}
