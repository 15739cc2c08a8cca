import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { runsAsRoot } from '../helpers/invoke-command.js';
import { memoryIo } from '../helpers/memory-io.js';
import { waitUntilDead, whenWritten } from '../helpers/process-state.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const node = process.execPath;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-cli-run-'));
  await writeFile(join(dir, 'plain.txt'), 'not a program');
  await chmod(join(dir, 'plain.txt'), 0o644);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

async function verdictRun(argv: string[]) {
  const io = memoryIo({ cwd: dir, env: { ...process.env }, stdinIsTTY: true });
  const status = await run(['run', '--json', ...argv], io);
  const doc = JSON.parse(io.stdout.text());
  expect(validateResult(doc).valid).toBe(true);
  return { status, doc, stderr: io.stderr.text() };
}

describe('verdict run', () => {
  test.each([
    ['success', ['--', node, '-e', 'console.log(1)'], 0, undefined],
    ['non-zero exit', ['--', node, '-e', 'process.exit(7)'], 1, 'command_failed'],
    ['missing executable', ['--', 'verdict-missing-executable'], 1, 'command_not_found'],
    ['file without execute permission', ['--', './plain.txt'], 1, 'permission_denied'],
    ['folder as the command', ['--', tmpdir()], 1, 'permission_denied'],
    ['timeout', ['--timeout', '0.2', '--', '/bin/sh', '-c', 'sleep 30'], 1, 'command_timed_out'],
    ['signal', ['--', '/bin/sh', '-c', 'kill -TERM $$'], 1, 'command_killed'],
    ['missing --cwd', ['--cwd', 'nope', '--', 'true'], 1, 'invalid_cwd'],
    ['no command', [], 2, 'invalid_arguments'],
    ['zero timeout', ['--timeout', '0', '--', 'true'], 2, 'invalid_arguments'],
    ['timeout past the timer range', ['--timeout', '2200000', '--', 'true'], 2, 'invalid_arguments'],
    ['longest timeout', ['--timeout', '2147483', '--', node, '-e', 'console.log(1)'], 0, undefined],
    ['negative --max-output', ['--max-output', '-1', '--', 'true'], 2, 'invalid_arguments'],
  ])('%s', async (_label, argv, status, code) => {
    const result = await verdictRun(argv);
    expect(result.status).toBe(status);
    expect(result.doc.meta).toMatchObject({ command: 'run', schema_version: 1 });
    if (code === undefined) expect(result.doc).toMatchObject({ success: true, exit_code: 0 });
    else expect(result.doc).toMatchObject({ success: false, error_code: code });
  });

  test('treats options after -- as the command’s own', async () => {
    const { doc } = await verdictRun(['--', 'echo', '--json', '--help']);
    expect(doc.stdout.content).toBe('--json --help\n');
  });
});

describe('verdict run (spawned)', () => {
  test('writes exactly one document on stdout even when the child writes to stdout and stderr', async () => {
    const script = "process.stdout.write('{\"success\":true}\\n'); process.stderr.write('noise\\n')";
    const spawned = await spawnCli(['run', '--json', '--', node, '-e', script]);
    expect(spawned.status).toBe(0);
    expect(spawned.stderr).toBe('');
    const doc = JSON.parse(spawned.stdout);
    expect(validateResult(doc).valid).toBe(true);
    expect(doc.stdout.content).toBe('{"success":true}\n');
    expect(doc.stderr.content).toBe('noise\n');
  });

  test('streams the child’s output to stderr for people, keeping stdout for the summary', async () => {
    const spawned = await spawnCli(['run', '--', node, '-e', "console.log('live line')"]);
    expect(spawned.status).toBe(0);
    expect(spawned.stderr).toContain('live line');
    expect(spawned.stdout).toMatch(/^✔ .*succeeded/);
  });

  test('reports command_not_found, not permission_denied, when an unsearchable PATH folder hides nothing', async () => {
    await chmod(dir, 0o755);
    const locked = join(dir, 'locked-bin');
    await mkdir(locked, { mode: 0o000 });
    const spawned = await spawnCli(['run', '--json', '--', 'verdict-missing-executable'], {
      cwd: dir,
      env: { PATH: `${locked}:/usr/bin:/bin` },
      ...(runsAsRoot ? { uid: 65_534 } : {}),
    });
    await chmod(locked, 0o755);
    expect(JSON.parse(spawned.stdout)).toMatchObject({ error_code: 'command_not_found' });
  });

  test('passes piped standard input through to the child', async () => {
    const spawned = await spawnCli(['run', '--json', '--', 'wc', '-c'], { input: 'twelve bytes' });
    expect(JSON.parse(spawned.stdout).stdout.content.trim()).toBe('12');
  });

  test('kills a grandchild when the timeout expires', async () => {
    const spawned = await spawnCli([
      'run',
      '--json',
      '--timeout',
      '0.3',
      '--',
      '/bin/sh',
      '-c',
      'sleep 30 & echo $!; wait',
    ]);
    const doc = JSON.parse(spawned.stdout);
    expect(spawned.status).toBe(1);
    expect(doc).toMatchObject({ error_code: 'command_timed_out', timed_out: true });
    expect(await waitUntilDead(Number(doc.stdout.content.trim()))).toBe(true);
  });

  test('ends with interrupted and exit 130 on SIGINT, stopping the child’s process group', async () => {
    const pids = join(dir, 'pids.txt');
    const spawned = await spawnCli(
      ['run', '--json', '--', '/bin/sh', '-c', `sleep 30 & echo $! > ${pids}; wait`],
      // Interrupt once the grandchild is running (its pid is written), however long the machine took to get there.
      { onSpawn: (pid) => void whenWritten(pids).then(() => process.kill(pid, 'SIGINT')) },
    );
    expect(spawned.status).toBe(130);
    const doc = JSON.parse(spawned.stdout);
    expect(validateResult(doc).valid).toBe(true);
    expect(doc).toMatchObject({ success: false, error_code: 'interrupted' });
    const grandchild = Number((await readFile(pids, 'utf8')).trim());
    expect(await waitUntilDead(grandchild)).toBe(true);
  });
});
