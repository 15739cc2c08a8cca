import { performance } from 'node:perf_hooks';
import type { CommandIo } from './types.js';

/** The {@link CommandIo} of the current Node.js process. */
export function nodeIo(signal?: AbortSignal): CommandIo {
  const io: CommandIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    now: () => performance.now(),
  };
  if (signal) io.signal = signal;
  return io;
}
