import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI_PATH, spawnCli } from '../helpers/spawn-cli.js';

let dir: string;

/**
 * A JSON-lines file with every kind of line at shifting places: conforming, not conforming, unreadable, blank,
 * CRLF ends, a line over the limit, more than 100 failures, and a last line without its end.
 */
function mixedLines(count: number): string {
  const lines: string[] = [];
  for (let k = 0; k < count; k++) {
    const kind = (k * 7) % 41;
    if (kind === 0) lines.push('{"success":tru');
    else if (kind === 3) lines.push('');
    else if (kind === 5) lines.push(JSON.stringify({ success: false, message: `m ${k}` }));
    else if (kind === 9) lines.push('{"success":true,"message":"x","message":"y"}\r');
    else if (kind === 13) lines.push(`{"success":true,"message":"${'x'.repeat(3000)}"}`);
    else if (kind === 17) lines.push('  \t');
    else lines.push(JSON.stringify({ success: true, message: `ok ${k}`, details: { n: k } }));
  }
  return `${lines.join('\n')}\n{"success":true,"message":"last"}`;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-jsonl-parallel-'));
  writeFileSync(join(dir, 'mixed.jsonl'), mixedLines(10_000));
  writeFileSync(join(dir, 'one-line.jsonl'), '{"success":true,"message":"only"}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `verdict validate --jsonl` with the workers forced on (any size, `workers` of them) or off. */
async function validateLines(file: string, workers: number, extra: string[] = []) {
  const env = { VERDICT_JSONL_PARALLEL_BYTES: '1', VERDICT_JSONL_WORKERS: String(workers) };
  return spawnCli(['validate', '--jsonl', file, ...extra], { cwd: dir, env });
}

/** The JSON report without its run time, the one member two runs cannot share. */
function withoutDuration(stdout: string): unknown {
  const doc = JSON.parse(stdout);
  expect(doc.meta.duration_ms).toBeTypeOf('number');
  delete doc.meta.duration_ms;
  return doc;
}

describe('verdict validate --jsonl on several cores', { timeout: 90_000 }, () => {
  test('prints, byte for byte, the report of one core, for people and for machines', async () => {
    const single = await validateLines('mixed.jsonl', 1, ['--max-bytes', '2000']);
    expect(single.status).toBe(1);
    expect(single.stdout).toContain('too_large');
    for (const workers of [2, 7]) {
      const parallel = await validateLines('mixed.jsonl', workers, ['--max-bytes', '2000']);
      expect(parallel.stdout).toBe(single.stdout);
      expect(parallel.status).toBe(single.status);
    }
    const singleJson = await validateLines('mixed.jsonl', 1, ['--max-bytes', '2000', '--json']);
    const parallelJson = await validateLines('mixed.jsonl', 3, ['--max-bytes', '2000', '--json']);
    expect(withoutDuration(parallelJson.stdout)).toEqual(withoutDuration(singleJson.stdout));
    const doc = JSON.parse(parallelJson.stdout);
    expect(doc.details.failures_listed).toBe(100);
    expect(doc.details.lines).toBe(10_001);
  });

  test('checks the file in worker threads over ranges cut at line ends (the built module)', async () => {
    const modulePath = join(CLI_PATH, '..', 'validate-lines-parallel.js');
    const { checkLinesInParallel } = (await import(
      modulePath
    )) as typeof import('../../src/cli/validate-lines-parallel.js');
    const env = { VERDICT_JSONL_PARALLEL_BYTES: '1', VERDICT_JSONL_WORKERS: '3' };
    const report = await checkLinesInParallel(join(dir, 'mixed.jsonl'), 2000, env);
    expect(report).toMatchObject({ lines: 10_001, failures: expect.any(Array) });
    // One core, or a file under the threshold: the caller checks the lines itself.
    expect(
      await checkLinesInParallel(join(dir, 'mixed.jsonl'), 2000, { VERDICT_JSONL_WORKERS: '1' }),
    ).toBeUndefined();
    expect(await checkLinesInParallel(join(dir, 'mixed.jsonl'), 2000, {})).toBeUndefined();
  });

  test('gives a file with fewer lines than workers the same report', async () => {
    const single = await validateLines('one-line.jsonl', 1);
    const parallel = await validateLines('one-line.jsonl', 4);
    expect(parallel.stdout).toBe(single.stdout);
    expect(parallel.status).toBe(0);
  });
});
