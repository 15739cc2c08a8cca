import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, test } from 'vitest';
import { ok } from '../../contract/builders.js';
import { validateResult } from '../../contract/validate-result.js';
import { type ContractTool, registerContractTool } from './register-contract-tool.js';

const ECHO: ContractTool = {
  name: 'echo',
  description: 'Echoes a word.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  outputSchema: { type: 'object', required: ['word'], properties: { word: { type: 'string' } } },
  run: (args) => ok(`You said ${String(args.word)}.`, { word: args.word }),
};

const open: Client[] = [];

async function connect(...tools: ContractTool[]): Promise<{ client: Client; server: McpServer }> {
  const server = new McpServer({ name: 'test', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const tool of tools) registerContractTool(server, tool);
  // A plain SDK tool next to the contract tools: listed by McpServer, refused by verdict's tools/call.
  server.registerTool('plain', { description: 'Not a contract tool.' }, () => ({
    content: [{ type: 'text', text: 'plain' }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  open.push(client);
  return { client, server };
}

afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return result as { isError?: boolean; structuredContent: Record<string, unknown> };
}

describe('registerContractTool', () => {
  test('answers a success with the result in structuredContent', async () => {
    const { client } = await connect(ECHO);
    const result = await call(client, 'echo', { word: 'hi' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ success: true, message: 'You said hi.', word: 'hi' });
  });

  test('turns a thrown error into an unexpected_error failure, not a protocol error', async () => {
    const boom: ContractTool = {
      ...ECHO,
      name: 'boom',
      run: () => {
        throw new TypeError('disk on fire');
      },
    };
    const { client } = await connect(boom);
    const result = await call(client, 'boom', { word: 'hi' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      success: false,
      error: 'TypeError: disk on fire',
      error_code: 'unexpected_error',
    });
  });

  test('replaces a result that violates the contract with invalid_result_contract', async () => {
    const broken: ContractTool = {
      ...ECHO,
      name: 'broken',
      run: () => ({ success: true, message: 'ok', error: null }) as never,
    };
    const { client } = await connect(broken);
    const result = await call(client, 'broken', { word: 'hi' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error_code).toBe('invalid_result_contract');
    expect(validateResult(result.structuredContent).valid).toBe(true);
  });

  test('replaces a success that does not match the published domain schema', async () => {
    const wordless: ContractTool = { ...ECHO, name: 'wordless', run: () => ok('No word.') };
    const { client } = await connect(wordless);
    const result = await call(client, 'wordless', { word: 'hi' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error_code).toBe('invalid_result_contract');
  });

  test('keeps invalid arguments and unknown tools JSON-RPC protocol errors', async () => {
    const { client } = await connect(ECHO);
    await expect(client.callTool({ name: 'echo', arguments: { word: 3 } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid arguments for tool echo'),
    });
    await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  test('answers tools/call itself: a plain SDK tool on the same server is refused with -32602 saying why', async () => {
    const { client } = await connect(ECHO);
    await expect(client.callTool({ name: 'plain', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('contract tools only'),
    });
  });

  test('a disabled contract tool is refused like McpServer refuses one', async () => {
    const server = new McpServer({ name: 'test', version: '1.0.0' });
    registerContractTool(server, ECHO).disable();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client);
    await expect(client.callTool({ name: 'echo', arguments: { word: 'hi' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('disabled'),
    });
  });

  test('follows remove() and renames, and refuses schema or handler updates', async () => {
    const server = new McpServer({ name: 'test', version: '1.0.0' });
    const echo = registerContractTool(server, ECHO);
    const gone = registerContractTool(server, { ...ECHO, name: 'gone' });
    echo.update({ name: 'echo2' });
    gone.remove();
    expect(() => echo.update({ callback: () => ({ content: [] }) })).toThrow(/cannot be updated/);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo2']);
    expect((await call(client, 'echo2', { word: 'hi' })).structuredContent).toMatchObject({ word: 'hi' });
    for (const name of ['echo', 'gone']) {
      await expect(client.callTool({ name, arguments: { word: 'hi' } })).rejects.toMatchObject({
        code: -32602,
      });
    }
  });

  test('replaces a result larger than maxResultBytes with a result_too_large failure and logs it', async () => {
    const server = new McpServer({ name: 'test', version: '1.0.0' });
    const lines: string[] = [];
    const big: ContractTool = {
      ...ECHO,
      run: (args) => ok('Long.', { word: String(args.word).repeat(200) }),
    };
    registerContractTool(server, big, {
      maxResultBytes: 500,
      log: { write: (line) => lines.push(String(line)) },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client);
    const small = await call(client, 'echo', { word: 'a' });
    expect(small.isError).toBeUndefined();
    const result = await call(client, 'echo', { word: 'abc' });
    expect(result.isError).toBe(true);
    expect(validateResult(result.structuredContent).valid).toBe(true);
    expect(result.structuredContent).toMatchObject({
      success: false,
      error_code: 'result_too_large',
      details: { limit_bytes: 500, size_bytes: expect.any(Number) },
    });
    expect((result.structuredContent.details as { size_bytes: number }).size_bytes).toBeGreaterThan(600);
    expect(lines.join('')).toContain('result_too_large');
  });

  test('publishes resultOutputSchema of the domain schema', async () => {
    const { client } = await connect(ECHO);
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo?.outputSchema).toMatchObject({ type: 'object', required: ['success', 'message'] });
    expect(echo?.outputSchema?.properties).toHaveProperty('word');
  });
});
