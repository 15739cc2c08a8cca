import { statfs } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';
import { toFsFailure } from './fs-failure.js';

const options = {
  path: {
    type: 'string',
    description: 'Any path on the file system to inspect.',
    default: '.',
    valueName: 'PATH',
  },
} as const satisfies OptionSpecs;

const byteCount = { type: 'integer', minimum: 0 } as const;

/** Reports the size, free and available space of the file system holding a path (`statfs`). */
export const getDiskSpace = defineCommand({
  name: 'getDiskSpace',
  description:
    'Reports total, free and available bytes and the percentage used of the file system holding a path. ' +
    'Available is what an unprivileged user may still write; free includes blocks reserved for root.',
  options,
  errorCodes: {
    path_not_found: 'Nothing exists at the path.',
    permission_denied: 'The path cannot be reached.',
  },
  outputSchema: {
    type: 'object',
    required: ['path', 'total_bytes', 'free_bytes', 'available_bytes', 'used_bytes', 'block_size'],
    properties: {
      path: { type: 'string', description: 'Absolute path that was inspected.' },
      total_bytes: byteCount,
      free_bytes: byteCount,
      available_bytes: byteCount,
      used_bytes: byteCount,
      percent_used: {
        type: 'number',
        minimum: 0,
        maximum: 100,
        description: 'used / (used + available), as df computes it; absent for a file system with no blocks.',
      },
      block_size: byteCount,
      inodes_total: byteCount,
      inodes_free: byteCount,
    },
  },
  async run({ options: opts }, ctx) {
    const path = resolve(ctx.io.cwd, opts.path);
    let info: Awaited<ReturnType<typeof statfs>>;
    try {
      info = await statfs(path);
    } catch (error) {
      return toFsFailure(error, path);
    }
    const total = info.blocks * info.bsize;
    const free = info.bfree * info.bsize;
    const available = info.bavail * info.bsize;
    const used = total - free;
    // df's formula: reserved blocks count neither as used nor as available to the user.
    const usable = used + available;
    const percentUsed = usable > 0 ? Math.round((used / usable) * 1000) / 10 : undefined;
    const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
    return ok(
      `${gib(available)} GiB available of ${gib(total)} GiB on the file system holding ${path}` +
        (percentUsed === undefined ? '.' : ` (${percentUsed}% used).`),
      {
        path,
        total_bytes: total,
        free_bytes: free,
        available_bytes: available,
        used_bytes: used,
        percent_used: percentUsed,
        block_size: info.bsize,
        inodes_total: info.files,
        inodes_free: info.ffree,
      },
    );
  },
});
