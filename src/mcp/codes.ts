import type { ValidationWarning, Violation } from '../contract/codes.js';

/** The MCP specification revisions whose tool results verdict validates (see docs/mcp.md). */
export const MCP_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** One of {@link MCP_REVISIONS}. */
export type McpRevision = (typeof MCP_REVISIONS)[number];

/** The revision verdict assumes when none is given. */
export const DEFAULT_MCP_REVISION: McpRevision = '2026-07-28';

/**
 * Violation codes of the MCP profile, with what each means. Violations of the contract inside
 * `structuredContent` keep their own codes ({@link VIOLATION_CODES}) with the path prefixed.
 */
export const MCP_VIOLATION_CODES = {
  mcp_not_an_object: 'The document is neither a CallToolResult object nor a JSON-RPC response object.',
  jsonrpc_version_invalid: 'A JSON-RPC response does not carry `jsonrpc: "2.0"`.',
  jsonrpc_protocol_error:
    'The response is a JSON-RPC protocol error: it never is, nor stands in for, a completed tool result.',
  jsonrpc_result_invalid: 'A JSON-RPC response has no `result` object (or has both `result` and `error`).',
  result_type_missing: 'MCP 2026-07-28 requires `resultType: "complete"` on a completed tool result.',
  result_type_not_complete:
    '`resultType` is present but not `"complete"` (an `input_required` result is interim).',
  content_not_array: '`content` is missing or not an array.',
  content_item_invalid:
    'A `content` block is not an object with a string `type` (or a text block lacks `text`).',
  structured_content_missing: '`structuredContent` is missing: the contract result must be carried there.',
  structured_content_not_object: '`structuredContent` is not a JSON object.',
  is_error_not_boolean: '`isError` is present but not a boolean.',
  is_error_mismatch: 'The effective `isError` (absent means false) is not `!structuredContent.success`.',
  tool_definition_not_object: 'The tool definition is not a JSON object.',
  output_schema_missing: 'The tool definition declares no `outputSchema`.',
  output_schema_not_object: '`outputSchema` is not a JSON object.',
  output_schema_not_contract:
    '`outputSchema` is neither the canonical contract schema (by reference, inline or in `allOf`) nor its structural core.',
  tool_definition_duplicate_member: 'An object of the tool definition names the same member twice.',
} as const;

/** A stable violation code of the MCP profile. */
export type McpViolationCode = keyof typeof MCP_VIOLATION_CODES;

/** Warning codes of the MCP profile: remarks that do not make a result non-conforming. */
export const MCP_WARNING_CODES = {
  backcompat_text_missing:
    'No text content block holds the JSON serialization of `structuredContent` (older clients read text only).',
  output_schema_structural_only:
    '`outputSchema` is only the structural core: the schema alone does not prove every contract rule.',
  output_schema_not_portable:
    '`outputSchema` has no root `"type": "object"` or is a bare external `$ref`, which real MCP SDK clients reject.',
  tool_definition_not_checked: 'No tool definition was given, so `outputSchema` was not checked.',
} as const;

/** A stable warning code of the MCP profile. */
export type McpWarningCode = keyof typeof MCP_WARNING_CODES;

/** How a tool's `outputSchema` relates to the canonical contract schema, strongest first (see docs/mcp.md). */
export const OUTPUT_SCHEMA_MODES = [
  'canonical_ref',
  'canonical_inline',
  'canonical_allof',
  'structural_core',
] as const;

/** One of {@link OUTPUT_SCHEMA_MODES}. */
export type OutputSchemaMode = (typeof OUTPUT_SCHEMA_MODES)[number];

/** A broken rule of the MCP profile or of the contract inside it. */
export type McpViolation = Violation | { code: McpViolationCode; path: string; message: string };

/** A remark of the MCP profile. */
export type McpWarning = ValidationWarning;

/** The URL of the tools page of one MCP specification revision. */
export function mcpToolsSpecUrl(revision: McpRevision): string {
  return `https://modelcontextprotocol.io/specification/${revision}/server/tools`;
}

/** True for a supported MCP revision string. */
export function isMcpRevision(value: unknown): value is McpRevision {
  return typeof value === 'string' && (MCP_REVISIONS as readonly string[]).includes(value);
}
