/**
 * The conformance kit's Node part: reading evidence files, writing receipts next to them without overwriting
 * the evidence, `verdict evidence` as a function, and conformance suites. Hashes with `node:crypto`. The pure
 * part (`createReceipt`, …) is `verdict/evidence`.
 */
export { nodeSha256Hex } from './node-sha256-hex.js';
export type { ProduceReceiptOptions } from './produce-receipt.js';
export { produceReceipt } from './produce-receipt.js';
export { readEvidenceFile } from './read-evidence-file.js';
export type { RunSuiteOptions, SuiteCaseOutcome } from './run-conformance-suite.js';
export { runConformanceSuite, SUITE_ERROR_CODES } from './run-conformance-suite.js';
export type { WriteReceiptOptions } from './write-receipt.js';
export { writeReceipt } from './write-receipt.js';
