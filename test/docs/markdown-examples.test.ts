import { describe, expect, test } from 'vitest';
import { findExamples, maskVarying, matchesOutput, parseTranscript } from './markdown-examples.js';

describe('parseTranscript', () => {
  test('splits commands, continuation lines and their output', () => {
    expect(parseTranscript(['$ a \\', '  --b', 'out 1', 'out 2', '$ echo $?', '1'])).toEqual([
      { command: 'a \\\n  --b', expected: ['out 1', 'out 2'] },
      { command: 'echo $?', expected: ['1'] },
    ]);
  });

  test('refuses a transcript that does not start with a command', () => {
    expect(() => parseTranscript(['output first'])).toThrow(/must start/);
  });
});

describe('findExamples', () => {
  const page = [
    '```console',
    '$ npx verdict --version',
    '0.1.0',
    '```',
    '',
    '```ts',
    "console.log('hi');",
    '```',
    '',
    '```text',
    'hi',
    '```',
    '<!-- docs-test: skip — needs the npm registry -->',
    '```sh',
    'npm install verdict',
    '```',
    '```js',
    '// examples/greet-cli.mjs',
    '```',
    '```json',
    '{}',
    '```',
  ].join('\n');

  test('finds transcripts, programs with their output, skips with reasons and shown files', () => {
    const found = findExamples('page.md', page);
    expect(found.map((example) => example.kind)).toEqual(['transcript', 'program', 'skipped', 'program']);
    expect(found[1]).toMatchObject({ language: 'ts', expected: ['hi'] });
    expect(found[2]).toMatchObject({ reason: 'needs the npm registry' });
    expect(found[3]).toMatchObject({ shows: 'examples/greet-cli.mjs' });
  });

  test('a skip without a reason is refused', () => {
    expect(() => findExamples('page.md', '<!-- docs-test: skip -->\n```sh\nx\n```')).toThrow(/say why/);
  });
});

describe('matchesOutput', () => {
  test('compares line by line after masking durations, times and ids', () => {
    expect(matchesOutput(['took 12 ms'], ['took 3 ms'])).toBe(true);
    expect(matchesOutput(['"duration_ms": 1.5,'], ['"duration_ms": 0.25,'])).toBe(true);
    expect(matchesOutput(['a'], ['b'])).toBe(false);
    expect(matchesOutput(['a'], ['a', 'b'])).toBe(false);
  });

  test('… stands for text within a line, and alone for any lines', () => {
    expect(matchesOutput(['{ "success": true, … }'], ['{ "success": true, "x": 1 }'])).toBe(true);
    expect(matchesOutput(['first', '  …', 'last'], ['first', 'x', 'y', 'last'])).toBe(true);
    expect(matchesOutput(['first', '…', 'last'], ['first', 'last'])).toBe(true);
    expect(matchesOutput(['first', '…', 'last'], ['first', 'x'])).toBe(false);
  });

  test('maskVarying leaves ordinary text alone', () => {
    expect(maskVarying('3 violations in examples/x.json')).toBe('3 violations in examples/x.json');
    expect(maskVarying('at 2026-12-01T10:00:00.000Z')).toBe('at <time>');
  });
});
