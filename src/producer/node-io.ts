import type { CommandIo } from './types.js';

/** The {@link CommandIo} of the current Node.js process. */
export function nodeIo(signal?: AbortSignal): CommandIo {
  const io: CommandIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    // process.hrtime, not performance.now: node:perf_hooks loads a dozen internal modules and slows start-up.
    now: () => Number(process.hrtime.bigint()) / 1e6,
  };
  if (signal) io.signal = signal;
  return io;
}
