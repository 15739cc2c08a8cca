import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validateResult } from '../src/contract/validate-result.js';
import { CLI_PATH } from './helpers/spawn-cli.js';

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
