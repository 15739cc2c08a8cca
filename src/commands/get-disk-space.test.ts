import { chmod, mkdir, mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { invokeAsUnprivileged, invokeCommand } from '../../test/helpers/invoke-command.js';
import { getDiskSpace } from './get-disk-space.js';

describe('getDiskSpace', () => {
  test('reports the space of the file system holding the path, as statfs gives it', async () => {
    const path = tmpdir();
    const result = await invokeCommand(getDiskSpace, { path });
    const info = await statfs(path);
    expect(result).toMatchObject({
      success: true,
      path,
      total_bytes: info.blocks * info.bsize,
      block_size: info.bsize,
      inodes_total: info.files,
    });
    const { total_bytes, free_bytes, available_bytes, used_bytes } = result as unknown as Record<
      'total_bytes' | 'free_bytes' | 'available_bytes' | 'used_bytes',
      number
    >;
    expect(used_bytes).toBe(total_bytes - free_bytes);
    expect(available_bytes).toBeLessThanOrEqual(free_bytes);
    expect(result.percent_used).toBeCloseTo((used_bytes / (used_bytes + available_bytes)) * 100, 0);
  });

  test('omits percent_used for a file system without blocks instead of inventing one', async () => {
    const result = await invokeCommand(getDiskSpace, { path: '/proc' });
    expect(result).toMatchObject({ success: true, total_bytes: 0 });
    expect(result).not.toHaveProperty('percent_used');
  });

  test('reports path_not_found', async () => {
    const result = await invokeCommand(getDiskSpace, { path: join(tmpdir(), 'verdict-no-such-dir') });
    expect(result).toMatchObject({ success: false, error_code: 'path_not_found' });
  });

  test('reports permission_denied for a path inside an unreachable folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verdict-disk-'));
    await mkdir(join(dir, 'inner'));
    await chmod(dir, 0o000);
    try {
      const result = await invokeAsUnprivileged(getDiskSpace, { path: join(dir, 'inner') });
      expect(result).toMatchObject({ success: false, error_code: 'permission_denied' });
    } finally {
      await chmod(dir, 0o755);
      await rm(dir, { recursive: true });
    }
  });
});
