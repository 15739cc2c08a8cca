import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestContext, invokeCommand } from '../../test/helpers/invoke-command.js';
import { waitUntilDead } from '../../test/helpers/process-state.js';
import { externalCommand } from './external-command.js';
import { Interruption } from './interrupt.js';
import { encodeCapture } from './run-external.js';

const node = process.execPath;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-run-'));
  await writeFile(join(dir, 'not-executable.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(dir, 'not-executable.sh'), 0o644);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (argv: string[], options: Record<string, unknown> = {}, context = createTestContext()) =>
  invokeCommand(externalCommand, options, argv, context);

describe('verdict run', () => {
  test('succeeds on exit status 0 and captures both streams with their byte counts', async () => {
    const result = await run([node, '-e', "process.stdout.write('out ✓'); process.stderr.write('err')"]);
    expect(result).toMatchObject({
      success: true,
      command: node,
      exit_code: 0,
      timed_out: false,
      stdout: { encoding: 'utf8', content: 'out ✓', bytes: 7, captured_bytes: 7, truncated: false },
      stderr: { encoding: 'utf8', content: 'err', bytes: 3, captured_bytes: 3, truncated: false },
    });
    expect(result.elapsed_ms).toBeGreaterThan(0);
    expect(result).not.toHaveProperty('signal');
  });

  test('passes arguments without a shell', async () => {
    const result = await run([node, '-e', 'process.stdout.write(process.argv[1])', '$HOME; echo *']);
    expect((result.stdout as { content: string }).content).toBe('$HOME; echo *');
  });

  test('reports command_failed with the exit status', async () => {
    const result = await run([node, '-e', "console.error('boom'); process.exit(3)"]);
    expect(result).toMatchObject({ success: false, error_code: 'command_failed', exit_code: 3 });
    expect((result.stderr as { content: string }).content).toBe('boom\n');
  });

  test('reports command_not_found for an executable that does not exist', async () => {
    const result = await run(['verdict-no-such-command-4b1d']);
    expect(result).toMatchObject({ success: false, error_code: 'command_not_found' });
    expect(result).not.toHaveProperty('exit_code');
  });

  test('reports permission_denied for a file without execute permission', async () => {
    const result = await run([join(dir, 'not-executable.sh')]);
    expect(result).toMatchObject({ success: false, error_code: 'permission_denied' });
  });

  test('reports command_killed with the signal name', async () => {
    const result = await run(['/bin/sh', '-c', 'kill -KILL $$']);
    expect(result).toMatchObject({ success: false, error_code: 'command_killed', signal: 'SIGKILL' });
    expect(result).not.toHaveProperty('exit_code');
  });

  test('reports command_timed_out and kills the whole process group, grandchildren included', async () => {
    const started = performance.now();
    const result = await run(['/bin/sh', '-c', 'sleep 30 & echo $!; wait'], { timeout: 1 });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({
      success: false,
      error_code: 'command_timed_out',
      timed_out: true,
      timeout_ms: 1000,
      signal: 'SIGTERM',
    });
    const grandchild = Number((result.stdout as { content: string }).content.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  test('follows SIGTERM with SIGKILL for a group that ignores it', async () => {
    const result = await run(['/bin/sh', '-c', "trap '' TERM; sleep 30 & echo $!; wait"], { timeout: 1 });
    expect(result).toMatchObject({ error_code: 'command_timed_out', signal: 'SIGKILL' });
    const grandchild = Number((result.stdout as { content: string }).content.trim());
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  test('bounds captured output and states the truncation', async () => {
    const result = await run([node, '-e', "process.stdout.write('x'.repeat(5000))"], { 'max-output': 100 });
    expect(result).toMatchObject({
      success: true,
      stdout: { encoding: 'utf8', bytes: 5000, captured_bytes: 100, truncated: true },
    });
    expect((result.stdout as { content: string }).content).toBe('x'.repeat(100));
    expect(result.warnings).toEqual(['stdout was truncated: 100 of 5000 bytes kept (--max-output).']);
  });

  test('keeps non-UTF-8 output as base64 and says so', async () => {
    const result = await run([node, '-e', 'process.stdout.write(Buffer.from([0xff, 0xfe, 0x00, 0x41]))']);
    expect(result.stdout).toEqual({
      encoding: 'base64',
      content: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'),
      bytes: 4,
      captured_bytes: 4,
      truncated: false,
    });
  });

  test('passes standard input through when it is not a terminal', async () => {
    const stdin = Object.assign(Readable.from([Buffer.from('piped\n')]), { isTTY: false });
    const result = await run(['cat'], {}, createTestContext({ stdin }));
    expect((result.stdout as { content: string }).content).toBe('piped\n');
  });

  test('gives the command an empty input instead of the terminal', async () => {
    const result = await run(['cat']);
    expect(result).toMatchObject({ success: true, stdout: { content: '' } });
  });

  test('writes nothing outside the document in --json mode', async () => {
    const context = createTestContext({ json: true });
    await run([node, '-e', "console.log('to stdout'); console.error('to stderr')"], {}, context);
    expect(context.stderr).toEqual([]);
  });

  test('streams the output live to stderr for people', async () => {
    const context = createTestContext({ json: false });
    await run([node, '-e', "console.log('to stdout')"], {}, context);
    expect(context.stderr.join('')).toBe('to stdout\n');
  });

  test('runs in --cwd and reports invalid_cwd for a missing folder', async () => {
    const inDir = await run(['pwd'], { cwd: dir });
    expect((inDir.stdout as { content: string }).content.trim()).toBe(dir);
    const missing = await run(['pwd'], { cwd: join(dir, 'nope') });
    expect(missing).toMatchObject({ success: false, error_code: 'invalid_cwd' });
  });

  test('stops the process group when the run is interrupted', async () => {
    const context = createTestContext();
    setTimeout(() => context.controller.abort(), 200);
    const result = await run(['/bin/sh', '-c', 'sleep 30'], {}, context);
    expect(result).toMatchObject({ success: false, error_code: 'interrupted', signal: 'SIGINT' });
  });

  test('stops the process group with the signal that interrupted verdict', async () => {
    const context = createTestContext();
    setTimeout(() => context.controller.abort(new Interruption('SIGTERM')), 200);
    const result = await run(['/bin/sh', '-c', 'sleep 30'], {}, context);
    expect(result).toMatchObject({ error_code: 'interrupted', interrupted_by: 'SIGTERM', signal: 'SIGTERM' });
  });

  test('does not wait forever for a background process it keeps that holds the pipes open', async () => {
    // Waiting for the pipes to close would outlast the test's own timeout: the run settles without them.
    const result = await run(['/bin/sh', '-c', 'sleep 300 & echo $!'], { 'keep-background': true });
    expect(result).toMatchObject({ success: true, exit_code: 0 });
    expect(result.warnings).toEqual([
      expect.stringContaining('--keep-background kept them'),
      expect.stringContaining('still held the output pipes'),
    ]);
    process.kill(Number((result.stdout as { content: string }).content.trim()), 'SIGKILL');
  });

  test('reports invalid_arguments without a command', async () => {
    expect(await run([])).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });
});

describe('encodeCapture', () => {
  test('drops a UTF-8 sequence cut by the bound instead of switching to base64', () => {
    const bytes = Buffer.from('éé').subarray(0, 3);
    expect(encodeCapture(bytes, 4)).toEqual({
      encoding: 'utf8',
      content: 'é',
      bytes: 4,
      captured_bytes: 2,
      truncated: true,
    });
  });

  test('keeps an untruncated invalid sequence as base64', () => {
    expect(encodeCapture(Buffer.from([0xc3]), 1)).toMatchObject({ encoding: 'base64', content: 'ww==' });
  });
});
