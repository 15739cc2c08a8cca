/**
 * verdict: QZX Result Contract v1 compatible result envelopes.
 * The root export has no runtime dependencies and no `node:` imports: it runs in browsers and edge runtimes.
 */

export type { ValidationWarning, Violation, ViolationCode } from './contract/codes.js';
export { CONTRACT_SCHEMA_URL, VIOLATION_CODES } from './contract/codes.js';
export type { VerdictErrorCode } from './contract/errors.js';
export { isVerdictError, VERDICT_ERROR_CODES, VerdictError } from './contract/errors.js';
export type {
  FailureResult,
  ResultBase,
  ResultContract,
  ResultMeta,
  SuccessResult,
} from './contract/types.js';
export type {
  DuplicateMember,
  ReadError,
  ReadErrorReason,
  ReadJsonResult,
  ReadOptions,
  ReadWarning,
} from './json/index.js';
export { DEFAULT_MAX_DEPTH, READ_ERROR_REASONS, readJson } from './json/index.js';
