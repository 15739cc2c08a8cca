import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LinesReport } from './validate-lines.js';
import { joinLineReports } from './validate-lines.js';

/** Smallest file `verdict validate --jsonl` checks on several cores (32 MiB): below it, starting workers costs more than it saves. */
export const PARALLEL_MIN_BYTES = 32 * 1024 * 1024;

/** What a worker is given: a byte range of a file that starts and ends at line boundaries. */
export interface LineRange {
  path: string;
  start: number;
  end: number;
  maxLineBytes: number;
}

/** What a worker answers: the report of its range, or the error that stopped it. */
export type LineRangeAnswer = { report: LinesReport } | { error: { code?: string; message: string } };

/**
 * Checks a large regular file of JSON lines on every core (docs/cli.md, "verdict validate"): the file is cut
 * into one byte range per core, each cut moved to just after a line end, each range checked by a worker thread
 * in constant memory, and the reports joined in file order, so the report is the one a single pass makes.
 * Returns undefined when the file is not worth it (standard input, a pipe, a small file, one core) or the
 * worker module is not there (running from sources); the caller then checks the lines itself.
 * `VERDICT_JSONL_PARALLEL_BYTES` and `VERDICT_JSONL_WORKERS` in `env` change the size threshold and the
 * number of workers.
 */
export async function checkLinesInParallel(
  path: string,
  maxLineBytes: number,
  env: Readonly<Record<string, string | undefined>>,
): Promise<LinesReport | undefined> {
  const workers = positiveInteger(env.VERDICT_JSONL_WORKERS) ?? Math.min(availableParallelism(), 16);
  const threshold = positiveInteger(env.VERDICT_JSONL_PARALLEL_BYTES) ?? PARALLEL_MIN_BYTES;
  if (workers < 2) return undefined;
  const workerFile = new URL('./validate-lines-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(workerFile))) return undefined;
  const info = await stat(path);
  if (!info.isFile() || info.size < threshold) return undefined;
  const cuts = await cutAtLineEnds(path, info.size, workers);
  const ranges: LineRange[] = [];
  for (let k = 1; k < cuts.length; k++) {
    const start = cuts[k - 1] as number;
    const end = cuts[k] as number;
    if (end > start) ranges.push({ path, start, end, maxLineBytes });
  }
  const reports = await Promise.all(ranges.map((range) => checkRange(workerFile, range)));
  return joinLineReports(reports);
}

/** Runs one worker over one range. */
function checkRange(workerFile: URL, range: LineRange): Promise<LinesReport> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(workerFile, { workerData: range });
    worker.once('message', (answer: LineRangeAnswer) => {
      if ('report' in answer) resolvePromise(answer.report);
      else reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`A --jsonl worker stopped with exit code ${code}.`));
    });
  });
}

/**
 * The offsets where `parts` ranges of the file start, plus its size: each cut at an even share of the size,
 * moved forward to just after the next line end (a range never splits a line). Reads a window at a time, so
 * a line of any length costs bounded memory.
 */
async function cutAtLineEnds(path: string, size: number, parts: number): Promise<number[]> {
  const cuts = [0];
  const handle = await open(path, 'r');
  try {
    const window = Buffer.alloc(64 * 1024);
    for (let k = 1; k < parts; k++) {
      let at = Math.max(Math.floor((size * k) / parts), cuts[cuts.length - 1] as number);
      let cut = size;
      while (at < size) {
        const { bytesRead } = await handle.read(window, 0, window.length, at);
        if (bytesRead === 0) break;
        const newline = window.subarray(0, bytesRead).indexOf(0x0a);
        if (newline !== -1) {
          cut = at + newline + 1;
          break;
        }
        at += bytesRead;
      }
      cuts.push(cut);
    }
  } finally {
    await handle.close();
  }
  cuts.push(size);
  return cuts;
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9][0-9]*$/.test(value)) return undefined;
  return Number(value);
}
