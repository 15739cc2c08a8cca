import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { invokeAsUnprivileged, invokeCommand } from '../../test/helpers/invoke-command.js';
import { memoryIo } from '../../test/helpers/memory-io.js';
import { runCommand } from '../producer/run-command.js';
import { decodeText, MAX_READ_BYTES, readFile, textFitsInDocument } from './read-file.js';

let dir: string;
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-read-'));
  // Searchable by everyone, so that the permission test's unprivileged user meets the file's own mode.
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'text.txt'), 'héllo\nworld\n');
  await writeFile(join(dir, 'image.png'), BINARY);
  await writeFile(join(dir, 'big.txt'), 'x'.repeat(2000));
  await writeFile(join(dir, 'secret.txt'), 'no');
  await chmod(join(dir, 'secret.txt'), 0o000);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readFile', () => {
  test('returns UTF-8 text with its size and modification time', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'text.txt') });
    expect(result).toMatchObject({
      success: true,
      path: join(dir, 'text.txt'),
      content: 'héllo\nworld\n',
      encoding: 'utf8',
      binary: false,
      size_bytes: 13,
    });
    expect(result).not.toHaveProperty('warnings');
  });

  test('returns base64 on request', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'text.txt'), encoding: 'base64' });
    expect(Buffer.from(result.content as string, 'base64').toString()).toBe('héllo\nworld\n');
    expect(result.encoding).toBe('base64');
  });

  test('detects a binary file and falls back to base64 with a warning', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'image.png') });
    expect(result).toMatchObject({ success: true, binary: true, encoding: 'base64', size_bytes: 6 });
    expect(Buffer.from(result.content as string, 'base64')).toEqual(BINARY);
    expect(result.warnings).toEqual([expect.stringContaining('binary')]);
  });

  test('reads a /proc file whose stat size is 0', async () => {
    const result = await invokeCommand(readFile, { path: '/proc/self/status' });
    expect(result.success).toBe(true);
    expect(result.size_bytes).toBeGreaterThan(0);
    expect(result.content).toContain('Name:');
  });

  test('reports file_too_large with the size and the limit', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'big.txt'), 'max-bytes': 1000 });
    expect(result).toMatchObject({
      success: false,
      error_code: 'file_too_large',
      size_bytes: 2000,
      max_bytes: 1000,
    });
  });

  test('accepts a file exactly at the limit', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'big.txt'), 'max-bytes': 2000 });
    expect(result).toMatchObject({ success: true, size_bytes: 2000 });
  });

  test('reports file_too_large without inventing a size when stat cannot tell it', async () => {
    const result = await invokeCommand(readFile, { path: '/proc/self/status', 'max-bytes': 10 });
    expect(result).toMatchObject({ success: false, error_code: 'file_too_large', max_bytes: 10 });
    expect(result).not.toHaveProperty('size_bytes');
  });

  test('reports path_not_found', async () => {
    const result = await invokeCommand(readFile, { path: join(dir, 'nope') });
    expect(result).toMatchObject({ success: false, error_code: 'path_not_found' });
  });

  test('reports is_a_directory', async () => {
    const result = await invokeCommand(readFile, { path: dir });
    expect(result).toMatchObject({ success: false, error_code: 'is_a_directory' });
  });

  test('reports not_a_file for a named pipe instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const result = await invokeCommand(readFile, { path: join(dir, 'pipe') });
    expect(result).toMatchObject({ success: false, error_code: 'not_a_file' });
  });

  test('reports io_error for a read the kernel refuses with EIO (/proc/self/mem at offset 0)', async () => {
    const result = await invokeCommand(readFile, { path: '/proc/self/mem' });
    expect(result).toMatchObject({ success: false, error_code: 'io_error', path: '/proc/self/mem' });
    expect(result.error).toContain('EIO');
  });

  test('refuses a --max-bytes above what one JSON string can hold, as a usage error', async () => {
    const io = memoryIo({ cwd: dir, env: {}, stdinIsTTY: true });
    const status = await runCommand(
      readFile,
      ['--path', 'text.txt', '--max-bytes', '268435457', '--json'],
      io,
    );
    expect(status).toBe(2);
    expect(JSON.parse(io.stdout.text())).toMatchObject({ error_code: 'invalid_arguments' });
    expect(MAX_READ_BYTES).toBe(268_435_456);
  });

  test('reports permission_denied', async () => {
    const result = await invokeAsUnprivileged(readFile, { path: join(dir, 'secret.txt') });
    expect(result).toMatchObject({ success: false, error_code: 'permission_denied' });
  });
});

describe('textFitsInDocument', () => {
  // 90 MB: the first size at which six-fold escaping could pass the longest string V8 holds.
  const size = 90_000_000;

  test('accepts text that stays within the longest string once escaped', () => {
    expect(textFitsInDocument(Buffer.alloc(size, 'a'))).toBe(true);
  });

  test('refuses text of control characters that JSON escapes six-fold past it', () => {
    expect(textFitsInDocument(Buffer.alloc(size, 1))).toBe(false);
  });
});

describe('decodeText', () => {
  test('treats NUL bytes and invalid UTF-8 as binary', () => {
    expect(decodeText(Buffer.from('ok'))).toBe('ok');
    expect(decodeText(Buffer.from([0x61, 0x00]))).toBeUndefined();
    expect(decodeText(Buffer.from([0xc3]))).toBeUndefined();
  });
});
