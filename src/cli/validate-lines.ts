import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { fail, ok } from '../contract/builders.js';
import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import type { ResultContract } from '../contract/types.js';
import { validateResultText } from '../contract/validate-result-text.js';
import type { ReadError } from '../json/types.js';
import { inputLabel } from '../producer/read-input.js';
import { renderHeadline } from '../producer/render.js';
import type { CommandContext, RenderContext } from '../producer/types.js';
import { renderReadError, sourceLabel } from './source-places.js';

/** Longest line accepted in `--jsonl` mode when `--max-bytes` is not given (16 MiB): memory stays bounded. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** How many failing lines a JSONL report lists; the totals count all of them. */
export const MAX_LISTED_FAILURES = 100;

/** One failing line of a JSON-lines stream: its number and its codes (violations, or the read error's reason). */
interface LineFailure {
  line: number;
  codes: string[];
  read_error?: ReadError;
}

/** The `details` of a `--jsonl` report. */
interface LineDetails {
  contract: string;
  mode: 'jsonl';
  file: string;
  lines: number;
  documents: number;
  conformant: number;
  nonconformant: number;
  unreadable: number;
  blank_lines: number;
  violation_totals: Record<string, number>;
  read_error_totals: Record<string, number>;
  failures: LineFailure[];
  failures_listed: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes)
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR && byte !== NEWLINE) return false;
  return true;
}

/**
 * Validates newline-delimited JSON (one result per line) from a file or standard input in constant memory:
 * counts, per-code totals and the first {@link MAX_LISTED_FAILURES} failing lines. Blank lines are skipped.
 */
export async function validateLines(
  file: string,
  ctx: CommandContext,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
): Promise<ResultContract> {
  const { io } = ctx;
  const source = file === '-' ? io.stdin : createReadStream(resolve(io.cwd, file));
  const totals = { documents: 0, conformant: 0, nonconformant: 0, unreadable: 0, blank_lines: 0 };
  const violationTotals: Record<string, number> = {};
  const readErrorTotals: Record<string, number> = {};
  const failures: LineFailure[] = [];
  const showProgress = io.stderr.isTTY === true;
  let lineNumber = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let overLimit = false;

  const record = (failure: LineFailure) => {
    if (failures.length < MAX_LISTED_FAILURES) failures.push(failure);
  };
  const finishLine = (line: Uint8Array | undefined) => {
    lineNumber++;
    if (overLimit) {
      totals.documents++;
      totals.unreadable++;
      readErrorTotals.too_large = (readErrorTotals.too_large ?? 0) + 1;
      record({
        line: lineNumber,
        codes: ['too_large'],
        read_error: { reason: 'too_large', message: `The line is longer than ${maxLineBytes} bytes.` },
      });
      return;
    }
    if (line === undefined || isBlank(line)) {
      totals.blank_lines++;
      return;
    }
    totals.documents++;
    const end = line[line.length - 1] === CR ? line.length - 1 : line.length;
    const report = validateResultText(line.subarray(0, end));
    if (report.readError) {
      totals.unreadable++;
      const reason = report.readError.reason;
      readErrorTotals[reason] = (readErrorTotals[reason] ?? 0) + 1;
      record({ line: lineNumber, codes: [reason], read_error: report.readError });
    } else if (report.valid) {
      totals.conformant++;
    } else {
      totals.nonconformant++;
      const codes = report.violations.map((v) => v.code);
      for (const code of codes) violationTotals[code] = (violationTotals[code] ?? 0) + 1;
      record({ line: lineNumber, codes });
    }
    if (showProgress && lineNumber % 10_000 === 0) io.stderr.write(`\r${lineNumber} lines checked`);
  };

  try {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      let start = 0;
      for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, start)) {
        const piece = bytes.subarray(start, index);
        if (pendingBytes + piece.length > maxLineBytes) overLimit = true;
        if (pending.length === 0 || overLimit) {
          finishLine(overLimit ? undefined : piece);
        } else {
          pending.push(piece);
          finishLine(Buffer.concat(pending, pendingBytes + piece.length));
        }
        pending = [];
        pendingBytes = 0;
        overLimit = false;
        start = index + 1;
      }
      const rest = bytes.subarray(start);
      if (rest.length > 0 && !overLimit) {
        if (pendingBytes + rest.length > maxLineBytes) {
          overLimit = true;
          pending = [];
          pendingBytes = 0;
        } else {
          // Copy: the stream may reuse its chunk buffers.
          pending.push(Uint8Array.from(rest));
          pendingBytes += rest.length;
        }
      }
    }
    if (pendingBytes > 0 || overLimit)
      finishLine(pendingBytes > 0 ? Buffer.concat(pending, pendingBytes) : undefined);
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? 'not_found' : 'unreadable';
    const label = inputLabel(file);
    const readError: ReadError = {
      reason,
      message:
        reason === 'not_found'
          ? `${label} does not exist.`
          : `${label} could not be read: ${(thrown as Error).message}`,
    };
    return fail(`${label} could not be read.`, {
      error: readError.message,
      error_code: 'invalid_json_input',
      details: { contract: CONTRACT_SCHEMA_URL, mode: 'jsonl', file, read_error: readError },
    });
  } finally {
    if (showProgress && lineNumber >= 10_000) io.stderr.write('\n');
  }

  const details: LineDetails = {
    contract: CONTRACT_SCHEMA_URL,
    mode: 'jsonl',
    file,
    lines: lineNumber,
    ...totals,
    violation_totals: violationTotals,
    read_error_totals: readErrorTotals,
    failures,
    failures_listed: failures.length,
  };
  const label = inputLabel(file);
  if (totals.documents === 0) {
    return fail(`${label} holds no JSON documents.`, {
      error: 'The stream is empty or holds only blank lines.',
      error_code: 'invalid_json_input',
      details: { ...details, read_error: { reason: 'empty', message: 'No document was found.' } },
    });
  }
  if (totals.conformant === totals.documents) {
    return ok(`All ${totals.documents} documents in ${label} conform to QZX Result Contract v1.`, {
      details,
    });
  }
  const bad = totals.nonconformant + totals.unreadable;
  const firstFailure = failures[0];
  return fail(
    `${bad} of ${totals.documents} documents in ${label} do not conform to QZX Result Contract v1.`,
    {
      error: `First failing line ${firstFailure?.line}: ${firstFailure?.codes.join(', ')}.`,
      error_code: totals.unreadable > 0 ? 'invalid_json_input' : 'contract_violation',
      details,
    },
  );
}

/** How many failing lines the rendering for people shows before "and N more". */
export const SHOWN_FAILURES = 10;

/** Code totals as `code ×n, …`, most frequent first. */
function formatTotals(totals: Readonly<Record<string, number>>): string {
  return Object.entries(totals)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([code, count]) => `${code} ×${count}`)
    .join(', ');
}

/**
 * `verdict validate --jsonl` for people: the first failing lines as `FILE:LINE code …`, then "and N more",
 * then the totals, then the summary once.
 */
export function renderLineReport(result: ResultContract, context: RenderContext): string {
  const { style } = context;
  const details = (result.details ?? {}) as Partial<LineDetails> & { read_error?: ReadError };
  const file = details.file ?? '-';
  const label = sourceLabel(file);
  const lines: string[] = [];
  if (details.lines === undefined) {
    // The stream itself could not be read: there are no lines to report.
    if (details.read_error) lines.push(renderReadError(file, details.read_error, context));
    lines.push(renderHeadline(result, style));
    return `${lines.join('\n')}\n`;
  }
  const failures = details.failures ?? [];
  for (const failure of failures.slice(0, SHOWN_FAILURES)) {
    lines.push(
      failure.read_error
        ? renderReadError(file, failure.read_error, context, failure.line)
        : `${label}:${failure.line} ${style.bad(failure.codes.join(' '))}`,
    );
  }
  const failing = (details.nonconformant ?? 0) + (details.unreadable ?? 0);
  if (failing > SHOWN_FAILURES) lines.push(style.dim(`… and ${failing - SHOWN_FAILURES} more failing lines`));
  const blank = details.blank_lines ? `; ${details.blank_lines} blank lines skipped` : '';
  lines.push(
    `${details.documents ?? 0} documents: ${details.conformant ?? 0} conformant, ${details.nonconformant ?? 0} not conformant, ${details.unreadable ?? 0} unreadable${blank}.`,
  );
  const violationTotals = formatTotals(details.violation_totals ?? {});
  if (violationTotals) lines.push(`violations: ${violationTotals}`);
  const readTotals = formatTotals(details.read_error_totals ?? {});
  if (readTotals) lines.push(`read errors: ${readTotals}`);
  lines.push(renderHeadline(result, style));
  return `${lines.join('\n')}\n`;
}
