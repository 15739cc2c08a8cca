import { describe, expect, test } from 'vitest';
import { memoryIo } from '../../test/helpers/memory-io.js';
import { fail, ok } from '../contract/builders.js';
import type { ResultContract } from '../contract/types.js';
import { validateResult } from '../contract/validate-result.js';
import { defineCommand } from './define-command.js';
import { Interruption } from './interrupt.js';
import { runCommand } from './run-command.js';

const greet = defineCommand({
  name: 'greet',
  description: 'Greets someone.',
  errorCodes: { no_one: 'There was nobody to greet.' },
  options: {
    name: { type: 'string', description: 'Who to greet.', required: true },
    times: { type: 'integer', description: 'How often.', default: 1, min: 1, max: 3 },
    loud: { type: 'boolean', description: 'Shout.' },
    tag: { type: 'string', description: 'A tag.', multiple: true },
    mode: { type: 'string', description: 'Mode.', choices: ['a', 'b'] },
  },
  run({ options }, ctx) {
    ctx.progress('greeting…');
    if (options.name === 'nobody') return fail('Nobody to greet.', { error_code: 'no_one' });
    if (options.name === 'throw') throw new TypeError('kaboom');
    if (options.name === 'invalid') return { success: true, message: 'x', error: 'contradiction' } as never;
    if (options.name === 'bigint') return ok('Counted.', { count: 10n });
    return ok(`Hello, ${options.name}.`, {
      greeting: `Hello, ${options.name}`,
      times: options.times,
      tags: options.tag,
    });
  },
});

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('runCommand', () => {
  test('prints exactly one conforming document with a trailing newline in --json mode and exits 0', async () => {
    const io = memoryIo();
    const status = await runCommand(greet, ['--name', 'Ada', '--tag', 'x', '--tag=y', '--json'], io);
    expect(status).toBe(0);
    const text = io.stdout.text();
    expect(text.endsWith('}\n')).toBe(true);
    const doc = parse(text);
    expect(doc).toMatchObject({ success: true, greeting: 'Hello, Ada', times: 1, tags: ['x', 'y'] });
    expect(doc.meta).toEqual({ command: 'greet', duration_ms: 1.5, schema_version: 1 });
    expect(validateResult(doc).valid).toBe(true);
    expect(io.stderr.text()).toBe('greeting…\n');
  });

  test.each([[['--json']], [[]]])(
    'turns a result that JSON cannot hold into one unexpected_error document (%j), never a rejection',
    async (extra) => {
      const io = memoryIo();
      const status = await runCommand(greet, ['--name', 'bigint', ...extra], io);
      expect(status).toBe(1);
      const text = io.stdout.text();
      if (extra.length > 0) {
        const doc = parse(text);
        expect(doc).toMatchObject({ success: false, error_code: 'unexpected_error' });
        expect(validateResult(doc).valid).toBe(true);
      } else {
        expect(text).toContain('unexpected_error');
      }
    },
  );

  test('exits 1 for a failure result', async () => {
    const io = memoryIo();
    expect(await runCommand(greet, ['--name', 'nobody', '--json'], io)).toBe(1);
    expect(parse(io.stdout.text())).toMatchObject({ success: false, error_code: 'no_one' });
  });

  test.each([
    [['--json'], '--name is required.'],
    [['--name', 'a', '--times', '7', '--json'], '--times must be at most 3; got 7.'],
    [['--name', 'a', '--times', '1.5', '--json'], '--times must be an integer; got "1.5".'],
    [['--name', 'a', '--mode', 'c', '--json'], '--mode must be one of a, b; got "c".'],
    [['--name', 'a', '--nope', '--json'], 'Unknown option --nope.'],
    [['--name', 'a', '--name', 'b', '--json'], '--name was given more than once.'],
    [
      ['--name', 'a', 'extra', '--json'],
      'Unexpected argument "extra": this command takes no positional arguments.',
    ],
    [['--json', '--name'], '--name needs a value.'],
  ])('reports a usage error for %j as invalid_arguments, exit 2', async (argv, error) => {
    const io = memoryIo();
    expect(await runCommand(greet, argv, io)).toBe(2);
    const doc = parse(io.stdout.text());
    expect(doc).toMatchObject({ success: false, error_code: 'invalid_arguments', error });
    expect(validateResult(doc).valid).toBe(true);
  });

  test('turns a thrown exception into unexpected_error without a stack trace', async () => {
    const io = memoryIo();
    expect(await runCommand(greet, ['--name', 'throw', '--json'], io)).toBe(1);
    const doc = parse(io.stdout.text());
    expect(doc).toMatchObject({ success: false, error_code: 'unexpected_error', error: 'TypeError: kaboom' });
    expect(io.stdout.text()).not.toMatch(/\n\s+at /);
  });

  test('replaces a non-conforming result with invalid_result_contract', async () => {
    const io = memoryIo();
    expect(await runCommand(greet, ['--name', 'invalid', '--json'], io)).toBe(1);
    expect(parse(io.stdout.text())).toMatchObject({
      error_code: 'invalid_result_contract',
      meta: { command: 'greet' },
    });
  });

  test('ends an interrupted run with an interrupted failure and exit 130', async () => {
    const controller = new AbortController();
    const slow = defineCommand({
      name: 'slow',
      description: 'Never finishes by itself.',
      options: {},
      run: () => new Promise<never>(() => controller.abort()),
    });
    const io = memoryIo({ signal: controller.signal });
    expect(await runCommand(slow, ['--json'], io)).toBe(130);
    expect(parse(io.stdout.text())).toMatchObject({ success: false, error_code: 'interrupted' });
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('exits 128 + the signal when the run is interrupted by %s', async (signal, status) => {
    const controller = new AbortController();
    const slow = defineCommand({
      name: 'slow',
      description: 'Never finishes by itself.',
      options: {},
      run: () => new Promise<never>(() => controller.abort(new Interruption(signal))),
    });
    const io = memoryIo({ signal: controller.signal });
    expect(await runCommand(slow, ['--json'], io)).toBe(status);
    expect(parse(io.stdout.text())).toMatchObject({
      error_code: 'interrupted',
      error: expect.stringContaining(signal),
    });
  });

  test('waits for a command that answers an interruption itself and prints its own result', async () => {
    const controller = new AbortController();
    const careful = defineCommand({
      name: 'careful',
      description: 'Stops its work when interrupted and says what it had done.',
      options: {},
      answersInterrupt: true,
      run: (_input, ctx) =>
        new Promise<ResultContract>((resolve) => {
          ctx.signal.addEventListener('abort', () =>
            setTimeout(
              () => resolve(fail('Stopped after 3 items.', { error_code: 'interrupted', done: 3 })),
              10,
            ),
          );
          controller.abort(new Interruption('SIGTERM'));
        }),
    });
    const io = memoryIo({ signal: controller.signal });
    expect(await runCommand(careful, ['--json'], io)).toBe(143);
    expect(parse(io.stdout.text())).toMatchObject({ error_code: 'interrupted', done: 3 });
  });

  test('renders for a person without --json, in plain text when not a TTY', async () => {
    const io = memoryIo();
    await runCommand(greet, ['--name', 'Ada'], io);
    expect(io.stdout.text()).toContain('✔ Hello, Ada.');
    expect(io.stdout.text()).not.toContain('\u001b[');
  });

  test('colours only on a TTY and never when NO_COLOR is set', async () => {
    const tty = memoryIo({ stdoutIsTTY: true });
    await runCommand(greet, ['--name', 'Ada'], tty);
    expect(tty.stdout.text()).toContain('\u001b[32m');
    const noColor = memoryIo({ stdoutIsTTY: true, env: { NO_COLOR: '1' } });
    await runCommand(greet, ['--name', 'Ada'], noColor);
    expect(noColor.stdout.text()).not.toContain('\u001b[');
  });

  test('prints help generated from the definition and exits 0', async () => {
    const io = memoryIo();
    expect(await runCommand(greet, ['--help'], io, { usage: 'demo greet' })).toBe(0);
    const help = io.stdout.text();
    expect(help).toContain('Usage: demo greet [options]');
    expect(help).toContain('--times <INTEGER>');
    expect(help).toContain('--mode <a|b>');
  });

  test('passes everything after -- as positionals, including --json', async () => {
    let seen: string[] = [];
    const echo = defineCommand({
      name: 'echo',
      description: 'Echoes.',
      options: {},
      positionals: [{ name: 'ARGS', description: 'Anything.', variadic: true }],
      run: ({ positionals }) => {
        seen = positionals;
        return ok('Echoed.');
      },
    });
    await runCommand(echo, ['--json', '--', 'ls', '-la', '--json'], memoryIo());
    expect(seen).toEqual(['ls', '-la', '--json']);
  });
});
