/** MCP interoperability (SPEC §3): profile validation of tool results and `outputSchema` classification. Pure. */
export { canonicalJson, jsonEqual } from './canonical-json.js';
export type { OutputSchemaClassification, OutputSchemaViolation } from './classify-output-schema.js';
export { classifyOutputSchema } from './classify-output-schema.js';
export type {
  McpRevision,
  McpViolation,
  McpViolationCode,
  McpWarning,
  McpWarningCode,
  OutputSchemaMode,
} from './codes.js';
export {
  DEFAULT_MCP_REVISION,
  isMcpRevision,
  MCP_REVISIONS,
  MCP_VIOLATION_CODES,
  MCP_WARNING_CODES,
  mcpToolsSpecUrl,
  OUTPUT_SCHEMA_MODES,
} from './codes.js';
export { formatFinding } from './format-finding.js';
export { MCP_PROFILE_VIOLATION, toMcpReportResult } from './to-mcp-report-result.js';
export type { McpProfileFacts, McpValidationReport, ValidateMcpOptions } from './validate-mcp-result.js';
export { validateMcpResult } from './validate-mcp-result.js';
