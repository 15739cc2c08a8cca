import { constants, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { type FailureResult, fail, type ResultContract } from '../contract/index.js';

/** Failure codes for the file-system errors the reference commands report, keyed by Node's errno code. */
export const FS_FAILURE_CODES = {
  ENOENT: 'path_not_found',
  ENOTDIR: 'path_not_found',
  ELOOP: 'path_not_found',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EISDIR: 'is_a_directory',
  // Special files refuse some reads: /proc/self/mem outside mapped memory (EIO), /proc/kmsg with no message
  // waiting (EAGAIN; verdict opens files non-blocking and never waits). See docs/run.md.
  EIO: 'io_error',
  EAGAIN: 'would_block',
  EWOULDBLOCK: 'would_block',
} as const;

/** A failure code derived from a file-system error. */
export type FsFailureCode = (typeof FS_FAILURE_CODES)[keyof typeof FS_FAILURE_CODES];

const MESSAGES: Record<FsFailureCode, (path: string) => string> = {
  path_not_found: (path) => `Nothing exists at ${path}.`,
  permission_denied: (path) => `Permission denied for ${path}.`,
  is_a_directory: (path) => `${path} is a directory, not a file.`,
  io_error: (path) => `Reading ${path} failed with an I/O error (EIO).`,
  would_block: (path) => `${path} has nothing to read now; reading it would wait (EAGAIN).`,
};

/** The errno code (`ENOENT`, …) of a Node system error, or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a file-system error about `path` into a contract failure; rethrows any error that is not one of
 * {@link FS_FAILURE_CODES}, so the runtime reports it as `unexpected_error`.
 */
export function toFsFailure(error: unknown, path: string): FailureResult {
  const errno = errnoOf(error);
  if (errno === undefined || !Object.hasOwn(FS_FAILURE_CODES, errno)) throw error;
  const code = FS_FAILURE_CODES[errno as keyof typeof FS_FAILURE_CODES];
  const detail = error instanceof Error ? error.message : errno;
  return fail(MESSAGES[code](path), { error_code: code, error: detail, path });
}

/** The failure codes {@link withOpenFile} can report, described for a command's `errorCodes`. */
export const OPEN_FILE_ERROR_CODES = {
  path_not_found: 'Nothing exists at the path.',
  is_a_directory: 'The path is a folder.',
  not_a_file: 'The path is a named pipe, a socket or a character device, which may have no end to read to.',
  permission_denied: 'The file cannot be read.',
  io_error: 'The device or the kernel refused the read (EIO), as /proc/self/mem does outside mapped memory.',
  would_block: 'The file has nothing to read now and reading would wait (EAGAIN), as /proc/kmsg does.',
  read_failed:
    'Another error of the system while reading (EINVAL for /proc/self/pagemap, …); errno says which.',
} as const;

/** An open file and its status, handed to the work of {@link withOpenFile}. */
export type OpenFile = {
  /** The open handle (closed by {@link withOpenFile}). */
  handle: FileHandle;
  /** `fstat` of the handle. */
  info: Stats;
};

/**
 * Opens a file for reading, fails with `is_a_directory` for a folder and `not_a_file` for a pipe, socket or character device,
 * runs `work`, and always closes it; file-system errors become failures through {@link toFsFailure}, and any
 * other errno becomes `read_failed`.
 */
export async function withOpenFile(
  path: string,
  work: (file: OpenFile) => Promise<ResultContract>,
): Promise<ResultContract> {
  let handle: FileHandle | undefined;
  try {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever, out of reach of any abort.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (info.isDirectory()) {
      return fail(MESSAGES.is_a_directory(path), { error_code: 'is_a_directory', path });
    }
    // A character device (/dev/zero, a terminal) may never end either: only files with an end are read.
    if (info.isFIFO() || info.isSocket() || info.isCharacterDevice()) {
      const kind = info.isFIFO() ? 'named pipe' : info.isSocket() ? 'socket' : 'character device';
      return fail(`${path} is a ${kind}, not a file with an end.`, {
        error_code: 'not_a_file',
        path,
      });
    }
    return await work({ handle, info });
  } catch (error) {
    const errno = errnoOf(error);
    // Any other error of the system (EINVAL, ENXIO, …) is still a failure to read this path, not a crash.
    if (errno !== undefined && /^E[A-Z0-9]+$/.test(errno) && !Object.hasOwn(FS_FAILURE_CODES, errno)) {
      return fail(`${path} could not be read (${errno}).`, {
        error_code: 'read_failed',
        error: error instanceof Error ? error.message : errno,
        errno,
        path,
      });
    }
    return toFsFailure(error, path);
  } finally {
    await handle?.close();
  }
}
