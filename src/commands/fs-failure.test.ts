import { describe, expect, test } from 'vitest';
import { FS_FAILURE_CODES, OPEN_FILE_ERROR_CODES, toFsFailure, withOpenFile } from './fs-failure.js';

/** A Node system error as `fs` throws it. */
function systemError(code: string, syscall = 'read'): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, ${syscall}`), { code, errno: -1, syscall });
}

// Any path that opens as a regular file will do; the work then fails as the kernel would.
const FILE = '/proc/self/status';

describe('withOpenFile', () => {
  test.each([
    ['EIO', 'io_error'],
    ['EAGAIN', 'would_block'],
    ['EWOULDBLOCK', 'would_block'],
    ['EINVAL', 'read_failed'],
    ['ENXIO', 'read_failed'],
  ])('turns %s during the read into %s', async (errno, code) => {
    const result = await withOpenFile(FILE, async () => {
      throw systemError(errno);
    });
    expect(result).toMatchObject({ success: false, error_code: code, path: FILE });
    expect(OPEN_FILE_ERROR_CODES).toHaveProperty(code);
  });

  test('says which errno a read_failed came from', async () => {
    const result = await withOpenFile(FILE, async () => {
      throw systemError('EINVAL');
    });
    expect(result).toMatchObject({ error_code: 'read_failed', errno: 'EINVAL' });
  });

  test('lets what is not an error of the system through, for the runtime to report', async () => {
    const bug = Object.assign(new TypeError('not a system error'), { code: 'ERR_INVALID_ARG_TYPE' });
    await expect(
      withOpenFile(FILE, async () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
  });
});

describe('toFsFailure', () => {
  test('has a message for every code of the errno table', () => {
    for (const errno of Object.keys(FS_FAILURE_CODES)) {
      const failure = toFsFailure(systemError(errno), '/x');
      expect(failure.error_code).toBe(FS_FAILURE_CODES[errno as keyof typeof FS_FAILURE_CODES]);
      expect(failure.message).toContain('/x');
    }
  });
});
