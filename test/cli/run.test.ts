import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { validateResult } from '../../src/contract/validate-result.js';
import { runsAsRoot } from '../helpers/invoke-command.js';
import { memoryIo } from '../helpers/memory-io.js';
import { isAlive, waitForText, waitUntilDead, waitUntilGroupGone } from '../helpers/process-state.js';
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
    [
      '--max-output past one JSON string',
      ['--max-output', '134217729', '--', 'true'],
      2,
      'invalid_arguments',
    ],
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

/**
 * `verdict run --json --timeout T -- COMMAND` for a command that prints a pid and then runs past any timeout.
 * The timeout must expire after the pid was printed, or there is nothing to check; on a busy machine a short
 * one can expire before the command even started, so it grows (0.3 s, 1 s, 3 s, 10 s) until the pid came first.
 * Each run ends with the timeout, so the loop is bounded by the sum of the four.
 */
async function runUntilStarted(
  command: string[],
): Promise<{ doc: { stdout: { content: string }; background: { pids: number[] } }; pid: number }> {
  for (const seconds of ['0.3', '1', '3', '10']) {
    const spawned = await spawnCli(['run', '--json', '--timeout', seconds, '--', ...command]);
    expect(spawned.status).toBe(1);
    const doc = JSON.parse(spawned.stdout);
    expect(doc).toMatchObject({ error_code: 'command_timed_out' });
    const pid = Number(doc.stdout.content.trim().split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0) return { doc, pid };
  }
  throw new Error('The command never printed its pid before the timeout, even with 10 s.');
}

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
    const { doc, pid } = await runUntilStarted(['/bin/sh', '-c', 'sleep 30 & echo $!; wait']);
    expect(doc).toMatchObject({ error_code: 'command_timed_out', timed_out: true });
    expect(await waitUntilDead(pid)).toBe(true);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'ends with interrupted on %s, exits %i, prints the document and leaves no process of the group',
    async (signal, status) => {
      const pidFile = join(dir, `leader-${signal}.txt`);
      const spawned = await spawnCli(
        ['run', '--json', '--', '/bin/sh', '-c', `sleep 300 & echo $$ > ${pidFile}; wait`],
        {
          // Signalled once the command has really started (it wrote its pid), never after a fixed delay.
          onSpawn: (pid) => void waitForText(pidFile).then(() => process.kill(pid, signal)),
        },
      );
      expect(spawned.status).toBe(status);
      const doc = JSON.parse(spawned.stdout);
      expect(validateResult(doc).valid).toBe(true);
      expect(doc).toMatchObject({ success: false, error_code: 'interrupted', interrupted_by: signal });
      const leader = Number(await waitForText(pidFile));
      expect(doc.pid).toBe(leader);
      expect(await waitUntilGroupGone(leader)).toEqual([]);
    },
  );
});

describe('verdict run interrupted twice', () => {
  test('exits at once on a second signal, leaving nothing of the run behind', async () => {
    const pidFile = join(dir, 'leader-twice.txt');
    // Everything ignores SIGINT and SIGTERM, so the first signal alone would take the 1 s grace to end it.
    const script = `trap '' INT TERM; setsid sleep 300 & sleep 300 & echo $$ > ${pidFile}; wait`;
    const spawned = await spawnCli(['run', '--json', '--', '/bin/sh', '-c', script], {
      onSpawn: (pid) =>
        void waitForText(pidFile).then(() => {
          process.kill(pid, 'SIGTERM');
          process.kill(pid, 'SIGINT');
        }),
    });
    // Two different signals, so neither is merged into the other; the kernel may hand them over in either order.
    expect([130, 143]).toContain(spawned.status);
    expect(spawned.stdout).toBe('');
    const leader = Number(await waitForText(pidFile));
    expect(await waitUntilGroupGone(leader)).toEqual([]);
  });
});

describe('verdict run and background processes', () => {
  test('ends what the command left running in the background and says so', async () => {
    const spawned = await spawnCli(['run', '--json', '--', '/bin/sh', '-c', 'sleep 300 & echo $!']);
    expect(spawned.status).toBe(0);
    const doc = JSON.parse(spawned.stdout);
    const background = Number(doc.stdout.content.trim());
    expect(doc).toMatchObject({
      success: true,
      background: { action: 'ended', pids: [background], survived: [] },
    });
    expect(doc.warnings).toEqual([expect.stringContaining(`verdict ended 1 process`)]);
    expect(await waitUntilDead(background)).toBe(true);
    expect(await waitUntilGroupGone(doc.pid)).toEqual([]);
  });

  test('ends a process that left the session with setsid, found by the run id it inherited', async () => {
    // spawn with detached: true returns after the grandchild called setsid(): it is in no group of the run.
    const script =
      "const c = require('node:child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });" +
      'console.log(c.pid); c.unref();';
    const spawned = await spawnCli(['run', '--json', '--', node, '-e', script]);
    const doc = JSON.parse(spawned.stdout);
    const escaped = Number(doc.stdout.content.trim());
    expect(doc.background).toEqual({ action: 'ended', pids: [escaped], survived: [] });
    expect(await waitUntilDead(escaped)).toBe(true);
  });

  test('ends a setsid escape when the timeout expires', async () => {
    const script =
      "const c = require('node:child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });" +
      'console.log(c.pid); setInterval(() => {}, 1000);';
    const { doc, pid: escaped } = await runUntilStarted([node, '-e', script]);
    expect(doc).toMatchObject({ error_code: 'command_timed_out' });
    expect(doc.background.pids).toContain(escaped);
    expect(await waitUntilDead(escaped)).toBe(true);
  });

  test('leaves background processes running with --keep-background, and lists them', async () => {
    const spawned = await spawnCli([
      'run',
      '--json',
      '--keep-background',
      '--',
      '/bin/sh',
      '-c',
      'sleep 300 >/dev/null 2>&1 & echo $!',
    ]);
    const doc = JSON.parse(spawned.stdout);
    const background = Number(doc.stdout.content.trim());
    try {
      expect(doc).toMatchObject({ success: true, background: { action: 'kept', pids: [background] } });
      expect(isAlive(background)).toBe(true);
    } finally {
      process.kill(background, 'SIGKILL');
    }
  });

  test('reports no background member when the command leaves none', async () => {
    const spawned = await spawnCli(['run', '--json', '--', '/bin/sh', '-c', 'echo done']);
    const doc = JSON.parse(spawned.stdout);
    expect(doc.success).toBe(true);
    expect(doc.background).toBeUndefined();
    expect(doc.warnings).toBeUndefined();
  });
});
