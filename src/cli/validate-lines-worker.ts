// A worker thread of `verdict validate --jsonl` (see validate-lines-parallel.ts): checks the lines of one byte
// range of a file and posts the report.
import { parentPort, workerData } from 'node:worker_threads';
import { checkLines, readFileChunks } from './validate-lines.js';
import type { LineRange, LineRangeAnswer } from './validate-lines-parallel.js';

const range = workerData as LineRange;
const post = (answer: LineRangeAnswer) => parentPort?.postMessage(answer);
checkLines(readFileChunks(range.path, range.start, range.end), range.maxLineBytes).then(
  (report) => post({ report }),
  (thrown: unknown) => {
    const code = (thrown as { code?: unknown } | null)?.code;
    post({ error: { ...(typeof code === 'string' ? { code } : {}), message: String(thrown) } });
  },
);
