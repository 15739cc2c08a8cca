import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fail, ok } from '../contract/builders.js';
import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { readErrorFromThrown } from '../contract/findings.js';
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

/** What checking a run of whole lines found: the counts and totals of a `--jsonl` report, lines numbered from 1. */
export interface LinesReport {
  lines: number;
  documents: number;
  conformant: number;
  nonconformant: number;
  unreadable: number;
  blank_lines: number;
  violation_totals: Record<string, number>;
  read_error_totals: Record<string, number>;
  /** The first {@link MAX_LISTED_FAILURES} failing lines. */
  failures: LineFailure[];
}

/**
 * Checks the lines of a byte stream (one result per line) in constant memory: counts, per-code totals and the
 * first {@link MAX_LISTED_FAILURES} failing lines; a line longer than `maxLineBytes` is `too_large` and is not
 * kept. The one place `--jsonl` reads lines, on one core and in each worker alike. Throws what the stream throws.
 */
export async function checkLines(
  source: AsyncIterable<unknown>,
  maxLineBytes: number,
  onLines?: (lines: number) => void,
): Promise<LinesReport> {
  const report: LinesReport = {
    lines: 0,
    documents: 0,
    conformant: 0,
    nonconformant: 0,
    unreadable: 0,
    blank_lines: 0,
    violation_totals: {},
    read_error_totals: {},
    failures: [],
  };
  const { failures } = report;
  const violationTotals = report.violation_totals;
  const readErrorTotals = report.read_error_totals;
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
      report.documents++;
      report.unreadable++;
      readErrorTotals.too_large = (readErrorTotals.too_large ?? 0) + 1;
      record({
        line: lineNumber,
        codes: ['too_large'],
        read_error: { reason: 'too_large', message: `The line is longer than ${maxLineBytes} bytes.` },
      });
      return;
    }
    if (line === undefined || isBlank(line)) {
      report.blank_lines++;
      return;
    }
    report.documents++;
    const checked = validateResultText(line[line.length - 1] === CR ? line.subarray(0, -1) : line);
    if (checked.readError) {
      report.unreadable++;
      const reason = checked.readError.reason;
      readErrorTotals[reason] = (readErrorTotals[reason] ?? 0) + 1;
      record({ line: lineNumber, codes: [reason], read_error: checked.readError });
    } else if (checked.valid) {
      report.conformant++;
    } else {
      report.nonconformant++;
      const codes = checked.violations.map((v) => v.code);
      for (const code of codes) violationTotals[code] = (violationTotals[code] ?? 0) + 1;
      record({ line: lineNumber, codes });
    }
    if (onLines !== undefined && lineNumber % 10_000 === 0) onLines(lineNumber);
  };

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
  report.lines = lineNumber;
  return report;
}

/** Bytes `readFileChunks` reads at a time: large enough that a read costs little per line, small enough for the caches. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Reads a file (or the byte range `start`–`end` of a regular file) in chunks of one reused buffer: each chunk
 * is only valid until the next is asked for, which {@link checkLines} allows. A read stream allocates a new
 * buffer for every chunk and costs several times the line splitting itself on a large file.
 */
export async function* readFileChunks(
  path: string,
  start?: number,
  end?: number,
): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    // Without a range, read from the current position, so a pipe or a character device works too.
    let position = start ?? null;
    for (;;) {
      const length =
        position === null || end === undefined ? CHUNK_BYTES : Math.min(CHUNK_BYTES, end - position);
      if (length <= 0) return;
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead === 0) return;
      if (position !== null) position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Joins the reports of consecutive runs of lines into the report of all of them, as one pass over the whole
 * would have made it: later line numbers shifted, failures listed in order up to the cap, totals summed with
 * each code where its first occurrence puts it.
 */
export function joinLineReports(reports: readonly LinesReport[]): LinesReport {
  const joined: LinesReport = {
    lines: 0,
    documents: 0,
    conformant: 0,
    nonconformant: 0,
    unreadable: 0,
    blank_lines: 0,
    violation_totals: {},
    read_error_totals: {},
    failures: [],
  };
  for (const report of reports) {
    for (const failure of report.failures) {
      if (joined.failures.length < MAX_LISTED_FAILURES)
        joined.failures.push({ ...failure, line: failure.line + joined.lines });
    }
    joined.lines += report.lines;
    joined.documents += report.documents;
    joined.conformant += report.conformant;
    joined.nonconformant += report.nonconformant;
    joined.unreadable += report.unreadable;
    joined.blank_lines += report.blank_lines;
    for (const [code, count] of Object.entries(report.violation_totals))
      joined.violation_totals[code] = (joined.violation_totals[code] ?? 0) + count;
    for (const [reason, count] of Object.entries(report.read_error_totals))
      joined.read_error_totals[reason] = (joined.read_error_totals[reason] ?? 0) + count;
  }
  return joined;
}

/**
 * Validates newline-delimited JSON (one result per line) from a file or standard input in constant memory:
 * counts, per-code totals and the first {@link MAX_LISTED_FAILURES} failing lines. Blank lines are skipped. A
 * large regular file is checked on every core (see `validate-lines-parallel.ts`), with the same report.
 */
export async function validateLines(
  file: string,
  ctx: CommandContext,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
): Promise<ResultContract> {
  const { io } = ctx;
  const showProgress = io.stderr.isTTY === true;
  let report: LinesReport;
  try {
    // Loaded on demand: worker threads are machinery a plain `verdict validate` must not pay for at start-up.
    const parallel =
      file === '-'
        ? undefined
        : await (await import('./validate-lines-parallel.js')).checkLinesInParallel(
            resolve(io.cwd, file),
            maxLineBytes,
            io.env,
          );
    if (parallel !== undefined) report = parallel;
    else {
      const source = file === '-' ? io.stdin : readFileChunks(resolve(io.cwd, file));
      let shown = false;
      const onLines = (lines: number) => {
        shown = true;
        io.stderr.write(`\r${lines} lines checked`);
      };
      try {
        report = await checkLines(source, maxLineBytes, showProgress ? onLines : undefined);
      } finally {
        if (shown) io.stderr.write('\n');
      }
    }
  } catch (thrown) {
    const label = inputLabel(file);
    const readError = readErrorFromThrown(thrown, label);
    return fail(`${label} could not be read.`, {
      error: readError.message,
      error_code: 'invalid_json_input',
      details: { contract: CONTRACT_SCHEMA_URL, mode: 'jsonl', file, read_error: readError },
    });
  }

  const { lines, violation_totals, read_error_totals, failures, ...totals } = report;
  const details: LineDetails = {
    contract: CONTRACT_SCHEMA_URL,
    mode: 'jsonl',
    file,
    lines,
    ...totals,
    violation_totals,
    read_error_totals,
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
