/**
 * MCP interoperability (see docs/mcp.md): profile validation of tool results, `outputSchema` classification, and the
 * mapping of contract results to tool results. Pure: no SDK and no `node:` imports (the server is
 * `verdict/mcp/server`).
 */

export { formatFinding } from '../contract/findings.js';
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
export { argumentsToOptions, optionsInputSchema } from './options-input-schema.js';
export type { ResultOutputSchema } from './result-output-schema.js';
export { resultOutputSchema } from './result-output-schema.js';
export type {
  ContractCallToolResult,
  McpTextContent,
  ToCallToolResultOptions,
} from './to-call-tool-result.js';
export { toCallToolResult } from './to-call-tool-result.js';
export { MCP_PROFILE_VIOLATION, toMcpReportResult } from './to-mcp-report-result.js';
export type { McpProfileFacts, McpValidationReport, ValidateMcpOptions } from './validate-mcp-result.js';
export { validateMcpResult } from './validate-mcp-result.js';
