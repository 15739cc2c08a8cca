import type { CommandIo } from './types.js';

/** The {@link CommandIo} of the current Node.js process. */
export function nodeIo(signal?: AbortSignal): CommandIo {
  const io: CommandIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    // Read on first use: creating process.stdin opens a stream on fd 0, which most commands never read.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    // process.hrtime, not performance.now: node:perf_hooks loads a dozen internal modules and slows start-up.
    now: () => Number(process.hrtime.bigint()) / 1e6,
  };
  if (signal) io.signal = signal;
  return io;
}
