import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestContext, invokeAsUnprivileged, invokeCommand } from '../../test/helpers/invoke-command.js';
import { findFiles } from './find-files.js';
import { globToRegExp } from './glob-to-regexp.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-find-'));
  // Readable by everyone, so that the permission tests' unprivileged user meets the modes under test only.
  await chmod(root, 0o755);
  await mkdir(join(root, 'src/deep/er'), { recursive: true });
  await mkdir(join(root, '.hidden'));
  await writeFile(join(root, 'a.ts'), 'export {};\n');
  await writeFile(join(root, 'b.md'), '# b\n');
  await writeFile(join(root, 'src/c.ts'), 'export const c = 1;\n');
  await writeFile(join(root, 'src/deep/d.ts'), '');
  await writeFile(join(root, 'src/deep/er/e.ts'), '');
  await writeFile(join(root, '.hidden/h.ts'), '');
  await writeFile(join(root, '.dot.ts'), '');
  // A loop: src/deep/er/back -> root, and a link to a file.
  await symlink(root, join(root, 'src/deep/er/back'));
  await symlink(join(root, 'a.ts'), join(root, 'link.ts'));
});

afterAll(async () => {
  await chmod(join(root, 'src'), 0o755).catch(() => {});
  await rm(root, { recursive: true, force: true });
});

const paths = (result: Record<string, unknown>) => (result.matches as { path: string }[]).map((m) => m.path);

describe('findFiles', () => {
  test('finds files by name glob in every folder, in sorted depth-first order', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: '*.ts' });
    expect(result.success).toBe(true);
    expect(paths(result)).toEqual(['a.ts', 'link.ts', 'src/c.ts', 'src/deep/d.ts', 'src/deep/er/e.ts']);
    expect(result).toMatchObject({
      root,
      pattern: '*.ts',
      count: 5,
      truncated: false,
      directories_scanned: 4,
    });
  });

  test('reports size and modification time of each match', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: 'c.ts' });
    expect(result.matches).toEqual([
      { path: 'src/c.ts', type: 'file', size_bytes: 20, modified: expect.stringMatching(/^\d{4}-.*Z$/) },
    ]);
  });

  test('reports a symbolic link as a symlink and never follows the loop back to the root', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: '*' });
    expect(paths(result)).toContain('src/deep/er/back');
    expect(paths(result).filter((p) => p.endsWith('e.ts'))).toHaveLength(1);
    expect((result.matches as { path: string; type: string }[]).find((m) => m.path === 'link.ts')?.type).toBe(
      'symlink',
    );
  });

  test('matches the path below the root when the pattern has a slash', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: 'src/**/*.ts' });
    expect(paths(result)).toEqual(['src/c.ts', 'src/deep/d.ts', 'src/deep/er/e.ts']);
  });

  test('limits the depth', async () => {
    expect(paths(await invokeCommand(findFiles, { root, pattern: '*.ts', 'max-depth': 0 }))).toEqual([
      'a.ts',
      'link.ts',
    ]);
    expect(paths(await invokeCommand(findFiles, { root, pattern: '*.ts', 'max-depth': 1 }))).toHaveLength(3);
  });

  test('stops at --max-results and says truncated', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: '*.ts', 'max-results': 2 });
    expect(result).toMatchObject({ count: 2, truncated: true });
    expect(result.message).toContain('--max-results 2');
  });

  test('is not truncated when the matches exactly fill --max-results', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: '*.ts', 'max-results': 5 });
    expect(result).toMatchObject({ count: 5, truncated: false });
  });

  test('skips hidden names unless --include-hidden', async () => {
    const hidden = await invokeCommand(findFiles, { root, pattern: '*.ts', 'include-hidden': true });
    expect(paths(hidden)).toEqual(expect.arrayContaining(['.dot.ts', '.hidden/h.ts']));
    expect(hidden.count).toBe(7);
  });

  test('resolves a relative root against the working directory', async () => {
    const context = createTestContext({ cwd: root });
    const result = await invokeCommand(findFiles, { root: 'src', pattern: 'c.ts' }, [], context);
    expect(result).toMatchObject({ root: join(root, 'src'), count: 1 });
  });

  test('reports path_not_found for a missing root', async () => {
    const result = await invokeCommand(findFiles, { root: join(root, 'missing') });
    expect(result).toMatchObject({ success: false, error_code: 'path_not_found' });
  });

  test('reports invalid_arguments, not unexpected_error, for a glob that cannot compile', async () => {
    const result = await invokeCommand(findFiles, { root, pattern: '[z-a]' });
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments', pattern: '[z-a]' });
  });

  test('reports not_a_directory when the root is a file', async () => {
    const result = await invokeCommand(findFiles, { root: join(root, 'a.ts') });
    expect(result).toMatchObject({ success: false, error_code: 'not_a_directory' });
  });

  test('reports permission_denied for an unreadable root', async () => {
    await chmod(join(root, 'src'), 0o000);
    try {
      const result = await invokeAsUnprivileged(findFiles, { root: join(root, 'src') });
      expect(result).toMatchObject({ success: false, error_code: 'permission_denied' });
    } finally {
      await chmod(join(root, 'src'), 0o755);
    }
  });

  test('warns about an unreadable folder below the root and keeps searching', async () => {
    await chmod(join(root, 'src'), 0o000);
    try {
      const result = await invokeAsUnprivileged(findFiles, { root, pattern: '*.ts' });
      expect(result).toMatchObject({ success: true, unreadable_directories: ['src'] });
      expect(result.warnings).toEqual([expect.stringContaining('EACCES')]);
    } finally {
      await chmod(join(root, 'src'), 0o755);
    }
  });
});

describe('globToRegExp', () => {
  test.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['src/**', 'src/x/y', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{ts,js}', 'a.js', true],
    ['*.{ts,js}', 'a.css', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'a.txt', false],
    ['[unclosed', '[unclosed', true],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});
