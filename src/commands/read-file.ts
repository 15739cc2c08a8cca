import { constants as bufferConstants } from 'node:buffer';
import { resolve } from 'node:path';
import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';
import { OPEN_FILE_ERROR_CODES, withOpenFile } from './fs-failure.js';

/**
 * The largest `--max-bytes` accepted: 256 MiB. The whole file becomes one string in one JSON document, and V8
 * holds at most 2^29 - 24 characters in a string (about 512 MB); base64 makes 4 characters of 3 bytes, so
 * 256 MiB stays well within it. Larger files are refused rather than read (docs/run.md).
 */
export const MAX_READ_BYTES = 268_435_456;

const options = {
  path: { type: 'string', description: 'File to read.', required: true, valueName: 'PATH' },
  'max-bytes': {
    type: 'integer',
    description: `Largest file accepted, in bytes (at most ${MAX_READ_BYTES}, 256 MiB).`,
    default: 1_048_576,
    min: 0,
    max: MAX_READ_BYTES,
    valueName: 'BYTES',
  },
  encoding: {
    type: 'string',
    description: 'utf8 returns text (binary content falls back to base64, with a warning); base64 always.',
    choices: ['utf8', 'base64'],
    default: 'utf8',
  },
} as const satisfies OptionSpecs;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes bytes as UTF-8 text, or returns undefined when they are binary (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

// Room left in the longest string for the rest of the document around the content.
const LONGEST_CONTENT = bufferConstants.MAX_STRING_LENGTH - 1_048_576;

/**
 * True when UTF-8 text of these bytes, once JSON escapes it, surely fits in one string: a control character
 * can grow six-fold (`\u0001`), `"` and `\` two-fold, anything else stays at most one character per byte.
 */
export function textFitsInDocument(bytes: Uint8Array): boolean {
  if (bytes.length * 6 <= LONGEST_CONTENT) return true;
  let length = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    length += byte < 0x20 ? 6 : byte === 0x22 || byte === 0x5c ? 2 : 1;
  }
  return length <= LONGEST_CONTENT;
}

/** Reads a file up to a size limit and returns its content as text or base64, saying whether it is binary. */
export const readFile = defineCommand({
  name: 'readFile',
  description:
    'Reads a file whose size is within --max-bytes. Text comes back as UTF-8; a file with NUL bytes or ' +
    'invalid UTF-8 is binary and comes back as base64.',
  options,
  errorCodes: {
    ...OPEN_FILE_ERROR_CODES,
    file_too_large: 'The file is larger than --max-bytes.',
  },
  outputSchema: {
    type: 'object',
    required: ['path', 'size_bytes', 'encoding', 'content', 'binary', 'modified'],
    properties: {
      path: { type: 'string', description: 'Absolute path of the file.' },
      size_bytes: { type: 'integer', minimum: 0, description: 'Bytes read (the whole file).' },
      encoding: { type: 'string', enum: ['utf8', 'base64'], description: 'How `content` is encoded.' },
      content: { type: 'string' },
      binary: { type: 'boolean', description: 'True when the bytes are not NUL-free valid UTF-8.' },
      modified: { type: 'string', format: 'date-time' },
    },
  },
  run({ options: opts }, ctx) {
    const path = resolve(ctx.io.cwd, opts.path);
    const limit = opts['max-bytes'];
    const tooLarge = (size?: number) =>
      fail(
        size === undefined
          ? `${path} holds more than the ${limit}-byte limit (--max-bytes).`
          : `${path} is ${size} bytes, more than the ${limit}-byte limit (--max-bytes).`,
        { error_code: 'file_too_large', path, size_bytes: size, max_bytes: limit },
      );
    return withOpenFile(path, async ({ handle, info }) => {
      if (info.isFile() && info.size > limit) return tooLarge(info.size);
      // Read until EOF or past the limit rather than trusting the size: /proc files say 0, files can grow.
      // The first read takes the size the file states (and one byte more, to notice growth) in one buffer, so
      // a large file is held once, not once in chunks and once joined.
      const chunks: Buffer[] = [];
      let length = 0;
      while (length <= limit) {
        ctx.signal.throwIfAborted();
        const wanted = length === 0 && info.isFile() ? info.size + 1 : 65_536;
        const chunk = Buffer.allocUnsafe(Math.min(limit + 1 - length, Math.max(wanted, 65_536)));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        length += bytesRead;
      }
      if (length > limit) return tooLarge();
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
      const decoded = decodeText(bytes);
      // Text JSON would escape past the longest string goes out as base64, which always fits (MAX_READ_BYTES).
      const tooLongAsText = decoded !== undefined && !textFitsInDocument(bytes);
      const text = tooLongAsText ? undefined : decoded;
      const asText = opts.encoding === 'utf8' && text !== undefined;
      return ok(`Read ${length} bytes from ${path}${decoded === undefined ? ' (binary)' : ''}.`, {
        path,
        size_bytes: length,
        encoding: asText ? 'utf8' : 'base64',
        content: asText ? text : bytes.toString('base64'),
        binary: decoded === undefined,
        modified: info.mtime.toISOString(),
        warnings:
          opts.encoding === 'utf8' && text === undefined
            ? [
                tooLongAsText
                  ? 'The text would not fit in one JSON string once escaped: content is base64.'
                  : 'The file is binary (NUL bytes or invalid UTF-8): content is base64.',
              ]
            : undefined,
      });
    });
  },
});
