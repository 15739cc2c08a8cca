import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { RECEIPT_SCHEMA } from '../../src/evidence/receipt-schema.js';
import { memoryIo } from '../helpers/memory-io.js';

const fixtures = join(import.meta.dirname, '../fixtures/conformance');
let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'verdict-kit-')));
  cpSync(fixtures, dir, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function verdict(argv: string[], stdin?: string) {
  const io = memoryIo({ cwd: dir, ...(stdin === undefined ? {} : { stdin }) });
  const status = await run(argv, io);
  return { status, text: io.stdout.text(), stderr: io.stderr.text() };
}

const mcpPair = [
  '--success',
  'mcp/valid/success-2026-07-28.json',
  '--failure',
  'mcp/valid/failure-2026-07-28.json',
  '--tool-definition',
  'mcp/tools/allof-tool.json',
];

describe('verdict mcp', () => {
  test('exits 0 with a conforming report for a conforming result under the default revision', async () => {
    const { status, text } = await verdict([
      'mcp',
      'mcp/valid/success-2026-07-28.json',
      '--tool-definition',
      'mcp/tools/allof-tool.json',
      '--json',
    ]);
    expect(status).toBe(0);
    const doc = JSON.parse(text);
    expect(validateResult(doc).violations).toEqual([]);
    expect(doc.details).toMatchObject({
      mcp_specification: '2026-07-28',
      output_schema_mode: 'canonical_allof',
    });
  });

  test('exits 1 and names the code when the result does not conform under the chosen revision', async () => {
    const result = readFileSync(join(dir, 'mcp/invalid/result_type_missing.json'), 'utf8');
    const strict = await verdict(['mcp', '-', '--json'], result);
    expect(strict.status).toBe(1);
    expect(JSON.parse(strict.text)).toMatchObject({ error_code: 'mcp_profile_violation' });
    expect((await verdict(['mcp', '--spec-version', '2025-06-18', '-', '--json'], result)).status).toBe(0);
  });

  test('reports duplicate members found by the strict reader', async () => {
    const { status, text } = await verdict(
      ['mcp', '--json', '-'],
      '{"content":[],"content":[],"structuredContent":{"success":true,"message":"x"}}',
    );
    expect(status).toBe(1);
    expect(JSON.parse(text).details.violations[0]).toMatchObject({ code: 'duplicate_member', path: '' });
  });

  test('reports unreadable input as invalid_json_input and an unknown revision as a usage error', async () => {
    const unreadable = await verdict(['mcp', 'missing.json', '--json']);
    expect(unreadable.status).toBe(1);
    expect(JSON.parse(unreadable.text)).toMatchObject({
      error_code: 'invalid_json_input',
      details: { read_error: { reason: 'not_found' } },
    });
    expect((await verdict(['mcp', 'x.json', '--spec-version', '2024-11-05', '--json'])).status).toBe(2);
  });
});

describe('verdict evidence', () => {
  const validate = new Ajv2020({ allowUnionTypes: true }).compile(RECEIPT_SCHEMA);

  test('prints the receipt byte for byte as written to --report, exit 0', async () => {
    const { status, text } = await verdict([
      'evidence',
      '--profile',
      'mcp-2026-07-28',
      ...mcpPair,
      '--report',
      'receipt.json',
      '--json',
    ]);
    expect(status).toBe(0);
    expect(readFileSync(join(dir, 'receipt.json'), 'utf8')).toBe(text);
    const receipt = JSON.parse(text);
    expect(validate(receipt)).toBe(true);
    expect(receipt).not.toHaveProperty('meta');
    const again = await verdict(['evidence', '--profile', 'mcp-2026-07-28', ...mcpPair, '--json']);
    expect(again.text).toBe(text);
  });

  test('exits 1 with conformance_failed when the roles are swapped, and defaults to core', async () => {
    const { status, text } = await verdict([
      'evidence',
      '--success',
      'core/valid/failure-error.json',
      '--failure',
      'core/valid/success-minimal.json',
      '--json',
    ]);
    expect(status).toBe(1);
    expect(JSON.parse(text)).toMatchObject({
      error_code: 'conformance_failed',
      details: { profile: 'core' },
    });
  });

  test('refuses a report path that is an input, exit 1 with receipt_path_conflict', async () => {
    const { status, text } = await verdict([
      'evidence',
      '--profile',
      'mcp-2026-07-28',
      ...mcpPair,
      '--report',
      './mcp/tools/../tools/allof-tool.json',
      '--json',
    ]);
    expect(status).toBe(1);
    expect(JSON.parse(text).error_code).toBe('receipt_path_conflict');
    expect(JSON.parse(readFileSync(join(dir, 'mcp/tools/allof-tool.json'), 'utf8')).name).toBe(
      'resize_images',
    );
  });

  test('exits 2 when a required option is missing', async () => {
    expect((await verdict(['evidence', '--success', 'a.json', '--json'])).status).toBe(2);
  });
});

describe('verdict conformance', () => {
  test("runs the project's fixture suite, exit 0", async () => {
    const { status, text } = await verdict(['conformance', '--manifest', 'manifest.json', '--json']);
    expect(status).toBe(0);
    expect(JSON.parse(text).details.failed).toBe(0);
  });

  test('marks each case in the human report by whether it got its expected verdict', async () => {
    writeFileSync(
      join(dir, 'mixed-manifest.json'),
      JSON.stringify({
        schema_version: 1,
        contract: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
        cases: [
          { id: 'invalid_as_expected', file: 'core/invalid/not_an_object.json', expected_conformant: false },
          { id: 'valid_as_expected', file: 'core/valid/success-minimal.json', expected_conformant: true },
          { id: 'wrong_expectation', file: 'core/valid/failure-error.json', expected_conformant: false },
        ],
      }),
    );
    const { status, text } = await verdict(['conformance', '--manifest', 'mixed-manifest.json']);
    expect(status).toBe(1);
    expect(text).toContain('✔ core/invalid/not_an_object.json');
    expect(text).toContain('✔ core/valid/success-minimal.json');
    expect(text).toContain('✖ core/valid/failure-error.json');
  });

  test('reports a missing manifest as conformance_suite_invalid, exit 1', async () => {
    const { status, text } = await verdict(['conformance', '--manifest', 'nope.json', '--json']);
    expect(status).toBe(1);
    expect(JSON.parse(text).error_code).toBe('conformance_suite_invalid');
  });
});

describe('verdict schema receipt', () => {
  test('prints the receipt schema', async () => {
    const { status, text } = await verdict(['schema', 'receipt']);
    expect(status).toBe(0);
    expect(JSON.parse(text)).toEqual(RECEIPT_SCHEMA);
  });
});
