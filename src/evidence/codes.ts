/** The `$id` of the Conformance Receipt v1 JSON Schema (see docs/conformance.md). */
export const RECEIPT_SCHEMA_URL =
  'https://qzx.yumbale.com/schemas/result-contract-conformance-receipt-v1.schema.json';

/** The profiles an evidence pair can be checked under: the core contract or one MCP revision. */
export const EVIDENCE_PROFILES = ['core', 'mcp-2025-06-18', 'mcp-2025-11-25', 'mcp-2026-07-28'] as const;

/** One of {@link EVIDENCE_PROFILES}. */
export type EvidenceProfile = (typeof EVIDENCE_PROFILES)[number];

/** The `error_code` values a receipt can carry, with what each means (see docs/conformance.md). */
export const RECEIPT_ERROR_CODES = {
  conformance_failed: 'The evidence pair does not conform under the chosen profile.',
  receipt_path_conflict:
    'The report path names one of the input files (through any alias); nothing was written.',
  receipt_write_failed: 'The receipt could not be written; any earlier receipt at the path is intact.',
} as const;

/** One of {@link RECEIPT_ERROR_CODES}. */
export type ReceiptErrorCode = keyof typeof RECEIPT_ERROR_CODES;

/** Codes of the violations the evidence kit adds to those of the contract and MCP profiles. */
export const EVIDENCE_VIOLATION_CODES = {
  invalid_json_input: 'An evidence file could not be read as one strict JSON document.',
  role_mismatch: 'The success evidence does not say success, or the failure evidence does not say failure.',
  tool_definition_missing: 'An MCP profile needs the tool definition, and none was given.',
  tool_definition_unreadable: 'The tool definition could not be read as one strict JSON document.',
} as const;

/** One of {@link EVIDENCE_VIOLATION_CODES}. */
export type EvidenceViolationCode = keyof typeof EVIDENCE_VIOLATION_CODES;

/** Codes of the warnings the evidence kit adds. */
export const EVIDENCE_WARNING_CODES = {
  tool_definition_ignored:
    'The core profile does not use a tool definition; it was recorded without a digest.',
} as const;

/** True for a supported evidence profile string. */
export function isEvidenceProfile(value: unknown): value is EvidenceProfile {
  return typeof value === 'string' && (EVIDENCE_PROFILES as readonly string[]).includes(value);
}
