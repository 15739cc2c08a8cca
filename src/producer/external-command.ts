import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fail, type ResultContract } from '../contract/index.js';
import { defineCommand } from './define-command.js';
import { interruptSignalOf } from './interrupt.js';
import { renderErrorLine, renderHeadline, renderWarnings } from './render.js';
import { type ExternalStdin, runExternal, toExternalResult } from './run-external.js';
import type { CommandIo, OptionSpecs, RenderContext } from './types.js';

const options = {
  timeout: {
    type: 'number',
    description: 'Kill the command and its process group after this many seconds; no limit when omitted.',
    min: 0.001,
    // Node timers hold at most 2^31 - 1 ms; a longer delay fires after 1 ms (TimeoutOverflowWarning).
    max: 2_147_483,
    valueName: 'SECONDS',
  },
  'max-output': {
    type: 'integer',
    description: 'Bytes kept of each of stdout and stderr; the rest is counted and reported as truncated.',
    default: 1_048_576,
    min: 0,
    // Both captures go into one JSON document, as base64 at worst (4 characters for 3 bytes): 128 MiB each
    // stays within the longest string V8 holds (2^29 - 24 characters).
    max: 134_217_728,
    valueName: 'BYTES',
  },
  cwd: { type: 'string', description: 'Working directory of the command.', valueName: 'DIR' },
  'keep-background': {
    type: 'boolean',
    description:
      'Leave running what the command started in the background when it exits by itself; by default verdict ' +
      'ends it (its process group and session, and processes carrying the run id in VERDICT_RUN_ID).',
  },
} as const satisfies OptionSpecs;

const captureSchema = {
  type: 'object',
  required: ['encoding', 'content', 'bytes', 'captured_bytes', 'truncated'],
  properties: {
    encoding: {
      type: 'string',
      enum: ['utf8', 'base64'],
      description: 'base64 when the bytes are not UTF-8.',
    },
    content: { type: 'string' },
    bytes: { type: 'integer', minimum: 0, description: 'Bytes the command wrote.' },
    captured_bytes: { type: 'integer', minimum: 0, description: 'Bytes kept in content.' },
    truncated: { type: 'boolean' },
  },
} as const;

/** The facts of one run for people, on one line: how it ended, how long it took, its pid and folder. */
function renderRun(result: ResultContract, context: RenderContext): string {
  const { style } = context;
  const run = result as ResultContract & Partial<Record<string, unknown>>;
  const facts: string[] = [];
  if (typeof run.exit_code === 'number') facts.push(`exit status ${run.exit_code}`);
  if (typeof run.signal === 'string') facts.push(`signal ${run.signal}`);
  if (typeof run.errno === 'string') facts.push(`errno ${run.errno}`);
  if (typeof run.elapsed_ms === 'number') facts.push(`${Math.round(run.elapsed_ms)} ms`);
  if (typeof run.pid === 'number') facts.push(`pid ${run.pid}`);
  if (typeof run.cwd === 'string') facts.push(`in ${run.cwd}`);
  const lines = [renderHeadline(result, style), ...renderErrorLine(result, style)];
  if (facts.length > 0) lines.push(`  ${style.dim(facts.join(' · '))}`);
  // Without --json the output was streamed to stderr as it came: here only its size is said.
  const sizes = (['stdout', 'stderr'] as const).flatMap((name) => {
    const capture = run[name] as { bytes?: number; truncated?: boolean } | undefined;
    if (capture?.bytes === undefined) return [];
    return [`${name} ${capture.bytes} bytes${capture.truncated ? ' (truncated in the document)' : ''}`];
  });
  if (sizes.length > 0) lines.push(`  ${style.dim(`${sizes.join(', ')}, shown on stderr as it came`)}`);
  lines.push(...renderWarnings(result.warnings, style));
  return `${lines.join('\n')}\n`;
}

// A terminal cannot be handed over: the child runs in its own session, where reading it would stop the child.
function chooseStdin(io: CommandIo): ExternalStdin {
  if (io.stdin.isTTY) return 'ignore';
  return io.stdin === process.stdin ? 'inherit' : io.stdin;
}

/** `verdict run`: runs an external command without a shell and turns how it ended into a contract result. */
export const externalCommand = defineCommand({
  name: 'run',
  description:
    'Runs COMMAND with ARGS (no shell) in its own process group and reports exit status, signal, duration and ' +
    'its captured output. Success only for exit status 0. With --json the output is only inside the document; ' +
    'without it, the output is also streamed live to stderr. What the command leaves running in the ' +
    'background is ended when it exits (see --keep-background). On SIGINT, SIGTERM or SIGHUP verdict stops ' +
    'the process group, prints the result and exits 128 + the signal (130, 143, 129).',
  options,
  positionals: [
    { name: 'COMMAND', description: 'Executable name or path.', required: true },
    { name: 'ARGS', description: 'Arguments, passed as they are (put them after --).', variadic: true },
  ],
  errorCodes: {
    command_not_found: 'No such executable (ENOENT).',
    permission_denied: 'The file is not executable (EACCES).',
    command_failed: 'The command exited with a non-zero status.',
    command_timed_out: 'The command outlived --timeout; its process group was killed.',
    command_killed: 'A signal ended the command.',
    command_not_started: 'spawn failed for another reason; errno says which.',
    invalid_cwd: '--cwd does not exist or is not a folder.',
    interrupted: 'verdict received SIGINT, SIGTERM or SIGHUP; the process group was stopped.',
  },
  // It stops its process group and reports what the command wrote before the signal (docs/run.md).
  answersInterrupt: true,
  outputSchema: {
    type: 'object',
    required: ['command', 'args', 'cwd'],
    properties: {
      command: { type: 'string' },
      args: { type: 'array', items: { type: 'string' } },
      cwd: { type: 'string' },
      pid: { type: 'integer' },
      exit_code: { type: 'integer', description: 'Absent when a signal ended the command.' },
      signal: { type: 'string', description: 'Signal name, when a signal ended the command.' },
      elapsed_ms: { type: 'number', minimum: 0 },
      timed_out: { type: 'boolean' },
      timeout_ms: { type: 'number' },
      stdout: captureSchema,
      stderr: captureSchema,
      errno: { type: 'string' },
      interrupted_by: {
        type: 'string',
        enum: ['SIGINT', 'SIGTERM', 'SIGHUP'],
        description: 'The signal that interrupted verdict.',
      },
      background: {
        type: 'object',
        description: 'Processes of the run still alive after the command exited (Linux).',
        required: ['action', 'pids', 'survived'],
        properties: {
          action: { type: 'string', enum: ['ended', 'kept'], description: 'kept with --keep-background.' },
          pids: { type: 'array', items: { type: 'integer' } },
          survived: {
            type: 'array',
            items: { type: 'integer' },
            description: 'Still running after SIGKILL (another user’s, or in uninterruptible sleep).',
          },
        },
      },
    },
  },
  render: renderRun,
  async run({ options: opts, positionals }, ctx) {
    const [command, ...args] = positionals;
    if (command === undefined || command === '') {
      return fail('verdict run needs a command: verdict run [options] -- COMMAND [ARGS…].', {
        error_code: 'invalid_arguments',
      });
    }
    const cwd = resolve(ctx.io.cwd, opts.cwd ?? '.');
    const cwdInfo = await stat(cwd).catch(() => undefined);
    if (!cwdInfo?.isDirectory()) {
      return fail(`--cwd ${cwd} ${cwdInfo ? 'is not a folder' : 'does not exist'}.`, {
        error_code: 'invalid_cwd',
        cwd,
      });
    }
    if (ctx.signal.aborted) {
      const by = interruptSignalOf(ctx.signal.reason);
      return fail(`verdict was interrupted (${by}) before ${command} started.`, {
        error_code: 'interrupted',
        interrupted_by: by,
        command,
        args,
        cwd,
      });
    }
    const runOptions = {
      command,
      args,
      cwd,
      env: ctx.io.env,
      maxOutputBytes: opts['max-output'],
      stdin: chooseStdin(ctx.io),
      keepBackground: opts['keep-background'] === true,
      signal: ctx.signal,
      now: () => ctx.io.now(),
      ...(opts.timeout === undefined ? {} : { timeoutMs: Math.round(opts.timeout * 1000) }),
      // In --json mode stdout belongs to the document; for people the output is streamed live to stderr.
      ...(ctx.json ? {} : { onOutput: (_stream: string, chunk: Buffer) => ctx.io.stderr.write(chunk) }),
    };
    return toExternalResult(runOptions, await runExternal(runOptions));
  },
});
