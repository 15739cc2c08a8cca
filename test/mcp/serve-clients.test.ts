import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResult } from '../../src/contract/index.js';
import type { McpRevision } from '../../src/mcp/index.js';
import { classifyOutputSchema, validateMcpResult } from '../../src/mcp/index.js';
import { type DnsResponder, startDnsResponder } from '../helpers/dns-responder.js';
import { responsesTo, type TappedTransport, tapTransport, type WireMessage } from '../helpers/wire-tap.js';
import { makeWorkspace, toolCases } from './tool-calls.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const SERVER = { command: process.execPath, args: [CLI, 'mcp', 'serve'], stderr: 'pipe' as const };

/** The calls a client makes; the v1 and v2 clients share this shape. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

let workspace: string;
let dns: DnsResponder;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build before these tests.`);
  workspace = makeWorkspace();
  dns = await startDnsResponder({ 'verdict.test': [{ type: 'A', address: '192.0.2.7' }] });
});

afterAll(async () => {
  await dns?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** The revision of a session: the `initialize` answer (2025), else the per-request envelope (2026-07-28). */
function negotiatedRevision(tap: TappedTransport<unknown>): string | undefined {
  const init = responsesTo(tap, 'initialize')[0]?.response.result as { protocolVersion?: string } | undefined;
  if (init?.protocolVersion) return init.protocolVersion;
  const request = tap.outbound.find((m) => m.method === 'tools/list');
  const meta = (request?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.['io.modelcontextprotocol/protocolVersion'] as string | undefined;
}

/** Lists and calls every tool once to success and once to failure, then checks the wire and the errors. */
async function exercise(
  client: AnyClient,
  tap: TappedTransport<unknown>,
  revision: McpRevision,
): Promise<void> {
  const cases = toolCases(workspace, dns.server);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(cases).sort());
  const ajv = new Ajv2020({ strict: false, logger: false });
  for (const tool of tools) {
    expect(classifyOutputSchema(tool.outputSchema).mode).toBe('canonical_allof');
    const check = ajv.compile(tool.outputSchema as object);
    const plan = cases[tool.name];
    if (plan === undefined) throw new Error(`no call plan for tool ${tool.name}`);
    const success = await client.callTool({ name: tool.name, arguments: plan.success });
    expect(success.isError ?? false, JSON.stringify(success)).toBe(false);
    expect(validateResult(success.structuredContent).valid).toBe(true);
    expect(check(success.structuredContent), JSON.stringify(check.errors)).toBe(true);
    if ('skip' in plan.failure) continue;
    const failure = await client.callTool({ name: tool.name, arguments: plan.failure.args });
    expect(failure.isError, JSON.stringify(failure)).toBe(true);
    expect((failure.structuredContent as { error_code?: string }).error_code).toBe(plan.failure.errorCode);
    expect(check(failure.structuredContent), JSON.stringify(check.errors)).toBe(true);
  }
  await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toMatchObject({
    code: -32602,
  });
  await expect(client.callTool({ name: 'readFile', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  await expect(
    client.callTool({ name: 'getCurrentDateTime', arguments: { 'output-format': 'julian' } }),
  ).rejects.toMatchObject({ code: -32602 });

  // The raw responses, as sent: each completed result passes the profile with its own tool definition.
  const listed = responsesTo(tap, 'tools/list')[0]?.response.result as { tools: WireMessage[] };
  const calls = responsesTo(tap, 'tools/call');
  const completed = calls.filter(({ response }) => 'result' in response);
  const refused = calls.filter(({ response }) => 'error' in response);
  expect(completed).toHaveLength(Object.values(cases).reduce((n, c) => n + ('skip' in c.failure ? 1 : 2), 0));
  expect(refused.map(({ response }) => (response.error as { code: number }).code)).toEqual([
    -32602, -32602, -32602,
  ]);
  for (const { request, response } of completed) {
    const name = (request.params as { name: string }).name;
    const toolDefinition = listed.tools.find((t) => t.name === name);
    const report = validateMcpResult(response, { revision, toolDefinition });
    expect(report.violations, `${name}: ${JSON.stringify(response)}`).toEqual([]);
    expect(report.facts.output_schema_mode).toBe('canonical_allof');
    expect(report.facts.backcompat_text_matches).toBe(true);
  }
  for (const { response } of refused) {
    expect(validateMcpResult(response, { revision }).protocolError).toBe(true);
  }
}

describe('verdict mcp serve over stdio', () => {
  test('the v2 client pinned to 2026-07-28 lists and calls every tool', async () => {
    const tap = tapTransport(new StdioClientTransport(SERVER));
    const client = new Client(
      { name: 'verdict-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(tap.transport);
    try {
      await exercise(client as unknown as AnyClient, tap, '2026-07-28');
      expect(negotiatedRevision(tap)).toBe('2026-07-28');
      const sample = responsesTo(tap, 'tools/call')[0]?.response.result as WireMessage;
      expect(sample.resultType).toBe('complete');
    } finally {
      await client.close();
    }
  });

  test('the v2 client in legacy mode negotiates 2025-11-25 and gets no resultType', async () => {
    const tap = tapTransport(new StdioClientTransport(SERVER));
    const client = new Client({ name: 'verdict-test', version: '1.0.0' });
    await client.connect(tap.transport);
    try {
      expect(negotiatedRevision(tap)).toBe('2025-11-25');
      await exercise(client as unknown as AnyClient, tap, '2025-11-25');
      for (const { response } of responsesTo(tap, 'tools/call')) {
        if ('result' in response) expect(response.result).not.toHaveProperty('resultType');
      }
    } finally {
      await client.close();
    }
  });

  test('the v1 client asking for 2025-06-18 gets 2025-06-18', async () => {
    const tap = tapTransport(new StdioClientTransportV1(SERVER), { initializeVersion: '2025-06-18' });
    const client = new ClientV1({ name: 'verdict-test-v1', version: '1.0.0' });
    await client.connect(tap.transport);
    try {
      expect(negotiatedRevision(tap)).toBe('2025-06-18');
      await exercise(client as unknown as AnyClient, tap, '2025-06-18');
    } finally {
      await client.close();
    }
  });
});

const TOKEN = 'serve-clients-token-0123456789abcdef';

/** Starts `verdict mcp serve --http 127.0.0.1:0` and resolves with its endpoint once it listens. */
async function startHttpServer(): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VERDICT_MCP_TOKEN: TOKEN },
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /serving MCP on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
  });
  return { child, url };
}

describe('verdict mcp serve over Streamable HTTP', () => {
  test('serves a pinned 2026-07-28 client and a legacy client on 127.0.0.1, and stops on SIGINT', async () => {
    const { child, url } = await startHttpServer();
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    try {
      expect(url.hostname).toBe('127.0.0.1');
      for (const [mode, revision] of [
        [{ pin: '2026-07-28' }, '2026-07-28'],
        ['legacy', '2025-11-25'],
      ] as const) {
        const tap = tapTransport(
          new StreamableHTTPClientTransport(url, {
            requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
          }),
        );
        const client = new Client(
          { name: 'verdict-test', version: '1.0.0' },
          { versionNegotiation: { mode } },
        );
        await client.connect(tap.transport);
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(9);
        const success = await client.callTool({
          name: 'validate_result',
          arguments: { document: { success: false, message: 'No.', error_code: 'nope' } },
        });
        const failure = await client.callTool({ name: 'validate_result', arguments: { document: [] } });
        expect(success.isError ?? false).toBe(false);
        expect(failure.isError).toBe(true);
        await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toMatchObject({
          code: -32602,
        });
        const listed = responsesTo(tap, 'tools/list')[0]?.response.result as { tools: WireMessage[] };
        const toolDefinition = listed.tools.find((t) => t.name === 'validate_result');
        const completed = responsesTo(tap, 'tools/call').filter(({ response }) => 'result' in response);
        expect(completed).toHaveLength(2);
        for (const { response } of completed) {
          expect(validateMcpResult(response, { revision, toolDefinition }).violations).toEqual([]);
        }
        await client.close();
      }
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
    expect(stdout).toBe('');
  });
});
