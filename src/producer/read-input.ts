import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readErrorFromThrown } from '../contract/findings.js';
import type { ReadError } from '../json/types.js';
import type { CommandIo } from './types.js';

/** How an input is named to people: its path, or "standard input" for `-`. */
export function inputLabel(file: string): string {
  return file === '-' ? 'standard input' : file;
}

/** Bytes read from a file or standard input, or why they could not be read. */
export type InputBytes = { ok: true; bytes: Uint8Array } | { ok: false; error: ReadError };

/** Limits for {@link readInput}. */
export interface ReadInputOptions {
  /** Largest input accepted in bytes; larger is `too_large` and is not read into memory. */
  maxBytes?: number;
}

function tooLarge(limit: number): InputBytes {
  return {
    ok: false,
    error: { reason: 'too_large', message: `The input is larger than the limit of ${limit} bytes.` },
  };
}

/** Reads a whole stream (standard input unless `label` names it) into memory, stopping as soon as it passes `maxBytes`. */
export async function readStream(
  stream: NodeJS.ReadableStream,
  options: ReadInputOptions = {},
  label = 'Standard input',
): Promise<InputBytes> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      total += bytes.byteLength;
      if (options.maxBytes !== undefined && total > options.maxBytes) return tooLarge(options.maxBytes);
      chunks.push(bytes);
    }
  } catch (thrown) {
    return {
      ok: false,
      error: { reason: 'unreadable', message: `${label} could not be read: ${String(thrown)}` },
    };
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

/**
 * Reads a file (or standard input for `-`) as bytes. Missing files are `not_found`; directories, permission
 * problems and other failures are `unreadable`; a file over `maxBytes` is `too_large` before it is read.
 */
export async function readInput(
  file: string,
  io: CommandIo,
  options: ReadInputOptions = {},
): Promise<InputBytes> {
  if (file === '-') return readStream(io.stdin, options);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(resolve(io.cwd, file), 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      return { ok: false, error: { reason: 'unreadable', message: `${file} is a directory, not a file.` } };
    }
    if (options.maxBytes !== undefined && stat.isFile() && stat.size > options.maxBytes)
      return tooLarge(options.maxBytes);
    // A device or a pipe (/dev/zero, a FIFO) has no size to check first: read it in chunks up to the limit.
    if (options.maxBytes !== undefined && !stat.isFile())
      return await readStream(handle.createReadStream({ autoClose: false }), options, file);
    const bytes = await handle.readFile();
    if (options.maxBytes !== undefined && bytes.byteLength > options.maxBytes)
      return tooLarge(options.maxBytes);
    return { ok: true, bytes };
  } catch (thrown) {
    return { ok: false, error: readErrorFromThrown(thrown, file) };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
