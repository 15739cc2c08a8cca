/**
 * The conformance kit's pure part (docs/install.md lists what each entry needs): evidence pairs checked into
 * Conformance Receipts v1, their schema and serialization. No `node:` imports: it bundles for browsers and edge
 * runtimes. Reading files, writing receipts and running conformance suites are in `verdict/evidence/node`.
 */
export type { EvidenceProfile, EvidenceViolationCode, ReceiptErrorCode } from './codes.js';
export {
  EVIDENCE_PROFILES,
  EVIDENCE_VIOLATION_CODES,
  EVIDENCE_WARNING_CODES,
  isEvidenceProfile,
  RECEIPT_ERROR_CODES,
  RECEIPT_SCHEMA_URL,
} from './codes.js';
export type { EvidenceFile, Receipt, ReceiptCase, ReceiptInput } from './create-receipt.js';
export { createReceipt, failReceipt, serializeReceipt } from './create-receipt.js';
export { RECEIPT_SCHEMA } from './receipt-schema.js';
export { sha256Hex } from './sha256.js';
