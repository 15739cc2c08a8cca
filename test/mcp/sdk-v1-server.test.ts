import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { ensureResult, fail, ok } from '../../src/contract/index.js';
import { resultOutputSchema, toCallToolResult, validateMcpResult } from '../../src/mcp/index.js';

const TOOL = {
  name: 'divide',
  description: 'Divides two numbers.',
  inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } },
  outputSchema: resultOutputSchema({
    type: 'object',
    required: ['quotient'],
    properties: { quotient: { type: 'number' } },
  }),
};

/** A v1 low-level server whose tool answers through the pure adapter, with no verdict server code. */
async function connect(): Promise<Client> {
  const server = new Server({ name: 'v1-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { a, b } = request.params.arguments as { a: number; b: number };
    const result =
      b === 0
        ? fail('Cannot divide by zero.', { error_code: 'division_by_zero' })
        : ok(`${a} / ${b} = ${a / b}.`, { quotient: a / b });
    return toCallToolResult(ensureResult(result), {
      revision: server.getClientVersion() ? '2025-11-25' : '',
    });
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'v1-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('the pure adapter on an @modelcontextprotocol/sdk 1.x server', () => {
  test('the v1 client lists the tool and validates both outcomes against its outputSchema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools[0]?.outputSchema).toEqual(TOOL.outputSchema);
    const success = await client.callTool({ name: 'divide', arguments: { a: 6, b: 3 } });
    const failure = await client.callTool({ name: 'divide', arguments: { a: 6, b: 0 } });
    expect(success.structuredContent).toEqual({ success: true, message: '6 / 3 = 2.', quotient: 2 });
    expect(failure.isError).toBe(true);
    for (const result of [success, failure]) {
      const report = validateMcpResult(result, { revision: '2025-11-25', toolDefinition: tools[0] });
      expect(report.violations).toEqual([]);
      expect(report.facts.output_schema_mode).toBe('canonical_allof');
    }
    await client.close();
  });
});
