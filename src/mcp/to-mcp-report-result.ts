import { formatFinding } from '../contract/findings.js';
import type { ResultContract } from '../contract/types.js';
import type { McpValidationReport } from './validate-mcp-result.js';

/** `error_code` of a report whose MCP tool result does not conform to the profile. */
export const MCP_PROFILE_VIOLATION = 'mcp_profile_violation';

/**
 * Turns an MCP profile report into a conforming contract result: the facts and violations go to `details`,
 * the warnings become strings that start with their codes.
 */
export function toMcpReportResult(report: McpValidationReport): ResultContract {
  const revision = report.facts.mcp_specification;
  const details: Record<string, unknown> = {
    ...report.facts,
    result_success: report.success,
    violations: report.violations.map((v) => ({ code: v.code, path: v.path, message: v.message })),
  };
  const warnings = report.warnings.map(formatFinding);
  if (report.valid) {
    return {
      success: true,
      message: `The MCP tool result conforms to QZX Result Contract v1 under MCP ${revision}.`,
      details,
      warnings,
    };
  }
  const count = report.violations.length;
  return {
    success: false,
    message: report.protocolError
      ? 'The response is a JSON-RPC protocol error, not a completed MCP tool result.'
      : `The MCP tool result does not conform under MCP ${revision}: ${count} violation${count === 1 ? '' : 's'}.`,
    error: report.violations.map(formatFinding).join('; '),
    error_code: MCP_PROFILE_VIOLATION,
    details,
    warnings,
  };
}
