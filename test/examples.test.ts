import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validateResult } from '../src/contract/validate-result.js';
import { CLI_PATH } from './helpers/spawn-cli.js';
import { responsesTo, tapTransport } from './helpers/wire-tap.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const greet = fileURLToPath(new URL('../examples/greet-cli.mjs', import.meta.url));

function runGreet(args: string[]) {
  const run = spawnSync(process.execPath, [greet, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the README examples', () => {
  test('the third-party CLI example prints one conforming document and exits 0, 1 or 2', () => {
    const success = runGreet(['--name', 'Ada', '--json']);
    expect(success.status).toBe(0);
    expect(validateResult(JSON.parse(success.stdout)).valid).toBe(true);
    const failure = runGreet(['--name', ' ', '--json']);
    expect(failure.status).toBe(1);
    expect(JSON.parse(failure.stdout)).toMatchObject({ success: false, error_code: 'empty_name' });
    const usage = runGreet(['--json']);
    expect(usage.status).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error_code: 'invalid_arguments' });
  });

  test('the main job of the README accepts the shipped success and failure examples', () => {
    const out = execFileSync(
      process.execPath,
      [CLI_PATH, 'validate', 'examples/success.json', 'examples/failure.json', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(out)).toMatchObject({ success: true });
  });

  test('the shipped non-conforming example is reported with its three violations', () => {
    const run = spawnSync(
      process.execPath,
      [CLI_PATH, 'validate', 'examples/not-conforming.json', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    const codes = JSON.parse(run.stdout).details.inputs[0].violations.map((v: { code: string }) => v.code);
    expect(codes).toEqual(['message_invalid', 'success_with_error', 'details_not_object']);
  });
});

describe('the README MCP example', () => {
  test('examples/mcp-greeter.mjs answers the v2 client with contract results on success and failure', async () => {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const { validateMcpResult } = await import('../src/mcp/index.js');
    const tap = tapTransport(
      new StdioClientTransport({
        command: process.execPath,
        args: [fileURLToPath(new URL('../examples/mcp-greeter.mjs', import.meta.url))],
        cwd: root,
        stderr: 'pipe',
      }),
    );
    const client = new Client(
      { name: 'verdict-docs-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(tap.transport);
    try {
      const { tools } = await client.listTools();
      const greet = tools.find((tool) => tool.name === 'greet');
      expect(greet).toBeDefined();
      await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      await client.callTool({ name: 'greet', arguments: { name: ' ' } });
      const [success, failure] = responsesTo(tap, 'tools/call').map(({ response }) => response);
      const toolDefinition = greet as unknown as Record<string, unknown>;
      const successReport = validateMcpResult(success, { revision: '2026-07-28', toolDefinition });
      const failureReport = validateMcpResult(failure, { revision: '2026-07-28', toolDefinition });
      expect(successReport).toMatchObject({ valid: true, facts: { output_schema_mode: 'canonical_allof' } });
      expect(failureReport.valid).toBe(true);
      expect((success as { result: { structuredContent: unknown } }).result.structuredContent).toMatchObject({
        success: true,
        greeting: 'Hello, Ada.',
      });
      expect((failure as { result: { structuredContent: unknown; isError: boolean } }).result).toMatchObject({
        isError: true,
        structuredContent: { success: false, error_code: 'empty_name' },
      });
    } finally {
      await client.close();
    }
  });
});
