import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMA_URL, VIOLATION_CODES } from '../contract/codes.js';
import type { ResultContract } from '../contract/types.js';
import { validateResult } from '../contract/validate-result.js';
import { MCP_VIOLATION_CODES } from '../mcp/codes.js';
import { EVIDENCE_VIOLATION_CODES } from './codes.js';
import { runConformanceSuite, type SuiteCaseOutcome } from './run-conformance-suite.js';

const suiteDir = join(import.meta.dirname, '../../test/fixtures/conformance');
const manifest = JSON.parse(readFileSync(join(suiteDir, 'manifest.json'), 'utf8')) as {
  cases: { id: string; file: string; tool_definition?: string; expected_violation_codes: string[] }[];
};

const casesOf = (result: ResultContract) => (result.details?.cases ?? []) as SuiteCaseOutcome[];

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'verdict-suite-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeSuite(cases: unknown[], extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'suite', 'manifest.json');
  mkdirSync(join(dir, 'suite'), { recursive: true });
  writeFileSync(path, JSON.stringify({ schema_version: 1, contract: CONTRACT_SCHEMA_URL, cases, ...extra }));
  return path;
}

function writeCase(name: string, value: unknown): void {
  mkdirSync(join(dir, 'suite'), { recursive: true });
  writeFileSync(join(dir, 'suite', name), JSON.stringify(value));
}

describe('runConformanceSuite', () => {
  test("passes every case of the project's own fixture suite", () => {
    const result = runConformanceSuite(join(suiteDir, 'manifest.json'));
    const failing = casesOf(result).filter((c) => !c.passed);
    expect(failing).toEqual([]);
    expect(result.success).toBe(true);
    expect(validateResult(result).violations).toEqual([]);
  });

  // No silent skips: every code has a fixture, and every fixture file is named by the manifest.
  test('covers every contract and MCP violation code, and unreadable input', () => {
    const covered = new Set(manifest.cases.flatMap((c) => c.expected_violation_codes));
    const expected = [
      ...Object.keys(VIOLATION_CODES),
      ...Object.keys(MCP_VIOLATION_CODES),
      'invalid_json_input',
    ];
    const missing = expected.filter((code) => !covered.has(code));
    expect(missing).toEqual([]);
    expect(Object.keys(EVIDENCE_VIOLATION_CODES)).toContain('invalid_json_input');
  });

  test('names every fixture file in the manifest', () => {
    const named = new Set(
      manifest.cases.flatMap((c) => [c.file, ...(c.tool_definition ? [c.tool_definition] : [])]),
    );
    const files = readdirSync(suiteDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json') && f !== 'manifest.json')
      .map((f) => relative(suiteDir, join(suiteDir, f)).split('\\').join('/'));
    expect(files.filter((f) => !named.has(f))).toEqual([]);
  });

  test('accepts the reference format: prose expected_violations are shown, not compared', () => {
    writeCase('bad.json', { success: true, message: '   ' });
    const path = writeSuite([
      {
        id: 'blank_message',
        file: 'bad.json',
        expected_conformant: false,
        expected_violations: ['message must be a non-empty string.'],
      },
    ]);
    const result = runConformanceSuite(path);
    expect(result.success).toBe(true);
    const [outcome] = casesOf(result);
    expect(outcome).toMatchObject({
      passed: true,
      violation_codes: ['message_invalid'],
      expected_violations: ['message must be a non-empty string.'],
    });
  });

  test('fails a case whose verdict or codes differ, with conformance_suite_failed', () => {
    writeCase('ok.json', { success: true, message: 'Fine.' });
    writeCase('bad.json', { success: false, message: 'Broken.' });
    const path = writeSuite([
      { id: 'wrong_verdict', file: 'ok.json', expected_conformant: false },
      {
        id: 'wrong_codes',
        file: 'bad.json',
        expected_conformant: false,
        expected_violation_codes: ['error_invalid'],
      },
      {
        id: 'right',
        file: 'bad.json',
        expected_conformant: false,
        expected_violation_codes: ['failure_without_error'],
      },
    ]);
    const result = runConformanceSuite(path);
    expect(result.success).toBe(false);
    expect(result.success === false && result.error_code).toBe('conformance_suite_failed');
    expect(casesOf(result).map((c) => c.passed)).toEqual([false, false, true]);
  });

  test.each([
    ['a ../ escape', () => '../outside.json'],
    ['an absolute path', () => join(dir, 'outside.json')],
    ['a symlink leaving the folder', () => 'link.json'],
  ])('refuses %s as conformance_suite_invalid', (_name, file) => {
    writeFileSync(join(dir, 'outside.json'), JSON.stringify({ success: true, message: 'Outside.' }));
    mkdirSync(join(dir, 'suite'), { recursive: true });
    symlinkSync(join(dir, 'outside.json'), join(dir, 'suite', 'link.json'));
    const result = runConformanceSuite(
      writeSuite([{ id: 'escape', file: file(), expected_conformant: true }]),
    );
    expect(result.success === false && result.error_code).toBe('conformance_suite_invalid');
    expect(result.details?.violations).toEqual([
      expect.stringMatching(/^conformance_suite_invalid at \/cases\/0\/file: /),
    ]);
  });

  test.each([
    ['an unreadable manifest', null],
    ['a manifest that is not an object', []],
    ['a wrong schema_version', { schema_version: 2 }],
    ['a wrong contract', { contract: 'https://example.com/other.json' }],
    ['no cases', { cases: [] }],
  ])('reports %s as conformance_suite_invalid', (_name, override) => {
    writeCase('ok.json', { success: true, message: 'Fine.' });
    const path = join(dir, 'suite', 'manifest.json');
    if (override === null) writeFileSync(path, '{"schema_version": 1,');
    else if (Array.isArray(override)) writeFileSync(path, '[]');
    else writeSuite([{ id: 'ok', file: 'ok.json', expected_conformant: true }], override);
    const result = runConformanceSuite(path);
    expect(result.success === false && result.error_code).toBe('conformance_suite_invalid');
    expect(validateResult(result).violations).toEqual([]);
  });

  test('reports every malformed case, a duplicate id and a missing file', () => {
    writeCase('ok.json', { success: true, message: 'Fine.' });
    const result = runConformanceSuite(
      writeSuite([
        { id: 'a', file: 'ok.json', expected_conformant: true },
        { id: 'a', file: 'ok.json', expected_conformant: true },
        { id: 'b', file: 'gone.json', expected_conformant: true },
        { id: 'c', file: 'ok.json', expected_conformant: 'yes', profile: 'mcp-1999' },
        'not a case',
      ]),
    );
    expect(result.details?.violations).toHaveLength(5);
  });

  test('runs a case under an MCP profile with a tool definition', () => {
    const structured = { success: true, message: 'Done.' };
    writeCase('result.json', {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    });
    writeCase('tool.json', { name: 't', outputSchema: { $ref: CONTRACT_SCHEMA_URL } });
    const result = runConformanceSuite(
      writeSuite([
        {
          id: 'v2025',
          file: 'result.json',
          profile: 'mcp-2025-06-18',
          tool_definition: 'tool.json',
          expected_conformant: true,
        },
        {
          id: 'v2026',
          file: 'result.json',
          profile: 'mcp-2026-07-28',
          tool_definition: 'tool.json',
          expected_conformant: false,
          expected_violation_codes: ['result_type_missing'],
        },
      ]),
    );
    expect(result.success).toBe(true);
  });
});
