import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { duplicateMemberFinding, isJsonObject } from '../contract/findings.js';
import { validateResult } from '../contract/validate-result.js';
import type { DuplicateMember, ReadWarning } from '../json/types.js';
import { jsonEqual } from './canonical-json.js';
import { classifyOutputSchema } from './classify-output-schema.js';
import {
  type McpRevision,
  type McpViolation,
  type McpViolationCode,
  type McpWarning,
  type McpWarningCode,
  mcpToolsSpecUrl,
  type OutputSchemaMode,
} from './codes.js';

/** The MCP profile facts of a validation; their names are part of the receipt format (see docs/mcp.md). */
export interface McpProfileFacts {
  /** The MCP revision the result was checked against. */
  mcp_specification: McpRevision;
  /** The tools page of that revision. */
  mcp_tools_spec: string;
  /** The canonical contract schema URL. */
  contract: string;
  /** True when a tool definition was given and its `outputSchema` examined. */
  output_schema_checked: boolean;
  /** The relationship of `outputSchema` to the canonical schema, or null when unchecked or none. */
  output_schema_mode: OutputSchemaMode | null;
  /** True when a text block holds the JSON serialization of `structuredContent` (compared as parsed JSON). */
  backcompat_text_matches: boolean;
  /** `isError` as sent, or null when absent; only when a tool result was found. */
  mcp_is_error_explicit?: boolean | null;
  /** `isError` as a client reads it (absent means false); only when a tool result was found. */
  mcp_is_error_effective?: boolean;
}

/** Options of {@link validateMcpResult}. */
export interface ValidateMcpOptions {
  /** The MCP revision whose rules apply. */
  revision: McpRevision;
  /** The tool definition (an MCP `Tool` object) whose `outputSchema` is classified; omitted: not checked. */
  toolDefinition?: unknown;
  /** Duplicate member names found while reading the document. */
  duplicates?: readonly DuplicateMember[];
  /** Duplicate member names found while reading the tool definition. */
  toolDefinitionDuplicates?: readonly DuplicateMember[];
  /** Warnings from reading the document (such as `utf8_bom`). */
  readWarnings?: readonly ReadWarning[];
}

/** The outcome of checking one MCP tool result against the contract profile: every violation and the facts. */
export interface McpValidationReport {
  /** True when the result conforms under the revision. */
  valid: boolean;
  /** True when the document is a JSON-RPC protocol error (never a completed result). */
  protocolError: boolean;
  /** `structuredContent.success` when it is a boolean, else null. */
  success: boolean | null;
  /** The contract object found in `structuredContent`, when it is an object. */
  structuredContent?: Record<string, unknown>;
  /** Every broken rule; contract violations keep their codes with paths inside `structuredContent`. */
  violations: McpViolation[];
  /** Remarks that do not break the profile. */
  warnings: McpWarning[];
  /** The profile facts, named as in docs/mcp.md. */
  facts: McpProfileFacts;
}

class Findings {
  readonly violations: McpViolation[] = [];
  readonly warnings: McpWarning[] = [];
  violation(code: McpViolationCode, path: string, message: string): void {
    this.violations.push({ code, path, message });
  }
  warning(code: McpWarningCode, path: string, message: string): void {
    this.warnings.push({ code, path, message });
  }
}

// A JSON-RPC response is recognised by its envelope members; a bare CallToolResult has none of them.
function isJsonRpcEnvelope(document: Record<string, unknown>): boolean {
  if (
    Object.hasOwn(document, 'jsonrpc') ||
    Object.hasOwn(document, 'result') ||
    Object.hasOwn(document, 'id')
  ) {
    return true;
  }
  return Object.hasOwn(document, 'error') && !Object.hasOwn(document, 'content');
}

/** Finds the CallToolResult inside a document and its pointer, or reports why there is none. */
function locateToolResult(
  document: Record<string, unknown>,
  findings: Findings,
): { result: Record<string, unknown>; prefix: string } | { result: null; protocolError: boolean } {
  if (!isJsonRpcEnvelope(document)) return { result: document, prefix: '' };
  if (document.jsonrpc !== '2.0') {
    findings.violation(
      'jsonrpc_version_invalid',
      '/jsonrpc',
      'A JSON-RPC response must carry "jsonrpc": "2.0".',
    );
  }
  const hasError = Object.hasOwn(document, 'error');
  const hasResult = Object.hasOwn(document, 'result');
  if (hasError) {
    // docs/mcp.md: a protocol error stays a protocol error; it is never read as a completed contract result.
    findings.violation(
      'jsonrpc_protocol_error',
      '/error',
      'The response is a JSON-RPC protocol error, not a completed tool result.',
    );
    if (hasResult) {
      findings.violation(
        'jsonrpc_result_invalid',
        '/result',
        'A JSON-RPC response must not carry both result and error.',
      );
    }
    return { result: null, protocolError: true };
  }
  if (!isJsonObject(document.result)) {
    findings.violation(
      'jsonrpc_result_invalid',
      '/result',
      'A JSON-RPC response must carry a result object.',
    );
    return { result: null, protocolError: false };
  }
  return { result: document.result, prefix: '/result' };
}

function checkResultType(
  result: Record<string, unknown>,
  prefix: string,
  revision: McpRevision,
  findings: Findings,
): void {
  if (Object.hasOwn(result, 'resultType')) {
    const type = result.resultType;
    if (type !== 'complete') {
      findings.violation(
        'result_type_not_complete',
        `${prefix}/resultType`,
        type === 'input_required'
          ? 'resultType "input_required" marks an interim result, not a completed one.'
          : `resultType must be "complete" for a completed result, got ${JSON.stringify(type)}.`,
      );
    }
  } else if (revision === '2026-07-28') {
    findings.violation(
      'result_type_missing',
      `${prefix}/resultType`,
      'MCP 2026-07-28 requires resultType: "complete" on a completed tool result.',
    );
  }
}

/** Checks `content` and returns its text blocks' texts. */
function checkContent(result: Record<string, unknown>, prefix: string, findings: Findings): string[] {
  const content = result.content;
  if (!Array.isArray(content)) {
    findings.violation(
      'content_not_array',
      `${prefix}/content`,
      'content must be an array of content blocks.',
    );
    return [];
  }
  const texts: string[] = [];
  content.forEach((block, index) => {
    const path = `${prefix}/content/${index}`;
    if (!isJsonObject(block) || typeof block.type !== 'string') {
      findings.violation(
        'content_item_invalid',
        path,
        'A content block must be an object with a string type.',
      );
    } else if (block.type === 'text') {
      if (typeof block.text === 'string') texts.push(block.text);
      else
        findings.violation(
          'content_item_invalid',
          `${path}/text`,
          'A text content block must carry a string text.',
        );
    }
  });
  return texts;
}

function parsesTo(text: string, expected: unknown): boolean {
  try {
    return jsonEqual(JSON.parse(text), expected);
  } catch {
    return false;
  }
}

function checkToolDefinition(
  toolDefinition: unknown,
  duplicates: readonly DuplicateMember[],
  findings: Findings,
): OutputSchemaMode | null {
  for (const duplicate of duplicates) {
    findings.violations.push(duplicateMemberFinding(duplicate, 'tool_definition_duplicate_member'));
  }
  if (!isJsonObject(toolDefinition)) {
    findings.violation('tool_definition_not_object', '', 'The tool definition must be a JSON object.');
    return null;
  }
  if (!Object.hasOwn(toolDefinition, 'outputSchema')) {
    findings.violation(
      'output_schema_missing',
      '/outputSchema',
      'The tool definition declares no outputSchema.',
    );
    return null;
  }
  const classification = classifyOutputSchema(toolDefinition.outputSchema);
  for (const v of classification.violations) findings.violation(v.code, `/outputSchema${v.path}`, v.message);
  for (const w of classification.warnings) {
    findings.warnings.push({ ...w, path: `/outputSchema${w.path}` });
  }
  return classification.mode;
}

/**
 * Validates one MCP tool result (a bare CallToolResult or a JSON-RPC response) against the QZX Result
 * Contract v1 profile of an MCP revision (see docs/mcp.md), and classifies the tool's `outputSchema` when given.
 * Never throws; reports every violation.
 * @example
 * validateMcpResult(
 *   { content: [], structuredContent: { success: false, message: 'No.', error_code: 'nope' } },
 *   { revision: '2025-11-25' },
 * ).violations[0].code // 'is_error_mismatch'
 */
export function validateMcpResult(document: unknown, options: ValidateMcpOptions): McpValidationReport {
  const { revision } = options;
  const findings = new Findings();
  findings.warnings.push(...(options.readWarnings ?? []).map((w) => ({ ...w })));
  for (const duplicate of options.duplicates ?? [])
    findings.violations.push(duplicateMemberFinding(duplicate));
  const facts: McpProfileFacts = {
    mcp_specification: revision,
    mcp_tools_spec: mcpToolsSpecUrl(revision),
    contract: CONTRACT_SCHEMA_URL,
    output_schema_checked: options.toolDefinition !== undefined,
    output_schema_mode: null,
    backcompat_text_matches: false,
  };
  const report = (extra: Partial<McpValidationReport> = {}): McpValidationReport => ({
    valid: findings.violations.length === 0,
    protocolError: false,
    success: null,
    violations: findings.violations,
    warnings: findings.warnings,
    facts,
    ...extra,
  });

  if (options.toolDefinition === undefined) {
    findings.warning(
      'tool_definition_not_checked',
      '',
      'No tool definition was given: outputSchema was not checked.',
    );
  } else {
    facts.output_schema_mode = checkToolDefinition(
      options.toolDefinition,
      options.toolDefinitionDuplicates ?? [],
      findings,
    );
    // Checked means an outputSchema was there to examine: not for a definition that is no object or has none.
    facts.output_schema_checked =
      isJsonObject(options.toolDefinition) && Object.hasOwn(options.toolDefinition, 'outputSchema');
  }

  if (!isJsonObject(document)) {
    findings.violation('mcp_not_an_object', '', 'An MCP tool result must be a JSON object.');
    return report();
  }
  const located = locateToolResult(document, findings);
  if (located.result === null) return report({ protocolError: located.protocolError });
  const { result, prefix } = located;

  checkResultType(result, prefix, revision, findings);
  const texts = checkContent(result, prefix, findings);

  const isErrorSent = Object.hasOwn(result, 'isError');
  const isErrorValid = !isErrorSent || typeof result.isError === 'boolean';
  if (!isErrorValid) {
    findings.violation(
      'is_error_not_boolean',
      `${prefix}/isError`,
      'isError must be a boolean when present.',
    );
  }
  // MCP reads an absent isError as false.
  const effective = result.isError === true;
  facts.mcp_is_error_explicit = isErrorSent && isErrorValid ? (result.isError as boolean) : null;
  facts.mcp_is_error_effective = effective;

  const structuredPath = `${prefix}/structuredContent`;
  if (!Object.hasOwn(result, 'structuredContent')) {
    findings.violation(
      'structured_content_missing',
      structuredPath,
      'structuredContent must carry the complete contract result.',
    );
    return report();
  }
  const structured = result.structuredContent;
  if (!isJsonObject(structured)) {
    findings.violation(
      'structured_content_not_object',
      structuredPath,
      'structuredContent must be a JSON object.',
    );
    return report();
  }
  for (const v of validateResult(structured).violations) {
    findings.violations.push({ ...v, path: `${structuredPath}${v.path}` });
  }
  const success = typeof structured.success === 'boolean' ? structured.success : null;
  if (success !== null && isErrorValid && effective !== !success) {
    findings.violation(
      'is_error_mismatch',
      `${prefix}/isError`,
      success
        ? 'A successful result must not send isError: true.'
        : 'A failed result must send isError: true (an absent isError means false).',
    );
  }
  facts.backcompat_text_matches = texts.some((text) => parsesTo(text, structured));
  if (!facts.backcompat_text_matches) {
    findings.warning(
      'backcompat_text_missing',
      `${prefix}/content`,
      'No text content block holds the JSON serialization of structuredContent.',
    );
  }
  return report({ success, structuredContent: structured });
}
