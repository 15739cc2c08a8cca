import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runAction } from '../../src/action/run-action.js';
import { nodeSha256Hex as sha256Hex } from '../../src/evidence/node-sha256-hex.js';
import { RECEIPT_SCHEMA } from '../../src/evidence/receipt-schema.js';
import { memoryStream } from '../helpers/memory-io.js';

const fixtures = join(import.meta.dirname, '../fixtures/conformance');
let root: string;
let workspace: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'verdict-action-')));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  cpSync(fixtures, join(workspace, 'evidence'), { recursive: true });
  writeFileSync(join(root, 'secret.json'), '{"success":true,"message":"Outside the workspace."}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Runs the Action as the runner would: INPUT_* variables, output and summary files, a workspace. */
function simulate(inputs: Record<string, string>) {
  const env: Record<string, string> = {
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: join(root, 'output.txt'),
    GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const stdout = memoryStream();
  const stderr = memoryStream();
  const status = runAction({ env, stdout, stderr });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const outputs = Object.fromEntries(
    read(env.GITHUB_OUTPUT!)
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return {
    status,
    outputs,
    summary: read(env.GITHUB_STEP_SUMMARY!),
    stdout: stdout.text(),
    stderr: stderr.text(),
  };
}

const mcpInputs = {
  profile: 'mcp-2026-07-28',
  success: 'evidence/mcp/valid/success-2026-07-28.json',
  failure: 'evidence/mcp/valid/failure-2026-07-28.json',
  'tool-definition': 'evidence/mcp/tools/allof-tool.json',
  report: 'reports/receipt.json',
};

describe('runAction', () => {
  test('passes a conforming MCP pair: receipt, outputs and a PASS summary', () => {
    mkdirSync(join(workspace, 'reports'));
    const run = simulate(mcpInputs);
    expect(run.status).toBe(0);
    const schema = readFileSync(join(import.meta.dirname, '../../schemas/result-contract-v1.schema.json'));
    expect(run.outputs).toEqual({
      report: 'reports/receipt.json',
      conformant: 'true',
      profile: 'mcp-2026-07-28',
      receipt_schema: 'https://qzx.yumbale.com/schemas/result-contract-conformance-receipt-v1.schema.json',
      contract_schema_sha256: sha256Hex(new Uint8Array(schema)),
      output_schema_mode: 'canonical_allof',
    });
    const receipt = readFileSync(join(workspace, 'reports/receipt.json'), 'utf8');
    expect(run.stdout).toBe(receipt);
    expect(new Ajv2020({ allowUnionTypes: true }).validate(RECEIPT_SCHEMA, JSON.parse(receipt))).toBe(true);
    expect(run.summary).toMatch(/^## PASS/);
    expect(run.summary).toContain(
      '| success | `evidence/mcp/valid/success-2026-07-28.json` | true | true | yes |',
    );
    expect(run.summary).toContain('outputSchema mode: `canonical_allof`');
  });

  test('passes a core pair with the default profile and report path', () => {
    const run = simulate({
      success: 'evidence/core/valid/success-full.json',
      failure: 'evidence/core/valid/failure-error.json',
    });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({
      report: 'qzx-result-contract-conformance.json',
      profile: 'core',
      output_schema_mode: 'not_applicable',
    });
    expect(existsSync(join(workspace, 'qzx-result-contract-conformance.json'))).toBe(true);
  });

  test('fails the step for a failing pair and lists the violations in the summary', () => {
    const run = simulate({ ...mcpInputs, success: 'evidence/mcp/invalid/is_error_mismatch.json' });
    expect(run.status).toBe(1);
    expect(run.outputs.conformant).toBe('false');
    expect(run.summary).toMatch(/^## FAIL/);
    expect(run.summary).toContain('is_error_mismatch at /result/isError');
    expect(run.summary).toContain('role_mismatch');
    expect(run.stderr).toMatch(/^::error title=Not conformant::/);
    expect(JSON.parse(readFileSync(join(workspace, 'reports/receipt.json'), 'utf8')).error_code).toBe(
      'conformance_failed',
    );
  });

  test.each([
    ['a ../ escape', { success: '../secret.json' }, /leaves GITHUB_WORKSPACE/],
    ['an absolute path outside', { failure: join(tmpdir(), 'elsewhere.json') }, /leaves GITHUB_WORKSPACE/],
    [
      'a report path escaping through ..',
      { report: 'reports/../../receipt.json' },
      /leaves GITHUB_WORKSPACE/,
    ],
    ['the workspace root', { report: '.' }, /workspace root/],
    ['the workspace root by absolute path', { success: '' }, /workspace root/],
    ['a line break in an input', { report: 'a.json\nb.json' }, /line break/],
    ['a missing required input', { failure: '' }, /failure is required/],
    ['an unknown profile', { profile: 'mcp-2024-11-05' }, /profile must be one of/],
  ])('refuses %s with exit 2 and writes nothing', (_name, change, message) => {
    const inputs: Record<string, string> = { ...mcpInputs, ...change };
    if (_name === 'the workspace root by absolute path') inputs.success = workspace;
    const run = simulate(inputs);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/^::error title=Input refused::/);
    expect(run.outputs).toEqual({});
    expect(run.summary).toBe('');
    expect(existsSync(join(workspace, 'reports'))).toBe(false);
  });

  test('refuses a symlink inside the workspace that points outside it', () => {
    symlinkSync(join(root, 'secret.json'), join(workspace, 'evidence/inside.json'));
    const run = simulate({ ...mcpInputs, success: 'evidence/inside.json' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/through a symbolic link/);
  });

  test('refuses a report path under a symlinked directory that points outside', () => {
    symlinkSync(root, join(workspace, 'out'));
    const run = simulate({ ...mcpInputs, report: 'out/receipt.json' });
    expect(run.status).toBe(2);
    expect(existsSync(join(root, 'receipt.json'))).toBe(false);
  });

  test('refuses when GITHUB_WORKSPACE is not set', () => {
    const stderr = memoryStream();
    const status = runAction({
      env: { INPUT_SUCCESS: 'a.json', INPUT_FAILURE: 'b.json' },
      stdout: memoryStream(),
      stderr,
    });
    expect(status).toBe(2);
    expect(stderr.text()).toMatch(/GITHUB_WORKSPACE is not set/);
  });
});
