import { describe, expect, test } from 'vitest';
import { fail, ok } from '../contract/builders.js';
import { MCP_REVISIONS } from './codes.js';
import { resultOutputSchema } from './result-output-schema.js';
import { toCallToolResult } from './to-call-tool-result.js';
import { validateMcpResult } from './validate-mcp-result.js';

describe('toCallToolResult', () => {
  const success = ok('Hashed 8 bytes.', { hash: 'ab' });
  const failure = fail('No such file.', { error_code: 'path_not_found', path: '/nope' });

  test('puts the result in structuredContent and its serialization in one text block', () => {
    const mapped = toCallToolResult(success, { revision: '2025-11-25' });
    expect(mapped.structuredContent).toBe(success);
    expect(mapped.content).toEqual([{ type: 'text', text: JSON.stringify(success) }]);
    expect(mapped).not.toHaveProperty('isError');
  });

  test('sends isError: true on a failure', () => {
    expect(toCallToolResult(failure, { revision: '2025-06-18' }).isError).toBe(true);
  });

  test('adds resultType: "complete" on 2026-07-28 only', () => {
    expect(toCallToolResult(success, { revision: '2026-07-28' }).resultType).toBe('complete');
    expect(toCallToolResult(success, { revision: '2025-11-25' })).not.toHaveProperty('resultType');
    expect(toCallToolResult(success, { revision: '2025-06-18' })).not.toHaveProperty('resultType');
  });

  test.each(MCP_REVISIONS)('its output passes the MCP profile of %s, success and failure', (revision) => {
    for (const result of [success, failure]) {
      const toolDefinition = {
        name: 'hash',
        inputSchema: { type: 'object' },
        outputSchema: resultOutputSchema(),
      };
      const report = validateMcpResult(toCallToolResult(result, { revision }), { revision, toolDefinition });
      expect(report.violations).toEqual([]);
      expect(report.warnings).toEqual([]);
      expect(report.facts.backcompat_text_matches).toBe(true);
    }
  });
});
