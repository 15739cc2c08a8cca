/**
 * verdict: QZX Result Contract v1 compatible result envelopes.
 * The root export has no runtime dependencies and no `node:` imports: it runs in browsers and edge runtimes.
 */
export type {
  CoreMemberName,
  FailureFields,
  FailureInput,
  FailureResult,
  Finding,
  InvalidResultContract,
  JsonSchema,
  ResultBase,
  ResultContract,
  ResultMeta,
  StandardContractProps,
  StandardContractSchema,
  StandardIssue,
  StandardResult,
  SuccessFields,
  SuccessResult,
  TextValidationReport,
  ValidateOptions,
  ValidationReport,
  ValidationWarning,
  VerdictErrorCode,
  Violation,
  ViolationCode,
} from './contract/index.js';
export {
  CONTRACT_SCHEMA_URL,
  ERROR_CODE_PATTERN,
  ensureResult,
  fail,
  INVALID_RESULT_CONTRACT,
  isVerdictError,
  ok,
  RESULT_CONTRACT_SCHEMA,
  resultContractSchema,
  VERDICT_ERROR_CODES,
  VerdictError,
  VIOLATION_CODES,
  validateResult,
  validateResultText,
  WARNING_CODES,
} from './contract/index.js';
export type {
  DuplicateMember,
  ReadError,
  ReadErrorReason,
  ReadJsonResult,
  ReadOptions,
  ReadWarning,
} from './json/index.js';
export { DEFAULT_MAX_DEPTH, READ_ERROR_REASONS, readJson } from './json/index.js';
