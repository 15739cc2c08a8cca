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
import type { ReceiptErrorCode } from './codes.js';
import { type Receipt, serializeReceipt } from './create-receipt.js';

/** What {@link writeReceipt} did: the bytes it wrote, or why nothing was written (a receipt `error_code`). */
export type WriteReceiptOutcome =
  | { ok: true; text: string }
  | { ok: false; code: Exclude<ReceiptErrorCode, 'conformance_failed'>; message: string };

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
 * The input the report path names, if any: the same path after normalisation (`./`, `a/../`, absolute or
 * relative), a symlink to it, a hard link to it, or a path through a symlinked directory (also onto an input
 * that does not exist yet). A dangling symlink or symlink loop at the report path names no input: it will be
 * replaced.
 */
function conflictingInput(report: string, inputs: readonly string[], cwd: string): string | undefined {
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
    if (sameFile) return input;
  }
  return undefined;
}

/**
 * Writes a receipt atomically: a temporary file in the report's directory, fsync, rename over the report
 * path (see docs/conformance.md). It never overwrites an input (`receipt_path_conflict`), and a failed write
 * (`receipt_write_failed`) leaves any earlier receipt intact and no temporary file behind. Either comes back
 * as data, never as an exception; a success returns the bytes written.
 * @example
 * const written = writeReceipt('evidence/receipt.json', receipt, { inputs: ['evidence/success.json', 'evidence/failure.json'] })
 * if (!written.ok) console.error(written.code, written.message)
 */
export function writeReceipt(
  path: string,
  receipt: Receipt,
  options: WriteReceiptOptions,
): WriteReceiptOutcome {
  const cwd = options.cwd ?? process.cwd();
  const conflict = conflictingInput(path, options.inputs, cwd);
  if (conflict !== undefined) {
    return {
      ok: false,
      code: 'receipt_path_conflict',
      message: `The report path ${JSON.stringify(path)} names the input ${JSON.stringify(conflict)}; nothing was written.`,
    };
  }
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
    return { ok: true, text };
  } catch (error) {
    if (created) {
      try {
        unlinkSync(temporary);
      } catch {
        // Nothing more can be done; the error below says what failed.
      }
    }
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      ok: false,
      code: 'receipt_write_failed',
      message: `The receipt could not be written to ${JSON.stringify(path)} (${reason}).`,
    };
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
