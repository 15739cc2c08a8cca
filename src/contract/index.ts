/** The result contract: types, builders, validation, the runtime guard and the schema. */
export type { FailureInput, SuccessFields } from './builders.js';
export { fail, ok } from './builders.js';
export type { ValidationWarning, Violation, ViolationCode } from './codes.js';
export {
  CONTRACT_SCHEMA_URL,
  ERROR_CODE_PATTERN,
  INVALID_RESULT_CONTRACT,
  VIOLATION_CODES,
  WARNING_CODES,
} from './codes.js';
export { RESULT_CONTRACT_SCHEMA } from './contract-schema.js';
export type { InvalidResultContract } from './ensure-result.js';
export { ensureResult } from './ensure-result.js';
export type { VerdictErrorCode } from './errors.js';
export { isVerdictError, VERDICT_ERROR_CODES, VerdictError } from './errors.js';
export type { Finding } from './findings.js';
export type { JsonSchema } from './schema.js';
export type {
  StandardContractProps,
  StandardContractSchema,
  StandardIssue,
  StandardResult,
} from './standard-schema.js';
export { resultContractSchema } from './standard-schema.js';
export type {
  CoreMemberName,
  FailureFields,
  FailureResult,
  ResultBase,
  ResultContract,
  ResultMeta,
  SuccessResult,
} from './types.js';
export type { ValidateOptions, ValidationReport } from './validate-result.js';
export { validateResult } from './validate-result.js';
export type { TextValidationReport } from './validate-result-text.js';
export { validateResultText } from './validate-result-text.js';
