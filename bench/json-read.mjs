// Measures strict reading against bare JSON.parse on the same JSONL lines (see BENCHMARKS.md).
// Run: npm run build && node bench/json-read.mjs [documents]
// Prints each variant's throughput as a ratio of JSON.parse's, measured in the same process, best of 7 rounds.
import { readJson } from '../dist/index.js';
import { scanJson } from '../dist/json/scan-json.js';

const count = Number(process.argv[2] ?? 200_000);

/** Deterministic pseudo-random numbers, so every run reads the same corpus. */
function createRandom(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function createLines() {
  const random = createRandom(42);
  const words = [
    'copied',
    'files',
    'to',
    'build',
    'cache',
    'step',
    'ok',
    'at',
    'time:',
    'https://example.org/x',
  ];
  const phrase = (n) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
  const lines = [];
  while (lines.length < count) {
    const success = random() < 0.7;
    const doc = { success, message: phrase(2 + Math.floor(random() * 8)) };
    if (!success) {
      doc.error = phrase(3);
      doc.error_code = 'step_failed';
    }
    if (random() < 0.5) doc.details = { files: Math.floor(random() * 1000), path: `/tmp/${phrase(1)}` };
    if (random() < 0.3) doc.warnings = [phrase(3)];
    doc.meta = { schema_version: 1, command: 'build', duration_ms: Math.round(random() * 1e5) / 10 };
    const line = JSON.stringify(doc);
    if (line.length >= 100 && line.length <= 300) lines.push(line);
  }
  return lines;
}

function time(run) {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const lines = createLines();
const encoder = new TextEncoder();
const byteLines = lines.map((line) => encoder.encode(line));
const duplicateLines = lines.map((line) => line.replace('{', '{"message":"x",'));
const decoder = new TextDecoder('utf-8', { fatal: true });
const bytes = byteLines.reduce((sum, line) => sum + line.length, 0);

let sink = 0;
const variants = {
  'JSON.parse(string)': () => {
    for (const line of lines) sink += JSON.parse(line) === null ? 1 : 0;
  },
  'readJson(string)': () => {
    for (const line of lines) sink += readJson(line).ok ? 1 : 0;
  },
  'readJson(Uint8Array)': () => {
    for (const line of byteLines) sink += readJson(line).ok ? 1 : 0;
  },
  'readJson(string), each with a duplicate': () => {
    for (const line of duplicateLines) sink += readJson(line).ok ? 1 : 0;
  },
  'JSON.parse(decode(Uint8Array))': () => {
    for (const line of byteLines) sink += JSON.parse(decoder.decode(line)) === null ? 1 : 0;
  },
  'alt: full scan + JSON.parse (string)': () => {
    for (const line of lines) sink += scanJson(line, 0, 10_000) === undefined && JSON.parse(line) ? 1 : 0;
  },
  'alt: full scan only, no values (string)': () => {
    for (const line of lines) sink += scanJson(line, 0, 10_000) === undefined ? 1 : 0;
  },
};

const best = Object.fromEntries(Object.keys(variants).map((name) => [name, Number.POSITIVE_INFINITY]));
for (let round = 0; round < 7; round++) {
  for (const [name, run] of Object.entries(variants)) best[name] = Math.min(best[name], time(run));
}

console.log(`${lines.length} JSONL documents, ${(bytes / 1e6).toFixed(1)} MB, node ${process.version}`);
const baseline = best['JSON.parse(string)'];
for (const [name, ms] of Object.entries(best)) {
  const perSecond = Math.round((lines.length / ms) * 1000);
  console.log(
    `${name.padEnd(42)} ${ms.toFixed(1).padStart(8)} ms ${String(perSecond).padStart(9)} docs/s  ratio ${(baseline / ms).toFixed(2)}`,
  );
}
if (sink < 0) console.log(sink);
