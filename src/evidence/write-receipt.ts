import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { VerdictError } from '../contract/errors.js';
import { type Receipt, serializeReceipt } from './create-receipt.js';

/** Options of {@link writeReceipt}. */
export interface WriteReceiptOptions {
  /** The input files, as given: the report path must not name any of them through any alias. */
  inputs: readonly string[];
  /** Directory relative paths resolve against; default `process.cwd()`. */
  cwd?: string;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    // Missing, dangling, a symlink loop or unreadable: none of them can be an existing input.
    return null;
  }
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The report path as the file system will see it: its real directory joined with its own name. */
function realTarget(path: string): string {
  const directory = realpathOrNull(dirname(path));
  return directory === null ? path : join(directory, basename(path));
}

/**
 * Throws `receipt_path_conflict` when the report path names an input: the same path after normalisation
 * (`./`, `a/../`, absolute or relative), a symlink to it, a hard link to it, or a path through a symlinked
 * directory. A dangling symlink or symlink loop at the report path names no input: it will be replaced.
 */
function assertNoConflict(report: string, inputs: readonly string[], cwd: string): void {
  const reportPath = resolve(cwd, report);
  const reportStat = statOrNull(reportPath);
  const reportReal = realpathOrNull(reportPath) ?? realTarget(reportPath);
  for (const input of inputs) {
    const inputPath = resolve(cwd, input);
    const inputStat = statOrNull(inputPath);
    const sameFile =
      reportPath === inputPath ||
      reportReal === (realpathOrNull(inputPath) ?? inputPath) ||
      (reportStat !== null &&
        inputStat !== null &&
        reportStat.dev === inputStat.dev &&
        reportStat.ino === inputStat.ino);
    if (sameFile) {
      throw new VerdictError(
        'receipt_path_conflict',
        `The report path ${JSON.stringify(report)} names the input ${JSON.stringify(input)}; nothing was written.`,
      );
    }
  }
}

/**
 * Writes a receipt atomically (SPEC §4): a temporary file in the report's directory, fsync, rename over the
 * report path. It never overwrites an input (`receipt_path_conflict`), and a failed write
 * (`receipt_write_failed`) leaves any earlier receipt intact and no temporary file behind.
 * Throws a {@link VerdictError} with one of those codes; returns the bytes written.
 * @example
 * writeReceipt('evidence/receipt.json', receipt, { inputs: ['evidence/success.json', 'evidence/failure.json'] })
 */
export function writeReceipt(path: string, receipt: Receipt, options: WriteReceiptOptions): string {
  const cwd = options.cwd ?? process.cwd();
  assertNoConflict(path, options.inputs, cwd);
  const target = resolve(cwd, path);
  const text = serializeReceipt(receipt);
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const fd = openSync(temporary, 'wx', 0o644);
    created = true;
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // rename replaces a symlink at the target (dangling or looping) instead of following it.
    renameSync(temporary, target);
    created = false;
    syncDirectory(dirname(target));
    return text;
  } catch (error) {
    if (created) {
      try {
        unlinkSync(temporary);
      } catch {
        // Nothing more can be done; the error below says what failed.
      }
    }
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new VerdictError(
      'receipt_write_failed',
      `The receipt could not be written to ${JSON.stringify(path)} (${reason}).`,
      {
        cause: error,
      },
    );
  }
}

// Makes the rename itself durable; some platforms cannot open a directory, which is not an error.
function syncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort only.
  }
}
