import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MCP_VIOLATION_CODES, MCP_WARNING_CODES } from './codes.js';

const docs = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');

describe('docs/mcp.md', () => {
  test('lists every MCP violation and warning code', () => {
    const codes = [...Object.keys(MCP_VIOLATION_CODES), ...Object.keys(MCP_WARNING_CODES)];
    expect(codes.filter((code) => !docs.includes(`\`${code}\``))).toEqual([]);
  });
});
