import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { memoryIo } from '../helpers/memory-io.js';

let dir: string;
const file = (name: string, content: string | Uint8Array) => {
  writeFileSync(join(dir, name), content);
  return name;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-validate-'));
  file('ok.json', '{"success":true,"message":"Done."}');
  file('fail.json', '{"success":false,"message":"Nope.","error_code":"nope"}');
  file('bad.json', '{"success":false,"message":"  "}');
  file('syntax.json', '{"success":true,\n "message": tru}');
  file('bom.json', new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('{"success":true,"message":"x"}')]));
});

async function validate(argv: string[], stdin?: string) {
  const io = memoryIo({ cwd: dir, ...(stdin === undefined ? {} : { stdin }) });
  const status = await run(['validate', ...argv], io);
  return { status, io, text: io.stdout.text() };
}

describe('verdict validate', () => {
  test('exits 0 with a conforming success document when every input conforms', async () => {
    const { status, text } = await validate(['ok.json', 'fail.json', '--json']);
    expect(status).toBe(0);
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({ success: true, message: 'All 2 inputs conform to QZX Result Contract v1.' });
    expect(doc.details.inputs).toHaveLength(2);
    expect(validateResult(doc).valid).toBe(true);
  });

  test('reports contract_violation with every violation per input, exit 1', async () => {
    const { status, text } = await validate(['ok.json', 'bad.json', '--json']);
    expect(status).toBe(1);
    const doc = JSON.parse(text);
    expect(doc.error_code).toBe('contract_violation');
    expect(doc.details.inputs[1].violations.map((v: { code: string }) => v.code)).toEqual([
      'message_invalid',
      'failure_without_error',
    ]);
    expect(validateResult(doc).valid).toBe(true);
  });

  test('reports invalid_json_input with details.read_error and its position', async () => {
    const { status, text } = await validate(['syntax.json', '--json']);
    expect(status).toBe(1);
    const doc = JSON.parse(text);
    expect(doc.error_code).toBe('invalid_json_input');
    expect(doc.details.read_error).toMatchObject({ reason: 'syntax', line: 2 });
  });

  test('reports a missing file as not_found', async () => {
    const { text } = await validate(['missing.json', '--json']);
    expect(JSON.parse(text).details.read_error.reason).toBe('not_found');
  });

  test('reports a directory as unreadable', async () => {
    const { text } = await validate(['.', '--json']);
    expect(JSON.parse(text).details.read_error.reason).toBe('unreadable');
  });

  test('reads standard input for - and when no file is given', async () => {
    expect((await validate(['-', '--json'], '{"success":true,"message":"x"}')).status).toBe(0);
    expect((await validate(['--json'], '{"success":true}')).status).toBe(1);
  });

  test('refuses to read standard input twice', async () => {
    const { status, text } = await validate(
      ['-', 'ok.json', '-', '--json'],
      '{"success":true,"message":"x"}',
    );
    expect(status).toBe(2);
    expect(JSON.parse(text)).toMatchObject({
      error_code: 'invalid_arguments',
      error: '- was given more than once.',
    });
  });

  test('refuses to wait on a terminal when no input is given', async () => {
    const io = memoryIo({ cwd: dir, stdinIsTTY: true });
    expect(await run(['validate', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout.text()).error_code).toBe('invalid_arguments');
  });

  test('passes the utf8_bom warning into the report', async () => {
    const doc = JSON.parse((await validate(['bom.json', '--json'])).text);
    expect(doc.success).toBe(true);
    expect(doc.warnings).toEqual([`bom.json: utf8_bom: ${doc.details.inputs[0].warnings[0].message}`]);
  });

  test('applies --max-bytes as too_large before reading', async () => {
    const doc = JSON.parse((await validate(['ok.json', '--max-bytes', '10', '--json'])).text);
    expect(doc.details.read_error.reason).toBe('too_large');
  });

  test('validates JSON lines with counts, per-code totals and failing line numbers', async () => {
    const lines = [
      '{"success":true,"message":"a"}',
      '',
      '{"success":false,"message":"b"}',
      '{"success":true,"message":"c"}\r',
      'not json',
      '{"success":true,"message":"d","error":"x"}',
    ].join('\n');
    const { status, text } = await validate(['--jsonl', '-', '--json'], lines);
    expect(status).toBe(1);
    const doc = JSON.parse(text);
    expect(doc.error_code).toBe('invalid_json_input');
    expect(doc.details).toMatchObject({
      documents: 5,
      conformant: 2,
      nonconformant: 2,
      unreadable: 1,
      blank_lines: 1,
      violation_totals: { failure_without_error: 1, success_with_error: 1 },
      read_error_totals: { syntax: 1 },
    });
    expect(doc.details.failures.map((f: { line: number }) => f.line)).toEqual([3, 5, 6]);
    expect(validateResult(doc).valid).toBe(true);
  });

  test('reports a JSON line longer than --max-bytes as too_large and goes on', async () => {
    const long = `{"success":true,"message":"${'x'.repeat(200)}"}`;
    const { text } = await validate(
      ['--jsonl', '--max-bytes', '100', '--json'],
      `${long}\n{"success":true,"message":"ok"}\n`,
    );
    const doc = JSON.parse(text);
    expect(doc.details).toMatchObject({
      documents: 2,
      conformant: 1,
      unreadable: 1,
      read_error_totals: { too_large: 1 },
    });
  });

  test('reads a JSON-lines file many times its read buffer, with lines across every buffer end', async () => {
    // Lines of shifting lengths up to 600 KB, so that some span a whole buffer and some end exactly at one.
    const lines: string[] = [];
    const expected = { conformant: 0, nonconformant: 0, unreadable: 0, failures: [] as number[] };
    for (let k = 0; k < 4_000; k++) {
      const pad = 'é'.repeat(k % 500 === 7 ? 300_000 : (k * 131) % 2_000);
      if (k % 9 === 4) {
        lines.push(`{"success":true,"message":"${pad}","message":"again"}`);
        expected.nonconformant++;
        expected.failures.push(k + 1);
      } else if (k % 13 === 6) {
        lines.push(`{"success":true,"message":"${pad}"`);
        expected.unreadable++;
        expected.failures.push(k + 1);
      } else {
        lines.push(JSON.stringify({ success: true, message: `${pad} ${k}` }));
        expected.conformant++;
      }
    }
    const text = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(8 * 1024 * 1024);
    file('large.jsonl', text);
    const fromFile = JSON.parse((await validate(['--jsonl', 'large.jsonl', '--json'])).text);
    expect(fromFile.details).toMatchObject({
      lines: 4_000,
      documents: 4_000,
      conformant: expected.conformant,
      nonconformant: expected.nonconformant,
      unreadable: expected.unreadable,
      violation_totals: { duplicate_member: expected.nonconformant },
      read_error_totals: { syntax: expected.unreadable },
    });
    expect(fromFile.details.failures.map((f: { line: number }) => f.line)).toEqual(
      expected.failures.slice(0, 100),
    );
    const fromStdin = JSON.parse((await validate(['--jsonl', '-', '--json'], text)).text);
    expect(fromStdin.details).toEqual({ ...fromFile.details, file: '-' });
  });

  test('reports an empty JSON-lines stream as invalid_json_input', async () => {
    const doc = JSON.parse((await validate(['--jsonl', '--json'], '\n\n')).text);
    expect(doc.details.read_error.reason).toBe('empty');
  });

  test('prints a readable report without --json', async () => {
    const { text } = await validate(['bad.json']);
    expect(text).toContain('✖ bad.json does not conform');
    expect(text).toContain('message_invalid');
  });
});

describe('verdict', () => {
  test('prints its version', async () => {
    const io = memoryIo();
    expect(await run(['--version'], io)).toBe(0);
    expect(io.stdout.text()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  test('its help places --json after the command, where it is understood', async () => {
    const help = memoryIo();
    expect(await run(['--help'], help)).toBe(0);
    const line = help.stdout
      .text()
      .split('\n')
      .find((l) => l.trimStart().startsWith('--json'));
    expect(line).toMatch(/after the command/i);
  });

  test('reports an unknown command as a usage error document in --json mode', async () => {
    const io = memoryIo();
    expect(await run(['frobnicate', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout.text())).toMatchObject({ error_code: 'invalid_arguments' });
  });

  test('prints the contract schema', async () => {
    const io = memoryIo();
    expect(await run(['schema', 'contract'], io)).toBe(0);
    expect(JSON.parse(io.stdout.text()).$id).toBe(
      'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
    );
  });

  test('prints one conforming result document carrying the schema with --json', async () => {
    const io = memoryIo();
    expect(await run(['schema', 'contract', '--json'], io)).toBe(0);
    const document = JSON.parse(io.stdout.text());
    expect(validateResult(document).valid).toBe(true);
    expect(document.schema.$id).toBe('https://qzx.yumbale.com/schemas/result-contract-v1.schema.json');
  });

  test('reports an unknown schema name as a usage error', async () => {
    const io = memoryIo();
    expect(await run(['schema', 'nope', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout.text()).error_code).toBe('invalid_arguments');
  });
});
