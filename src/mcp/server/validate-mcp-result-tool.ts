import type { ResultContract } from '../../contract/types.js';
import { DEFAULT_MCP_REVISION, MCP_REVISIONS, type McpRevision } from '../codes.js';
import { toMcpReportResult } from '../to-mcp-report-result.js';
import { validateMcpResult } from '../validate-mcp-result.js';
import { documentArgumentSchema, readDocumentArgument } from './read-document-argument.js';
import type { ContractTool } from './register-contract-tool.js';

const DOCUMENT = documentArgumentSchema('The tool result or JSON-RPC response');

/**
 * The `validate_mcp_result` tool: checks an MCP tool result (a bare CallToolResult or a JSON-RPC response,
 * given as `document` or as JSON text in `text`) against the MCP profile of a revision, optionally with the
 * tool definition whose `outputSchema` is classified. The profile report is the result.
 */
export const validateMcpResultTool: ContractTool = {
  name: 'validate_mcp_result',
  title: 'Validate an MCP tool result',
  description:
    'Check an MCP tool result (a CallToolResult or a full JSON-RPC response) against the QZX Result Contract v1 profile of an MCP revision: structuredContent is the contract result, isError matches success, the text block matches, resultType is "complete" on 2026-07-28. Give `document` (a JSON value) or `text` (JSON text, read strictly), and optionally `tool_definition` to classify its outputSchema.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: {
      ...DOCUMENT.properties,
      revision: {
        type: 'string',
        enum: [...MCP_REVISIONS],
        default: DEFAULT_MCP_REVISION,
        description: 'The MCP revision whose rules apply.',
      },
      tool_definition: {
        type: 'object',
        description: 'The MCP Tool object whose outputSchema is classified.',
      },
    },
    oneOf: DOCUMENT.oneOf,
    additionalProperties: false,
  },
  run(args): ResultContract {
    const revision = (args.revision ?? DEFAULT_MCP_REVISION) as McpRevision;
    const read = readDocumentArgument(args);
    if (!read.ok) return read.result;
    return toMcpReportResult(
      validateMcpResult(read.value, {
        revision,
        ...(args.tool_definition === undefined ? {} : { toolDefinition: args.tool_definition }),
        duplicates: read.duplicates,
        readWarnings: read.warnings,
      }),
    );
  },
};
