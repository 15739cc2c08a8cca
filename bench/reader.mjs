// `npm run bench:reader`: the strict JSON reader (readJson) against JSON.parse on the same text, for documents
// of several shapes, and its time per byte as the number of repeated member names grows (10 k, 100 k, 1 M).
// Goals (docs/library.md, "Strict JSON reading"): within 3× JSON.parse for any shape, flat time per byte.
// Run: npm run bench:reader [-- --rounds N]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { interleave, pairedRatio, spread, watchLoad } from './rounds.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? 7 : Number(process.argv[roundsAt + 1]);
const done = watchLoad('strict JSON reader against JSON.parse');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const { readJson } = await import('../dist/index.js');

/** Documents of about `bytes` characters in each shape. */
const SHAPES = {
  'result documents': (bytes) => {
    const one =
      '{"success":true,"message":"copied 12 files","details":{"files":12,"path":"/tmp/build"},"meta":{"schema_version":1,"command":"build","duration_ms":12.5}}';
    return `[${Array.from({ length: Math.ceil(bytes / one.length) }, () => one).join(',')}]`;
  },
  'one object, distinct names': (bytes) =>
    `{${Array.from({ length: Math.ceil(bytes / 12) }, (_, k) => `"k${k}":${k}`).join(',')}}`,
  'one object, one repeated name': (bytes) =>
    `{${Array.from({ length: Math.ceil(bytes / 6) }, () => '"k":1').join(',')}}`,
  'small objects, each with a repeat': (bytes) =>
    `[${Array.from({ length: Math.ceil(bytes / 14) }, () => '{"a":1,"a":2}').join(',')}]`,
  'strings with escapes': (bytes) =>
    `[${Array.from({ length: Math.ceil(bytes / 40) }, (_, k) => `"line\\n${k}\\t\\"quoted\\" \\u00e9"`).join(',')}]`,
  numbers: (bytes) =>
    `[${Array.from({ length: Math.ceil(bytes / 9) }, (_, k) => (k * 1.25).toFixed(2)).join(',')}]`,
  'deep nesting (9,000)': () => `${'['.repeat(9000)}${']'.repeat(9000)}`,
};

const cpuMs = (work) => {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

console.log(
  `\n## readJson ÷ JSON.parse, CPU time, same text, ${rounds} interleaved rounds: median (min–max)`,
);
console.log('| shape | characters | JSON.parse ms | readJson ms | readJson ÷ JSON.parse |');
console.log('|---|---:|---:|---:|---:|');
for (const [shape, make] of Object.entries(SHAPES)) {
  const text = make(4_000_000);
  const figures = await interleave(
    [
      { name: 'parse', run: () => JSON.parse(text) },
      { name: 'read', run: () => readJson(text) },
    ],
    (target) => cpuMs(target.run),
    rounds,
  );
  console.log(
    `| ${shape} | ${text.length.toLocaleString('en-US')} | ${spread(figures.get('parse'))} | ${spread(figures.get('read'))} | ${pairedRatio(figures, 'read', 'parse')} |`,
  );
}

console.log(`\n## readJson time per byte with repeated member names (one object naming "k" N times)`);
console.log('| members | characters | ns per character | ÷ the 10 k figure |');
console.log('|---:|---:|---:|---:|');
const sizes = [10_000, 100_000, 1_000_000];
const texts = sizes.map((count) => `{${'"k":1,'.repeat(count - 1)}"k":1}`);
const largest = texts[2].length;
const figures = await interleave(
  texts.map((text, k) => ({ name: String(sizes[k]), text, repeats: Math.round(largest / text.length) })),
  (target) =>
    (cpuMs(() => {
      for (let r = 0; r < target.repeats; r++) readJson(target.text);
    }) *
      1e6) /
    (target.repeats * target.text.length),
  rounds,
);
texts.forEach((text, k) => {
  console.log(
    `| ${sizes[k].toLocaleString('en-US')} | ${text.length.toLocaleString('en-US')} | ${spread(figures.get(String(sizes[k])), 2)} | ${pairedRatio(figures, String(sizes[k]), '10000')} |`,
  );
});
console.log('');
done();
