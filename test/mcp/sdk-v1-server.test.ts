import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { ensureResult, fail, ok } from '../../src/contract/index.js';
import { isVerdictError } from '../../src/errors.js';
import {
  classifyOutputSchema,
  resultOutputSchema,
  toCallToolResult,
  validateMcpResult,
} from '../../src/mcp/index.js';
import {
  type ContractTool,
  registerContractTool,
  resultOutputZodSchema,
  zodFromJsonSchema,
} from '../../src/mcp/sdk-v1/index.js';
import { CLI_PATH } from '../helpers/spawn-cli.js';
import { responsesTo, tapTransport, type WireMessage } from '../helpers/wire-tap.js';

const DOMAIN = {
  type: 'object' as const,
  required: ['quotient'],
  properties: { quotient: { type: 'number' } },
};

const TOOL = {
  name: 'divide',
  description: 'Divides two numbers.',
  inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } },
  outputSchema: resultOutputSchema(DOMAIN),
};

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'mcp-sdk-v1-server.mjs');
const EXAMPLE_SERVER = { command: process.execPath, args: [EXAMPLE], stderr: 'pipe' as const };

const scratch = mkdtempSync(join(tmpdir(), 'verdict-sdk-v1-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A v1 low-level server whose tool answers through the pure adapter, with no verdict server code. */
async function connectLowLevel(): Promise<Client> {
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

/** A v1 `McpServer` with the given contract tools, and a v1 client connected to it in memory. */
async function connectMcpServer(...tools: ContractTool[]): Promise<Client> {
  const server = new McpServer({ name: 'v1-mcp-server', version: '1.0.0' });
  for (const tool of tools) registerContractTool(server, tool);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'v1-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Runs `verdict mcp` on one wire response with its tool definition; resolves with the CLI's JSON result. */
function verdictMcp(response: WireMessage, toolDefinition: WireMessage, revision: string) {
  const name = `${Math.random().toString(36).slice(2)}`;
  const result = join(scratch, `${name}.result.json`);
  const definition = join(scratch, `${name}.tool.json`);
  writeFileSync(result, JSON.stringify(response));
  writeFileSync(definition, JSON.stringify(toolDefinition));
  const run = spawnSync(
    process.execPath,
    [CLI_PATH, 'mcp', result, '--tool-definition', definition, '--spec-version', revision, '--json'],
    { encoding: 'utf8' },
  );
  return { status: run.status, report: JSON.parse(run.stdout) as Record<string, unknown> };
}

describe('the pure adapter on an @modelcontextprotocol/sdk 1.x low-level server', () => {
  test('the v1 client lists the tool and validates both outcomes against its outputSchema', async () => {
    const client = await connectLowLevel();
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

describe('zodFromJsonSchema and resultOutputZodSchema', () => {
  test('a v1 McpServer advertises exactly resultOutputSchema(domain), classified canonical_allof', async () => {
    const server = new McpServer({ name: 'plain', version: '1.0.0' });
    // A hand-written v1 tool: the zod schema goes where the SDK wants one, the handler result type-checks.
    server.registerTool(
      'divide',
      { description: 'Divides.', outputSchema: resultOutputZodSchema(DOMAIN) },
      () => toCallToolResult(ensureResult(ok('1 / 1 = 1.', { quotient: 1 })), { revision: '2025-11-25' }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'v1-client', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools[0]?.outputSchema).toEqual(resultOutputSchema(DOMAIN));
    expect(classifyOutputSchema(tools[0]?.outputSchema)).toEqual({
      mode: 'canonical_allof',
      violations: [],
      warnings: [],
    });
    const called = await client.callTool({ name: 'divide', arguments: {} });
    expect(called.structuredContent).toEqual({ success: true, message: '1 / 1 = 1.', quotient: 1 });
    await client.close();
  });

  test('parsing checks values against the JSON Schema', () => {
    const schema = resultOutputZodSchema(DOMAIN);
    expect(schema.safeParse({ success: true, message: 'Done.', quotient: 2 }).success).toBe(true);
    expect(schema.safeParse({ success: true, message: 'Done.' }).success).toBe(false);
    expect(schema.safeParse({ success: true, message: ' ', quotient: 2 }).success).toBe(false);
    expect(schema.safeParse({ success: false, message: 'No.', error_code: 'nope' }).success).toBe(true);
    expect(schema.safeParse({ success: false, message: 'No.' }).success).toBe(false);
  });

  test('a schema whose root is not an object schema is refused with invalid_argument', () => {
    let thrown: unknown;
    try {
      zodFromJsonSchema({ type: 'string' });
    } catch (error) {
      thrown = error;
    }
    expect(isVerdictError(thrown) && thrown.code).toBe('invalid_argument');
  });
});

describe('registerContractTool on an @modelcontextprotocol/sdk 1.x McpServer', () => {
  const divide: ContractTool = {
    name: 'divide',
    description: 'Divides a by b.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: DOMAIN,
    run: ({ a, b }) =>
      b === 0
        ? fail('Cannot divide by zero.', { error_code: 'division_by_zero' })
        : ok('Divided.', { quotient: Number(a) / Number(b) }),
  };

  test('thrown errors, broken results and off-schema successes become conforming failures', async () => {
    const client = await connectMcpServer(
      { ...divide, name: 'throws', run: () => Promise.reject(new RangeError('out of range')) },
      { ...divide, name: 'broken', run: () => ({ success: true, message: '' }) as never },
      { ...divide, name: 'off_schema', run: () => ok('Divided, but no quotient.') },
    );
    const { tools } = await client.listTools();
    const cases = [
      ['throws', 'unexpected_error'],
      ['broken', 'invalid_result_contract'],
      ['off_schema', 'invalid_result_contract'],
    ] as const;
    for (const [name, code] of cases) {
      const result = await client.callTool({ name, arguments: { a: 1, b: 2 } });
      expect(result.isError, name).toBe(true);
      expect((result.structuredContent as { error_code?: string }).error_code, name).toBe(code);
      const toolDefinition = tools.find((t) => t.name === name);
      expect(validateMcpResult(result, { revision: '2025-11-25', toolDefinition }).violations).toEqual([]);
    }
    await client.close();
  });

  test('unknown tools and invalid arguments stay JSON-RPC -32602 errors', async () => {
    const client = await connectMcpServer(divide);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'divide', arguments: { a: 1 } })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ name: 'divide', arguments: { a: 1, b: 'two' } })).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });

  test('an McpServer without the 1.32 internals it guards is refused with not_supported', () => {
    // A server shaped like a future 1.x whose tools/call handler lives elsewhere: registration must say so.
    const elsewhere = { registerTool: () => ({}), server: {} } as unknown as McpServer;
    let thrown: unknown;
    try {
      registerContractTool(elsewhere, divide);
    } catch (error) {
      thrown = error;
    }
    expect(isVerdictError(thrown) && thrown.code).toBe('not_supported');
  });

  test('the handler gets the arguments and the abort signal of the call', async () => {
    let seen: unknown;
    const client = await connectMcpServer({
      ...divide,
      run: (args, ctx) => {
        seen = { args, aborted: ctx.signal.aborted };
        return ok('Divided.', { quotient: 1 });
      },
    });
    await client.callTool({ name: 'divide', arguments: { a: 2, b: 2 } });
    expect(seen).toEqual({ args: { a: 2, b: 2 }, aborted: false });
    await client.close();
  });
});

describe('the v1 example server (examples/mcp-sdk-v1-server.mjs) over stdio', () => {
  const clients = {
    'the v1 client': {
      revision: '2025-11-25',
      open: () => {
        const tap = tapTransport(new StdioClientTransport(EXAMPLE_SERVER));
        return { tap, client: new Client({ name: 'v1-client', version: '1.0.0' }) };
      },
    },
    'the v2 client': {
      revision: '2025-11-25',
      open: () => {
        const tap = tapTransport(new StdioClientTransportV2(EXAMPLE_SERVER));
        return { tap, client: new ClientV2({ name: 'v2-client', version: '1.0.0' }) };
      },
    },
  } as const;

  test.each(Object.keys(clients) as (keyof typeof clients)[])(
    '%s gets wire results that verdict mcp accepts',
    async (which) => {
      const { tap, client } = clients[which].open();
      const revision = clients[which].revision;
      const any = client as unknown as {
        connect(t: unknown): Promise<void>;
        listTools(): Promise<{ tools: { outputSchema?: unknown }[] }>;
        callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
        close(): Promise<void>;
      };
      await any.connect(tap.transport);
      try {
        const { tools } = await any.listTools();
        expect(classifyOutputSchema(tools[0]?.outputSchema).mode).toBe('canonical_allof');
        const success = await any.callTool({ name: 'divide', arguments: { a: 6, b: 3 } });
        const failure = await any.callTool({ name: 'divide', arguments: { a: 6, b: 0 } });
        expect(success.structuredContent).toEqual({ success: true, message: '6 / 3 = 2.', quotient: 2 });
        expect(failure.isError).toBe(true);
        await expect(any.callTool({ name: 'divide', arguments: { a: 6 } })).rejects.toMatchObject({
          code: -32602,
        });
      } finally {
        await any.close();
      }
      const listed = responsesTo(tap, 'tools/list')[0]?.response.result as { tools: WireMessage[] };
      const toolDefinition = listed.tools[0] as WireMessage;
      const completed = responsesTo(tap, 'tools/call').filter(({ response }) => 'result' in response);
      expect(completed).toHaveLength(2);
      for (const { response } of completed) {
        const { status, report } = verdictMcp(response, toolDefinition, revision);
        expect(status, JSON.stringify(report)).toBe(0);
        expect(report).toMatchObject({
          success: true,
          details: { output_schema_mode: 'canonical_allof' },
        });
      }
    },
  );
});
