import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { omitUndefined } from '../contract/findings.js';
import { fail, ok } from '../contract/index.js';
import { type InterruptSignal, interruptSignalOf } from './interrupt.js';
import {
  addRunId,
  endRunProcesses,
  findRunProcesses,
  killRunProcesses,
  RUN_ID_VARIABLE,
  type RunMarks,
} from './process-table.js';

/** How the child's standard input is connected. */
export type ExternalStdin = 'inherit' | 'ignore' | NodeJS.ReadableStream;

/** What to run and within which bounds. */
export interface RunExternalOptions {
  /** Executable name (looked up in `PATH`) or path; never interpreted by a shell. */
  command: string;
  /** Arguments, passed as they are. */
  args: readonly string[];
  /** Working directory of the child. */
  cwd: string;
  /** Environment of the child (undefined values are dropped). */
  env: Record<string, string | undefined>;
  /** Kill the process group after this many milliseconds; no limit when absent. */
  timeoutMs?: number;
  /** Bytes kept of each of stdout and stderr; the rest is counted, not kept. */
  maxOutputBytes: number;
  /** Standard input of the child. */
  stdin: ExternalStdin;
  /** Receives every output chunk as it arrives (the CLI streams it to stderr in human mode). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /**
   * Aborting it interrupts the child's process group with the signal the reason names (an `Interruption`;
   * SIGINT otherwise), then SIGKILL after `killGraceMs`.
   */
  signal?: AbortSignal;
  /**
   * Leave the processes the command started in the background running when it exits by itself; by default
   * they are ended (a timeout or an interruption ends them either way).
   */
  keepBackground?: boolean;
  /** Milliseconds between SIGTERM/SIGINT and SIGKILL when the group must die. */
  killGraceMs?: number;
  /** Milliseconds to wait, after the child exits, for descendants that still hold its output pipes. */
  drainMs?: number;
  /** Clock for durations. */
  now?: () => number;
}

/** One captured output stream: its bytes as UTF-8 text or base64, how many there were, how many were kept. */
export interface CapturedOutput {
  /** `utf8` when the kept bytes are valid UTF-8, else `base64`. */
  encoding: 'utf8' | 'base64';
  /** The kept bytes, in `encoding`. */
  content: string;
  /** Bytes the child wrote to the stream. */
  bytes: number;
  /** Bytes kept in `content`. */
  captured_bytes: number;
  /** True when `bytes > captured_bytes`. */
  truncated: boolean;
}

/** The processes of a run still alive after its command exited, and what verdict did with them. */
export interface BackgroundReport {
  /** `ended`: verdict ended them; `kept`: they were left running (`keepBackground`). */
  action: 'ended' | 'kept';
  /** Their process ids. */
  pids: number[];
  /** Those of `pids` still running after SIGKILL (only for `ended`). */
  survived: number[];
}

/** How an external run ended: the process never started, or it started and ended (by itself or killed). */
export type ExternalOutcome =
  | {
      /** `spawn` failed: `errno` says why (`ENOENT`, `EACCES`, …). */
      started: false;
      /** Node's error code. */
      errno: string;
      /** Node's error message. */
      reason: string;
    }
  | {
      /** The process ran. */
      started: true;
      /** Its process id. */
      pid: number;
      /** Exit status, when it exited by itself. */
      exitCode: number | null;
      /** Name of the signal that ended it, when one did. */
      signal: NodeJS.Signals | null;
      /** True when verdict killed it for exceeding the timeout. */
      timedOut: boolean;
      /** True when verdict killed it because the run was interrupted. */
      interrupted: boolean;
      /** The signal that interrupted the run, when it was interrupted. */
      interruptedBy?: InterruptSignal;
      /**
       * Processes of the run (its process group and session, or carrying its id) still alive after the command
       * exited; absent when there were none, or where Linux `/proc` cannot be read.
       */
      background?: BackgroundReport;
      /** Milliseconds from spawn to exit. */
      elapsedMs: number;
      /** Captured standard output. */
      stdout: CapturedOutput;
      /** Captured standard error. */
      stderr: CapturedOutput;
      /** True when descendants still held the output pipes `drainMs` after the exit. */
      outputLeftOpen: boolean;
    };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Encodes captured bytes: UTF-8 text when valid, otherwise base64. When the capture was cut at the size
 * bound, an incomplete UTF-8 sequence at the cut is dropped rather than turning valid text into base64.
 */
export function encodeCapture(bytes: Buffer, total: number): CapturedOutput {
  const truncated = total > bytes.length;
  const cuts = truncated ? [0, 1, 2, 3] : [0];
  for (const cut of cuts) {
    if (cut > bytes.length) break;
    const kept = bytes.subarray(0, bytes.length - cut);
    try {
      const content = utf8.decode(kept);
      return { encoding: 'utf8', content, bytes: total, captured_bytes: kept.length, truncated };
    } catch {
      // Try the next cut, then fall back to base64.
    }
  }
  return {
    encoding: 'base64',
    content: bytes.toString('base64'),
    bytes: total,
    captured_bytes: bytes.length,
    truncated,
  };
}

function createCapture(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  return {
    add(chunk: Buffer): void {
      total += chunk.length;
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
      }
    },
    finish: (): CapturedOutput => encodeCapture(Buffer.concat(chunks, kept), total),
  };
}

// execvp reports EACCES for a bare name when some PATH folder cannot be searched, even if the name exists
// nowhere (measured as an unprivileged user with /root/.cargo/bin on PATH): look for a real candidate.
function existsOnPath(command: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((folder) => {
    try {
      return statSync(join(folder || '.', command)).isFile();
    } catch {
      return false;
    }
  });
}

// What must die with verdict: one entry per run under way, all served by a single 'exit' listener (one
// listener per run would warn past ten concurrent runs of a library caller).
const atExit = new Set<() => void>();
let exitListening = false;

function killAtExit(kill: () => void): () => void {
  if (!exitListening) {
    process.on('exit', () => {
      for (const each of atExit) each();
    });
    exitListening = true;
  }
  atExit.add(kill);
  return () => {
    atExit.delete(kill);
  };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // A negative pid addresses the whole process group the child leads (it was spawned detached).
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Ends (or, with `keep`, only lists) the processes of a run still alive after its command exited. Where
 * `/proc` cannot be read, the process group is still signalled, but who was in it is not known.
 */
async function settleBackground(
  marks: RunMarks,
  { keep, graceMs }: { keep: boolean; graceMs: number },
): Promise<BackgroundReport | undefined> {
  if (keep) {
    const pids = findRunProcesses(marks);
    return pids === undefined || pids.length === 0 ? undefined : { action: 'kept', pids, survived: [] };
  }
  const outcome = await endRunProcesses(marks, graceMs);
  if (outcome === undefined) {
    killGroup(marks.leader, 'SIGTERM');
    return undefined;
  }
  const pids = [...outcome.ended, ...outcome.survived].sort((a, b) => a - b);
  return pids.length === 0 ? undefined : { action: 'ended', pids, survived: outcome.survived };
}

/**
 * Runs a command without a shell in its own process group, captures its output within a bound, and reports
 * how it ended; a timeout or an abort kills the whole group (the child and everything it started).
 */
export function runExternal(options: RunExternalOptions): Promise<ExternalOutcome> {
  const now = options.now ?? (() => performance.now());
  const grace = options.killGraceMs ?? 1000;
  const env: Record<string, string> = omitUndefined(options.env);
  // Descendants inherit the run's id, which still names them after they leave the process group (docs/run.md).
  const runId = randomUUID();
  env[RUN_ID_VARIABLE] = addRunId(env[RUN_ID_VARIABLE], runId);
  const started = now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env,
    shell: false,
    detached: true,
    stdio: [typeof options.stdin === 'string' ? options.stdin : 'pipe', 'pipe', 'pipe'],
  });
  const stdout = createCapture(options.maxOutputBytes);
  const stderr = createCapture(options.maxOutputBytes);
  const stdin = typeof options.stdin === 'string' ? undefined : options.stdin;

  return new Promise((resolve) => {
    let timeoutTimer: NodeJS.Timeout | undefined;
    let escalateTimer: NodeJS.Timeout | undefined;
    let timedOut = false;
    let interrupted = false;
    let interruptedBy: InterruptSignal | undefined;
    let spawned = false;
    let marks: RunMarks | undefined;
    let forgetAtExit: () => void = () => undefined;

    const stop = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      const pid = child.pid;
      killGroup(pid, signal);
      // Descendants that ignore the first signal (a non-interactive shell starts background jobs with
      // SIGINT ignored) get SIGKILL after the grace period.
      escalateTimer ??= setTimeout(() => killGroup(pid, 'SIGKILL'), grace).unref();
    };
    const onAbort = () => {
      interrupted = true;
      interruptedBy = interruptSignalOf(options.signal?.reason);
      stop(interruptedBy);
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (spawned) return;
      options.signal?.removeEventListener('abort', onAbort);
      const errno = error.code ?? 'UNKNOWN';
      if (errno === 'EACCES' && !options.command.includes('/') && !existsOnPath(options.command, env.PATH)) {
        const reason = `${error.message}: no ${options.command} in any PATH folder that can be searched`;
        resolve({ started: false, errno: 'ENOENT', reason });
        return;
      }
      resolve({ started: false, errno, reason: error.message });
    });
    child.on('spawn', () => {
      spawned = true;
      const spawnedMarks: RunMarks = { leader: child.pid as number, runId };
      marks = spawnedMarks;
      // If verdict itself exits before the run is over (a second Ctrl-C), nothing of the run may outlive it.
      forgetAtExit = killAtExit(() => {
        killGroup(spawnedMarks.leader, 'SIGKILL');
        killRunProcesses(spawnedMarks);
      });
      if (options.timeoutMs !== undefined) {
        timeoutTimer = setTimeout(() => {
          timedOut = true;
          stop('SIGTERM');
        }, options.timeoutMs);
      }
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
      if (stdin && child.stdin) {
        // EPIPE when the child exits without reading everything is expected, not an error of the run.
        child.stdin.on('error', () => {});
        stdin.pipe(child.stdin);
      }
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout.add(chunk);
      options.onOutput?.('stdout', chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.add(chunk);
      options.onOutput?.('stderr', chunk);
    });

    const streamsClosed = Promise.all(
      [child.stdout, child.stderr].map(
        (stream) =>
          new Promise<void>((done) => {
            if (!stream || stream.closed) done();
            else stream.once('close', () => done());
          }),
      ),
    );

    child.on('exit', async (exitCode, signal) => {
      if (!spawned) return;
      const elapsedMs = now() - started;
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stdin && child.stdin) stdin.unpipe(child.stdin);
      const background = await settleBackground(marks as RunMarks, {
        keep: options.keepBackground === true && !timedOut && !interrupted,
        graceMs: grace,
      });
      forgetAtExit();
      // Once the run is settled, its process group id may be reused by an unrelated group: no late signal.
      clearTimeout(escalateTimer);
      // A background descendant may keep the pipes open forever; wait a little, then stop reading.
      let drainTimer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        streamsClosed.then(() => true),
        new Promise<boolean>((done) => {
          drainTimer = setTimeout(() => done(false), options.drainMs ?? 500);
        }),
      ]);
      clearTimeout(drainTimer);
      if (!drained) {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      resolve({
        started: true,
        pid: child.pid as number,
        exitCode,
        signal,
        timedOut,
        interrupted,
        ...(interruptedBy === undefined ? {} : { interruptedBy }),
        ...(background === undefined ? {} : { background }),
        elapsedMs,
        stdout: stdout.finish(),
        stderr: stderr.finish(),
        outputLeftOpen: !drained,
      });
    });
  });
}

function describeCommand(command: string, args: readonly string[]): string {
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}

/** Turns the outcome of {@link runExternal} into a contract result: success only for exit status 0. */
export function toExternalResult(options: RunExternalOptions, outcome: ExternalOutcome) {
  const shown = describeCommand(options.command, options.args);
  const base = { command: options.command, args: [...options.args], cwd: options.cwd };
  if (!outcome.started) {
    const notFound = outcome.errno === 'ENOENT';
    const denied = outcome.errno === 'EACCES' || outcome.errno === 'EPERM';
    if (!notFound && !denied) {
      return fail(`${options.command} could not be started (${outcome.errno}).`, {
        error_code: 'command_not_started',
        error: outcome.reason,
        ...base,
        errno: outcome.errno,
      });
    }
    return fail(
      notFound
        ? `No executable ${options.command} was found${options.command.includes('/') ? '' : ' on PATH'}.`
        : `${options.command} cannot be executed: permission denied.`,
      { error_code: notFound ? 'command_not_found' : 'permission_denied', error: outcome.reason, ...base },
    );
  }
  const warnings: string[] = [];
  for (const name of ['stdout', 'stderr'] as const) {
    const capture = outcome[name];
    if (capture.truncated) {
      warnings.push(
        `${name} was truncated: ${capture.captured_bytes} of ${capture.bytes} bytes kept (--max-output).`,
      );
    }
  }
  const background = outcome.background;
  if (background !== undefined) {
    const list = background.pids.join(', ');
    const count = `${background.pids.length} process${background.pids.length === 1 ? '' : 'es'}`;
    warnings.push(
      background.action === 'kept'
        ? `The command left ${count} running in the background (pids ${list}); --keep-background kept them.`
        : `verdict ended ${count} the command left running (pids ${list}); --keep-background keeps them.`,
    );
    if (background.survived.length > 0) {
      warnings.push(`Still running after SIGKILL: pids ${background.survived.join(', ')}.`);
    }
  }
  if (outcome.outputLeftOpen) {
    warnings.push(
      'A background process still held the output pipes after the command exited; capture stopped.',
    );
  }
  const evidence = {
    ...base,
    pid: outcome.pid,
    exit_code: outcome.exitCode ?? undefined,
    signal: outcome.signal ?? undefined,
    elapsed_ms: Math.round(outcome.elapsedMs * 1000) / 1000,
    timed_out: outcome.timedOut,
    timeout_ms: options.timeoutMs,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    background,
    warnings: warnings.length > 0 ? warnings : undefined,
  };
  if (outcome.timedOut) {
    return fail(
      `${shown} did not finish within ${(options.timeoutMs ?? 0) / 1000} s; its process group was killed.`,
      {
        error_code: 'command_timed_out',
        ...evidence,
      },
    );
  }
  if (outcome.interrupted) {
    const by = outcome.interruptedBy ?? 'SIGINT';
    return fail(`${shown} was interrupted (${by}); its process group was stopped.`, {
      error_code: 'interrupted',
      error: `verdict received ${by}.`,
      interrupted_by: by,
      ...evidence,
    });
  }
  if (outcome.signal !== null) {
    return fail(`${shown} was killed by ${outcome.signal}.`, { error_code: 'command_killed', ...evidence });
  }
  if (outcome.exitCode !== 0) {
    return fail(`${shown} failed with exit status ${outcome.exitCode}.`, {
      error_code: 'command_failed',
      error: `Exit status ${outcome.exitCode}.`,
      ...evidence,
    });
  }
  return ok(`${shown} succeeded (exit status 0) in ${Math.round(outcome.elapsedMs)} ms.`, evidence);
}
