/**
 * The conformance kit (see docs/conformance.md): evidence pairs and their receipts (pure), receipt writing and conformance
 * suites (`node:fs`).
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
export type { ProduceReceiptOptions } from './produce-receipt.js';
export { produceReceipt } from './produce-receipt.js';
export { readEvidenceFile } from './read-evidence-file.js';
export { RECEIPT_SCHEMA } from './receipt-schema.js';
export type { RunSuiteOptions, SuiteCaseOutcome } from './run-conformance-suite.js';
export { runConformanceSuite, SUITE_ERROR_CODES } from './run-conformance-suite.js';
export { sha256Hex } from './sha256.js';
export type { WriteReceiptOptions, WriteReceiptOutcome } from './write-receipt.js';
export { writeReceipt } from './write-receipt.js';
