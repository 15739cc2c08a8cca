import { Readable } from 'node:stream';
import type { CommandIo, OutputStream } from '../../src/producer/types.js';

/** A stream that keeps what is written, for assertions. */
export interface MemoryStream extends OutputStream {
  /** Everything written so far, as text. */
  text(): string;
}

/** An in-memory output stream. */
export function memoryStream(isTTY = false): MemoryStream {
  const chunks: string[] = [];
  return {
    isTTY,
    write(chunk: string | Uint8Array) {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    },
    text: () => chunks.join(''),
  };
}

/** Options for {@link memoryIo}. */
export interface MemoryIoOptions {
  stdin?: string | Uint8Array;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  signal?: AbortSignal;
}

/** A {@link CommandIo} held in memory, with a fixed clock, so a CLI run can be checked in-process. */
export function memoryIo(
  options: MemoryIoOptions = {},
): CommandIo & { stdout: MemoryStream; stderr: MemoryStream } {
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]) as Readable & {
    isTTY?: boolean;
  };
  if (options.stdinIsTTY) stdin.isTTY = true;
  let clock = 0;
  const io: CommandIo & { stdout: MemoryStream; stderr: MemoryStream } = {
    stdout: memoryStream(options.stdoutIsTTY ?? false),
    stderr: memoryStream(),
    stdin,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    now: () => {
      clock += 1.5;
      return clock;
    },
  };
  if (options.signal) io.signal = options.signal;
  return io;
}
