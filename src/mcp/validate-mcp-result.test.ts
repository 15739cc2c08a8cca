import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { RESULT_CONTRACT_SCHEMA } from '../contract/contract-schema.js';
import { validateResult } from '../contract/validate-result.js';
import { MCP_REVISIONS, type McpRevision } from './codes.js';
import { toMcpReportResult } from './to-mcp-report-result.js';
import { validateMcpResult } from './validate-mcp-result.js';

const success = { success: true, message: 'Listed 2 branches.', branches: ['main', 'dev'] };
const failure = { success: false, message: 'The repository is missing.', error_code: 'repo_not_found' };
const text = (value: unknown) => [{ type: 'text', text: JSON.stringify(value) }];

/** A completed CallToolResult as a server of the given revision sends it. */
function toolResult(
  revision: McpRevision,
  structured: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    ...(revision === '2026-07-28' ? { resultType: 'complete' } : {}),
    content: text(structured),
    structuredContent: structured,
    ...(structured.success === false ? { isError: true } : {}),
    ...extra,
  };
}

const rpc = (result: unknown) => ({ jsonrpc: '2.0', id: 7, result });
const codes = (report: { violations: { code: string }[] }) => report.violations.map((v) => v.code);
const { $id: _id, ...canonicalWithoutId } = RESULT_CONTRACT_SCHEMA;
const allOfTool = {
  name: 'list_branches',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: { type: 'boolean' }, message: { type: 'string' }, branches: { type: 'array' } },
    allOf: [canonicalWithoutId],
  },
};

describe('validateMcpResult', () => {
  describe.each(MCP_REVISIONS)('under MCP %s', (revision) => {
    test('accepts a completed success and failure, bare and inside JSON-RPC', () => {
      for (const structured of [success, failure]) {
        const bare = validateMcpResult(toolResult(revision, structured), { revision });
        const wrapped = validateMcpResult(rpc(toolResult(revision, structured)), { revision });
        expect(bare.violations).toEqual([]);
        expect(wrapped.violations).toEqual([]);
        expect(bare.valid && wrapped.valid).toBe(true);
        expect(wrapped.success).toBe(structured.success);
      }
    });

    test('lets a success omit isError and reports its effective value as false', () => {
      const report = validateMcpResult(toolResult(revision, success), { revision });
      expect(report.valid).toBe(true);
      expect(report.facts.mcp_is_error_explicit).toBeNull();
      expect(report.facts.mcp_is_error_effective).toBe(false);
    });

    test('reports is_error_mismatch for a failure without isError: true', () => {
      const report = validateMcpResult(rpc(toolResult(revision, failure, { isError: false })), { revision });
      expect(codes(report)).toEqual(['is_error_mismatch']);
      expect(report.violations[0]?.path).toBe('/result/isError');
      const omitted = { ...toolResult(revision, failure) } as Record<string, unknown>;
      delete omitted.isError;
      expect(codes(validateMcpResult(omitted, { revision }))).toEqual(['is_error_mismatch']);
    });

    test('reports is_error_mismatch for a success that sends isError: true', () => {
      const report = validateMcpResult(toolResult(revision, success, { isError: true }), { revision });
      expect(codes(report)).toEqual(['is_error_mismatch']);
      expect(report.facts.mcp_is_error_explicit).toBe(true);
    });

    test('reports is_error_not_boolean and does not compare a non-boolean isError', () => {
      const report = validateMcpResult(toolResult(revision, failure, { isError: 'true' }), { revision });
      expect(codes(report)).toEqual(['is_error_not_boolean']);
    });

    test('keeps contract violation codes inside structuredContent with the path prefixed', () => {
      const bad = { success: true, message: ' ', error_code: 'stale' };
      const report = validateMcpResult(rpc(toolResult(revision, bad)), { revision });
      expect(report.violations.map((v) => `${v.code} ${v.path}`)).toEqual([
        'message_invalid /result/structuredContent/message',
        'success_with_error /result/structuredContent/error_code',
      ]);
    });

    test('reports structured_content_missing and structured_content_not_object', () => {
      const missing = { ...toolResult(revision, success) } as Record<string, unknown>;
      delete missing.structuredContent;
      expect(codes(validateMcpResult(missing, { revision }))).toEqual(['structured_content_missing']);
      const notObject = toolResult(revision, success, { structuredContent: JSON.stringify(success) });
      expect(codes(validateMcpResult(notObject, { revision }))).toEqual(['structured_content_not_object']);
    });

    test('reports content_not_array and content_item_invalid', () => {
      const notArray = toolResult(revision, success, { content: text(success)[0] });
      expect(codes(validateMcpResult(notArray, { revision }))).toEqual(['content_not_array']);
      const badItems = toolResult(revision, success, { content: [...text(success), { type: 'text' }, 'x'] });
      const report = validateMcpResult(badItems, { revision });
      expect(report.violations.map((v) => `${v.code} ${v.path}`)).toEqual([
        'content_item_invalid /content/1/text',
        'content_item_invalid /content/2',
      ]);
    });

    test('compares the text compatibility block as parsed JSON and only warns when it is missing', () => {
      const reordered = toolResult(revision, success, {
        content: [
          {
            type: 'text',
            text: '{ "branches": ["main","dev"], "message": "Listed 2 branches.", "success": true }',
          },
        ],
      });
      const matched = validateMcpResult(reordered, { revision });
      expect(matched.facts.backcompat_text_matches).toBe(true);
      expect(matched.warnings.map((w) => w.code)).not.toContain('backcompat_text_missing');

      const prose = toolResult(revision, success, {
        content: [{ type: 'text', text: 'Listed 2 branches.' }],
      });
      const missing = validateMcpResult(prose, { revision });
      expect(missing.valid).toBe(true);
      expect(missing.facts.backcompat_text_matches).toBe(false);
      expect(missing.warnings.map((w) => w.code)).toContain('backcompat_text_missing');
    });

    test('refuses resultType other than "complete", such as the interim input_required', () => {
      for (const resultType of ['input_required', 'partial', true]) {
        const report = validateMcpResult(toolResult(revision, success, { resultType }), { revision });
        expect(codes(report)).toEqual(['result_type_not_complete']);
      }
    });

    test('treats a JSON-RPC protocol error as a protocol error, never as a completed result', () => {
      const report = validateMcpResult(
        { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool: nope' } },
        { revision },
      );
      expect(report.valid).toBe(false);
      expect(report.protocolError).toBe(true);
      expect(report.success).toBeNull();
      expect(codes(report)).toEqual(['jsonrpc_protocol_error']);
      expect(report.facts).not.toHaveProperty('mcp_is_error_effective');
      const result = toMcpReportResult(report);
      expect(result.success).toBe(false);
      expect(result.message).toMatch(/protocol error/);
    });

    test('refuses a response carrying both result and error', () => {
      const both = { ...rpc(toolResult(revision, success)), error: { code: -32603, message: 'x' } };
      expect(codes(validateMcpResult(both, { revision }))).toEqual([
        'jsonrpc_protocol_error',
        'jsonrpc_result_invalid',
      ]);
    });

    test('reports jsonrpc_version_invalid and jsonrpc_result_invalid', () => {
      const version = { jsonrpc: '1.0', id: 1, result: toolResult(revision, success) };
      expect(codes(validateMcpResult(version, { revision }))).toEqual(['jsonrpc_version_invalid']);
      expect(codes(validateMcpResult({ jsonrpc: '2.0', id: 1, result: null }, { revision }))).toEqual([
        'jsonrpc_result_invalid',
      ]);
    });

    test('reports mcp_not_an_object for a document that is not an object', () => {
      for (const value of [null, [], 'complete', 3]) {
        expect(codes(validateMcpResult(value, { revision }))).toEqual(['mcp_not_an_object']);
      }
    });

    test('names the revision in the facts and yields a conforming contract result', () => {
      const report = validateMcpResult(rpc(toolResult(revision, failure)), {
        revision,
        toolDefinition: allOfTool,
      });
      expect(report.facts).toEqual({
        mcp_specification: revision,
        mcp_tools_spec: `https://modelcontextprotocol.io/specification/${revision}/server/tools`,
        contract: CONTRACT_SCHEMA_URL,
        output_schema_checked: true,
        output_schema_mode: 'canonical_allof',
        backcompat_text_matches: true,
        mcp_is_error_explicit: true,
        mcp_is_error_effective: true,
      });
      for (const r of [report, validateMcpResult(42, { revision })]) {
        expect(validateResult(toMcpReportResult(r)).violations).toEqual([]);
      }
    });
  });

  test('requires resultType: "complete" under 2026-07-28 only', () => {
    const withoutType = { content: text(success), structuredContent: success };
    expect(codes(validateMcpResult(withoutType, { revision: '2026-07-28' }))).toEqual([
      'result_type_missing',
    ]);
    expect(validateMcpResult(withoutType, { revision: '2025-06-18' }).valid).toBe(true);
    expect(validateMcpResult(withoutType, { revision: '2025-11-25' }).valid).toBe(true);
  });

  test('reports duplicate members at their paths', () => {
    const report = validateMcpResult(rpc(toolResult('2025-11-25', success)), {
      revision: '2025-11-25',
      duplicates: [{ path: '/result/structuredContent', key: 'success' }],
    });
    expect(report.violations.map((v) => `${v.code} ${v.path}`)).toEqual([
      'duplicate_member /result/structuredContent',
    ]);
  });

  test('checks the tool definition and reports its violations with outputSchema paths', () => {
    const revision = '2026-07-28';
    const document = toolResult(revision, success);
    const notObject = validateMcpResult(document, { revision, toolDefinition: [] });
    expect(codes(notObject)).toEqual(['tool_definition_not_object']);
    expect(notObject.facts.output_schema_checked).toBe(false);
    const missing = validateMcpResult(document, { revision, toolDefinition: { name: 't' } });
    expect(codes(missing)).toEqual(['output_schema_missing']);
    // Nothing was there to check: the facts must not say it was checked next to output_schema_missing.
    expect(missing.facts.output_schema_checked).toBe(false);
    expect(codes(validateMcpResult(document, { revision, toolDefinition: { outputSchema: 'x' } }))).toEqual([
      'output_schema_not_object',
    ]);
    const loose = validateMcpResult(document, {
      revision,
      toolDefinition: { outputSchema: { type: 'object', properties: { success: { type: 'boolean' } } } },
    });
    expect(new Set(codes(loose))).toEqual(new Set(['output_schema_not_contract']));
    expect(loose.violations[0]?.path.startsWith('/outputSchema')).toBe(true);
    expect(loose.facts.output_schema_mode).toBeNull();
    const duplicated = validateMcpResult(document, {
      revision,
      toolDefinition: allOfTool,
      toolDefinitionDuplicates: [{ path: '/outputSchema', key: 'type' }],
    });
    expect(codes(duplicated)).toEqual(['tool_definition_duplicate_member']);
  });

  test('warns that the output schema was not checked without a tool definition', () => {
    const report = validateMcpResult(toolResult('2025-06-18', success), { revision: '2025-06-18' });
    expect(report.facts.output_schema_checked).toBe(false);
    expect(report.warnings.map((w) => w.code)).toContain('tool_definition_not_checked');
  });

  test('never throws and always yields a conforming report result, whatever the input', () => {
    const structured = fc.record({ success: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] });
    const toolResultLike = fc.record(
      {
        resultType: fc.constantFrom('complete', 'input_required', 1),
        content: fc.oneof(
          fc.jsonValue(),
          fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: fc.jsonValue() })),
        ),
        structuredContent: fc.oneof(structured, fc.jsonValue()),
        isError: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const document = fc.oneof(fc.jsonValue(), toolResultLike, toolResultLike.map(rpc));
    fc.assert(
      fc.property(
        document,
        fc.constantFrom(...MCP_REVISIONS),
        fc.jsonValue(),
        (value, revision, outputSchema) => {
          const report = validateMcpResult(value, { revision, toolDefinition: { outputSchema } });
          expect(report.valid).toBe(report.violations.length === 0);
          expect(validateResult(toMcpReportResult(report)).violations).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
