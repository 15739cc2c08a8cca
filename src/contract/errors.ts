// The error class is shared by every part (the reader included), so it lives at the root of src.
export type { VerdictErrorCode } from '../errors.js';
export { isVerdictError, VERDICT_ERROR_CODES, VerdictError } from '../errors.js';
