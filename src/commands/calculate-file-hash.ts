import { createHash, getHashes } from 'node:crypto';
import { resolve } from 'node:path';
import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';
import { OPEN_FILE_ERROR_CODES, withOpenFile } from './fs-failure.js';

/** The digest algorithms `calculateFileHash` offers. */
export const HASH_ALGORITHMS = ['sha256', 'sha512', 'sha1', 'md5'] as const;

const options = {
  path: { type: 'string', description: 'File to hash.', required: true, valueName: 'PATH' },
  algorithm: {
    type: 'string',
    description: 'Digest algorithm.',
    choices: HASH_ALGORITHMS,
    default: 'sha256',
  },
} as const satisfies OptionSpecs;

/** Hashes a file as a stream (constant memory whatever its size) and returns the hex digest. */
export const calculateFileHash = defineCommand({
  name: 'calculateFileHash',
  description: 'Computes the SHA-256, SHA-512, SHA-1 or MD5 digest of a file, reading it as a stream.',
  options,
  errorCodes: {
    ...OPEN_FILE_ERROR_CODES,
    unsupported_algorithm: 'This Node.js build does not provide the algorithm (FIPS mode disables md5).',
  },
  outputSchema: {
    type: 'object',
    required: ['path', 'algorithm', 'hash', 'size_bytes'],
    properties: {
      path: { type: 'string', description: 'Absolute path of the file.' },
      algorithm: { type: 'string', enum: [...HASH_ALGORITHMS] },
      hash: { type: 'string', pattern: '^[0-9a-f]+$', description: 'Lowercase hexadecimal digest.' },
      size_bytes: { type: 'integer', minimum: 0, description: 'Bytes hashed.' },
    },
  },
  run({ options: opts }, ctx) {
    const path = resolve(ctx.io.cwd, opts.path);
    const algorithm = opts.algorithm;
    if (!getHashes().includes(algorithm)) {
      return fail(`This Node.js build cannot compute ${algorithm}.`, {
        error_code: 'unsupported_algorithm',
        algorithm,
      });
    }
    return withOpenFile(path, async ({ handle }) => {
      const hash = createHash(algorithm);
      let size = 0;
      // A stream of 64 KiB chunks: memory stays flat however large the file is.
      const stream = handle.createReadStream({ autoClose: false, highWaterMark: 64 * 1024 });
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        ctx.signal.throwIfAborted();
        hash.update(chunk);
        size += chunk.length;
      }
      const digest = hash.digest('hex');
      return ok(`The ${algorithm} digest of ${path} (${size} bytes) is ${digest}.`, {
        path,
        algorithm,
        hash: digest,
        size_bytes: size,
      });
    });
  },
});
