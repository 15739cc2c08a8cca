import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResultText } from '../../src/index.js';
import { BUILT_CLI } from '../support/ensure-build.js';

// These tests run the built CLI (`dist/cli/main.js`, what `bin.verdict` points at) as a child process, so a
// crash, a stack overflow or a stray write to stdout shows up as it would for a user.

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The one document on stdout. */
  doc: Record<string, unknown> & { details: Record<string, unknown> };
}

// A V8 stack frame: "    at readJson (file:///…/read-json.js:12:5)".
const STACK_FRAME = /^\s+at .*(?:\.[cm]?js|<anonymous>|node:[\w/]+):\d+:\d+\)?$/m;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-adversarial-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function spawnCli(args: string[], stdin?: string | Uint8Array): Promise<Omit<CliRun, 'doc'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    // A CLI that stops reading early closes the pipe; its report, not EPIPE, is what is tested.
    child.stdin.on('error', () => undefined);
    child.on('close', (status) => {
      resolve({
        status,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.end(stdin);
  });
}

/** Runs the built CLI and checks the transport profile: one conforming document on stdout, no stack trace. */
async function runCli(args: string[], stdin?: string | Uint8Array): Promise<CliRun> {
  const { status, stdout, stderr } = await spawnCli(args, stdin);
  expect(stdout, 'stdout holds a stack trace').not.toMatch(STACK_FRAME);
  expect(stderr, 'stderr holds a stack trace').not.toMatch(STACK_FRAME);
  expect(stdout.endsWith('}\n'), `stdout is one JSON document and a newline:\n${stdout}${stderr}`).toBe(true);
  // Strictly one document, and itself a conforming result.
  const report = validateResultText(stdout);
  expect(report.readError).toBeUndefined();
  expect(report.violations).toEqual([]);
  return { status, stdout, stderr, doc: JSON.parse(stdout) };
}

/** Runs `verdict validate FILE --json` on a file written with `content`. */
function validateFile(name: string, content: string | Uint8Array, ...options: string[]): Promise<CliRun> {
  return runCli(['validate', file(name, content), '--json', ...options]);
}

/** A result text whose message holds raw bytes. */
function messageWithBytes(bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from('{"success":true,"message":"'), Buffer.from(bytes), Buffer.from('"}')]);
}

/** Asserts an unreadable-input report for one file and returns its read error. */
function expectReadError(run: CliRun, reason: string): Record<string, unknown> {
  expect(run.status).toBe(1);
  expect(run.doc).toMatchObject({ success: false, error_code: 'invalid_json_input' });
  const readError = run.doc.details.read_error as Record<string, unknown>;
  expect(readError.reason).toBe(reason);
  return readError;
}

const VALID = '{"success":true,"message":"Done."}';

describe('verdict validate --json on hostile input', () => {
  test('invalid UTF-8 is not_utf8 at the first bad byte', async () => {
    const bytes = messageWithBytes([0xc3, 0x28]);
    const run = await validateFile('bad-utf8.json', bytes);
    expect(expectReadError(run, 'not_utf8').offset).toBe(27);
  });

  test('UTF-16 with a byte order mark is not_utf8, not repaired', async () => {
    const bytes = Buffer.from(`\ufeff${VALID}`, 'utf16le');
    const run = await validateFile('utf16.json', bytes);
    expect(expectReadError(run, 'not_utf8').message).toMatch(/UTF-16LE/);
  });

  test('a UTF-8 byte order mark is accepted with the utf8_bom warning', async () => {
    const run = await validateFile('bom.json', `\ufeff${VALID}`);
    expect(run.status).toBe(0);
    expect(run.doc.success).toBe(true);
    expect(run.doc.warnings).toEqual([expect.stringContaining('utf8_bom')]);
  });

  test('100,000 levels of array nesting are too_deep, without a crash', async () => {
    const run = await validateFile('deep-array.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(expectReadError(run, 'too_deep').offset).toBe(10_000);
  });

  test('100,000 levels of object nesting inside a result are too_deep', async () => {
    const nested = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const run = await validateFile('deep-object.json', `{"success":true,"message":"ok","details":${nested}}`);
    expectReadError(run, 'too_deep');
  });

  test('a 50 MB conforming document is read and conforms', async () => {
    const item = JSON.stringify({ name: 'x'.repeat(80), value: 12345.678, tags: ['a', 'b'] });
    const count = Math.ceil((50 * 1024 * 1024) / (item.length + 1));
    const big = `{"success":true,"message":"Big.","details":{"items":[${Array(count).fill(item).join(',')}]}}`;
    expect(big.length).toBeGreaterThan(50 * 1024 * 1024);
    const path = file('big.json', big);
    const run = await runCli(['validate', path, '--json']);
    expect(run.status).toBe(0);
    expect(run.doc).toMatchObject({ success: true, details: { inputs: [{ conformant: true }] } });
    const limited = await runCli(['validate', path, '--json', '--max-bytes', '1000000']);
    expectReadError(limited, 'too_large');
  }, 60_000);

  // A device has no size to check before reading: --max-bytes must still stop the read at the limit.
  test.runIf(existsSync('/dev/zero'))(
    '--max-bytes bounds an endless device such as /dev/zero',
    async () => {
      const run = await runCli(['validate', '/dev/zero', '--json', '--max-bytes', '1000']);
      expectReadError(run, 'too_large');
    },
    60_000,
  );

  test('__proto__ and constructor members are plain data and change no verdict', async () => {
    const ordinary = await validateFile(
      'proto-ok.json',
      '{"success":true,"message":"ok","__proto__":{"success":false},"constructor":{"prototype":{"x":1}},"details":{"__proto__":null}}',
    );
    expect(ordinary.status).toBe(0);
    const hidden = await validateFile(
      'proto-only.json',
      '{"__proto__":{"success":true,"message":"inherited?"}}',
    );
    expect(hidden.status).toBe(1);
    expect(hidden.doc.error_code).toBe('contract_violation');
    const [input] = hidden.doc.details.inputs as { violations: { code: string }[] }[];
    expect(input?.violations.map((v) => v.code)).toEqual(['success_not_boolean', 'message_invalid']);
  });

  test('lone surrogate escapes are valid JSON text: the document is judged on its members', async () => {
    const lone = await validateFile('lone.json', '{"success":true,"message":"\\ud800","x":"\\udc00\\ud800"}');
    expect(lone.status).toBe(0);
    const raw = messageWithBytes([0xed, 0xa0, 0x80]);
    const encoded = await validateFile('lone-raw.json', raw);
    expectReadError(encoded, 'not_utf8');
  });

  test('NaN, Infinity and comments are syntax errors with a position', async () => {
    for (const [name, text, column] of [
      ['nan.json', '{"success":true,"message":"ok","meta":{"duration_ms":NaN}}', 54],
      ['inf.json', '{"success":true,"message":"ok","meta":{"duration_ms":-Infinity}}', 55],
      ['comment.json', '{"success":true, // done\n"message":"ok"}', 18],
    ] as const) {
      const run = await validateFile(name, text);
      expect(expectReadError(run, 'syntax')).toMatchObject({ line: 1, column });
    }
  });

  test('a literal that overflows to Infinity is a violation, not a crash', async () => {
    const run = await validateFile(
      'overflow.json',
      '{"success":true,"message":"ok","meta":{"duration_ms":1e400}}',
    );
    expect(run.status).toBe(1);
    expect(run.doc.error_code).toBe('contract_violation');
  });

  test('two documents in one file are trailing_data at the second', async () => {
    const run = await validateFile('two.json', `${VALID}\n${VALID}\n`);
    expect(expectReadError(run, 'trailing_data')).toMatchObject({
      offset: VALID.length + 1,
      line: 2,
      column: 1,
      message: "Unexpected character '{' after the JSON value. One document per line? Use --jsonl.",
    });
    const sameLine = await validateFile('two-on-a-line.json', `${VALID} ${VALID}`);
    expect(expectReadError(sameLine, 'trailing_data').message).toBe(
      "Unexpected character '{' after the JSON value.",
    );
  });

  test('empty input, from a file or standard input, is empty', async () => {
    expectReadError(await validateFile('empty.json', ''), 'empty');
    expectReadError(await validateFile('blank.json', ' \n\t\r\n'), 'empty');
    expectReadError(await runCli(['validate', '-', '--json'], ''), 'empty');
  });

  test('a missing file is not_found and a directory is unreadable', async () => {
    expectReadError(await runCli(['validate', join(dir, 'nope.json'), '--json']), 'not_found');
    expectReadError(await runCli(['validate', dir, '--json']), 'unreadable');
  });

  test('a usage error is still one document, exit 2', async () => {
    const run = await runCli(['validate', '--max-bytes', 'lots', '--json']);
    expect(run.status).toBe(2);
    expect(run.doc.error_code).toBe('invalid_arguments');
  });
});

describe('verdict validate --jsonl --json on hostile streams', () => {
  test('mixed lines are counted by kind and the failures are listed by line', async () => {
    const lines = [
      VALID,
      '',
      '{"success":false,"message":"No."}',
      '{"success":true,"message":"ok","success":true}',
      'NaN',
      `{"success":true,"message":"ok"} {"success":true,"message":"ok"}`,
      '   ',
      `${VALID}\r`,
      '{"success":true,"message":"\\ud800"}',
    ];
    const bytes = Buffer.concat([
      Buffer.from(lines.join('\n')),
      Buffer.from('\n'),
      Buffer.from([0xff, 0x0a]),
    ]);
    const run = await runCli(['validate', '--jsonl', file('mixed.jsonl', bytes), '--json']);
    expect(run.status).toBe(1);
    expect(run.doc.error_code).toBe('invalid_json_input');
    expect(run.doc.details).toMatchObject({
      lines: 10,
      documents: 8,
      conformant: 3,
      nonconformant: 2,
      unreadable: 3,
      blank_lines: 2,
      violation_totals: { failure_without_error: 1, duplicate_member: 1 },
      read_error_totals: { syntax: 1, trailing_data: 1, not_utf8: 1 },
    });
    const failures = run.doc.details.failures as { line: number; codes: string[] }[];
    expect(failures.map((f) => [f.line, f.codes])).toEqual([
      [3, ['failure_without_error']],
      [4, ['duplicate_member']],
      [5, ['syntax']],
      [6, ['trailing_data']],
      [10, ['not_utf8']],
    ]);
  });

  test('a line over --max-bytes is too_large and the stream goes on', async () => {
    const huge = `{"success":true,"message":"${'x'.repeat(5_000_000)}"}`;
    const bytes = `${VALID}\n${huge}\n${VALID}\n${'{"success":true,"message":"'.padEnd(3000, 'y')}`;
    const run = await runCli([
      'validate',
      '--jsonl',
      '--max-bytes',
      '2000',
      file('huge-line.jsonl', bytes),
      '--json',
    ]);
    expect(run.status).toBe(1);
    expect(run.doc.details).toMatchObject({
      lines: 4,
      documents: 4,
      conformant: 2,
      unreadable: 2,
      read_error_totals: { too_large: 2 },
    });
    const failures = run.doc.details.failures as { line: number; read_error: { reason: string } }[];
    expect(failures.map((f) => [f.line, f.read_error.reason])).toEqual([
      [2, 'too_large'],
      [4, 'too_large'],
    ]);
  });

  test('a stream of blank lines holds no document: empty', async () => {
    const run = await runCli(['validate', '--jsonl', '-', '--json'], '\n \n\r\n');
    expectReadError(run, 'empty');
  });

  test('a conforming stream from standard input exits 0', async () => {
    const run = await runCli(['validate', '--jsonl', '-', '--json'], `${VALID}\n`.repeat(1000));
    expect(run.status).toBe(0);
    expect(run.doc.details).toMatchObject({ documents: 1000, conformant: 1000 });
  });
});

describe('a reader that closes the pipe early', () => {
  /** Runs the built CLI with the read end of its stdout closed before it writes, as `… | head -c 0` does. */
  function runWithClosedStdout(args: string[]): Promise<{ status: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BUILT_CLI, ...args], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      const err: Buffer[] = [];
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ status: code, stderr: Buffer.concat(err).toString('utf8') }));
    });
  }

  test.each([
    ['schema contract', ['schema', 'contract', '--json']],
    ['validate --jsonl', ['validate', '--jsonl', '-', '--json']],
  ])(
    '%s: a document that was not delivered exits 1 with one line on stderr, no stack trace',
    async (_label, args) => {
      const { status, stderr } = await runWithClosedStdout(args);
      expect(stderr, 'stderr holds a stack trace').not.toMatch(STACK_FRAME);
      expect(stderr).toBe(
        'verdict: the result was not delivered: standard output was closed before it was read.\n',
      );
      expect(status).toBe(1);
    },
  );
});
