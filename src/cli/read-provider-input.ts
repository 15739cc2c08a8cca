import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readErrorFromThrown } from '../contract/findings.js';
import type { ReadError } from '../json/types.js';
import { readInput } from '../producer/read-input.js';
import type { CommandIo } from '../producer/types.js';
import { createStreamMeter, type StreamLimitExceeded, type StreamLimits } from '../unified/index.js';

/** A provider answer read within its bounds, the bound it passed, or why it could not be read. */
export type ProviderInput =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; exceeded: StreamLimitExceeded; error?: undefined }
  | { ok: false; error: ReadError; exceeded?: undefined };

/** How {@link readProviderInput} reads: a body or a stream, and within which bounds. */
export interface ProviderInputOptions {
  /** True for a captured stream, measured line by line and event by event as it arrives. */
  stream: boolean;
  /** True when the stream may be in the AWS event-stream framing (Bedrock). */
  binary: boolean;
  /** The bounds. */
  limits: StreamLimits;
}

/**
 * Reads a provider answer for `verdict normalize` from a file or standard input (`-`) in memory bounded by
 * `limits` (docs/unified.md, "Bounds"): a body stops at `maxBodyBytes`, a stream at the first line, event,
 * count or total past its bound, and reading ends there: an endless line costs `maxEventBytes`, not memory
 * without end.
 */
export async function readProviderInput(
  file: string,
  io: CommandIo,
  options: ProviderInputOptions,
): Promise<ProviderInput> {
  const { limits } = options;
  if (!options.stream) {
    const input = await readInput(file, io, { maxBytes: limits.maxBodyBytes });
    if (input.ok) return input;
    if (input.error.reason !== 'too_large') return { ok: false, error: input.error };
    return {
      ok: false,
      exceeded: {
        limit: 'max_body_bytes',
        value: limits.maxBodyBytes,
        message: `The body is longer than ${limits.maxBodyBytes} bytes (max-body-bytes ${limits.maxBodyBytes}).`,
      },
    };
  }

  const meter = createStreamMeter(limits, options.binary);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let source: NodeJS.ReadableStream;
  try {
    if (file === '-') source = io.stdin;
    else {
      const path = resolve(io.cwd, file);
      const info = await stat(path);
      if (info.isDirectory()) {
        return { ok: false, error: { reason: 'unreadable', message: `${file} is a directory, not a file.` } };
      }
      // A regular file too large for the bound is refused before it is read.
      if (info.isFile() && info.size > limits.maxStreamBytes) return { ok: false, exceeded: tooLong(limits) };
      source = createReadStream(path);
    }
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      const passed = meter.push(bytes);
      // Leaving the loop destroys the stream: nothing more is read.
      if (passed) return { ok: false, exceeded: passed };
      chunks.push(bytes);
      total += bytes.length;
    }
  } catch (thrown) {
    return { ok: false, error: readErrorFromThrown(thrown, file === '-' ? 'Standard input' : file) };
  }
  const passed = meter.end();
  if (passed) return { ok: false, exceeded: passed };
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

function tooLong(limits: StreamLimits): StreamLimitExceeded {
  return {
    limit: 'max_stream_bytes',
    value: limits.maxStreamBytes,
    message: `The stream has more than ${limits.maxStreamBytes} bytes (max-stream-bytes ${limits.maxStreamBytes}).`,
  };
}
