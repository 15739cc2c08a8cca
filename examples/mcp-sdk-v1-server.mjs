#!/usr/bin/env node
// An MCP server written with @modelcontextprotocol/sdk 1.x whose tool answers with contract results, over stdio:
// `node examples/mcp-sdk-v1-server.mjs`. docs/install.md shows it; the tests and `npm run evidence` call it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fail, ok } from 'verdict';
import { registerContractTool } from 'verdict/mcp/sdk-v1';

const server = new McpServer({ name: 'divider', version: '1.0.0' });
registerContractTool(server, {
  name: 'divide',
  description: 'Divides a by b.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  outputSchema: { type: 'object', properties: { quotient: { type: 'number' } }, required: ['quotient'] },
  run: ({ a, b }) =>
    b === 0
      ? fail('Cannot divide by zero.', { error_code: 'division_by_zero' })
      : ok(`${a} / ${b} = ${a / b}.`, { quotient: a / b }),
});
await server.connect(new StdioServerTransport());
