import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { invokeAsUnprivileged, invokeCommand } from '../../test/helpers/invoke-command.js';
import { calculateFileHash } from './calculate-file-hash.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, getHashes: vi.fn(actual.getHashes) };
});

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-hash-'));
  // Searchable by everyone, so that the permission test's unprivileged user meets the file's own mode.
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'abc.txt'), 'abc');
  await writeFile(join(dir, 'secret.txt'), 'no');
  await chmod(join(dir, 'secret.txt'), 0o000);
  // A 64 MiB sparse file: many stream chunks, no disk use.
  const handle = await open(join(dir, 'sparse.bin'), 'w');
  await handle.truncate(64 * 1024 * 1024);
  await handle.close();
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('calculateFileHash', () => {
  test.each([
    ['sha256', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['sha1', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['md5', '900150983cd24fb0d6963f7d28e17f72'],
  ])('computes the %s digest of a known input', async (algorithm, digest) => {
    const result = await invokeCommand(calculateFileHash, { path: join(dir, 'abc.txt'), algorithm });
    expect(result).toMatchObject({ success: true, algorithm, hash: digest, size_bytes: 3 });
  });

  test('defaults to sha256 and hashes a large sparse file as a stream', async () => {
    const result = await invokeCommand(calculateFileHash, { path: join(dir, 'sparse.bin') });
    const expected = createHash('sha256')
      .update(Buffer.alloc(64 * 1024 * 1024))
      .digest('hex');
    expect(result).toMatchObject({ algorithm: 'sha256', hash: expected, size_bytes: 64 * 1024 * 1024 });
  });

  test('computes sha512', async () => {
    const result = await invokeCommand(calculateFileHash, {
      path: join(dir, 'abc.txt'),
      algorithm: 'sha512',
    });
    expect(result.hash).toMatch(/^ddaf35a193617aba/);
  });

  test('reports path_not_found', async () => {
    const result = await invokeCommand(calculateFileHash, { path: join(dir, 'nope') });
    expect(result).toMatchObject({ success: false, error_code: 'path_not_found' });
  });

  test('reports is_a_directory', async () => {
    const result = await invokeCommand(calculateFileHash, { path: dir });
    expect(result).toMatchObject({ success: false, error_code: 'is_a_directory' });
  });

  test('reports not_a_file for a character device that never ends', async () => {
    const result = await invokeCommand(calculateFileHash, { path: '/dev/zero' });
    expect(result).toMatchObject({ success: false, error_code: 'not_a_file' });
  });

  test('reports not_a_file for a named pipe', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const result = await invokeCommand(calculateFileHash, { path: join(dir, 'pipe') });
    expect(result).toMatchObject({ success: false, error_code: 'not_a_file' });
  });

  test('reports permission_denied', async () => {
    const result = await invokeAsUnprivileged(calculateFileHash, { path: join(dir, 'secret.txt') });
    expect(result).toMatchObject({ success: false, error_code: 'permission_denied' });
  });

  test('reports unsupported_algorithm when the runtime lacks it (as under FIPS)', async () => {
    const crypto = await import('node:crypto');
    vi.mocked(crypto.getHashes).mockReturnValueOnce(['sha256']);
    const result = await invokeCommand(calculateFileHash, { path: join(dir, 'abc.txt'), algorithm: 'md5' });
    expect(result).toMatchObject({ success: false, error_code: 'unsupported_algorithm', algorithm: 'md5' });
  });
});
