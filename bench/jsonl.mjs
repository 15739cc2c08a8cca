// `npm run bench:jsonl`: `verdict validate --jsonl` on a large file, on one core (VERDICT_JSONL_WORKERS=1) and on
// every core, against the floor: bare readline + JSON.parse per line in one process; and, as the machine's own
// ceiling for the speed-up, two independent one-core verdict processes at once, each on one half of the file.
// Wall time of each run, interleaved rounds. Goals (docs/cli.md): every core ≥ 1.7× one core on two cores; one
// core ≥ 0.8× the floor.
// Run: npm run bench:jsonl [-- --mb 200 --rounds 5]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createDocument, createRandom } from './corpus.mjs';
import { interleave, pairedRatio, spread, watchLoad } from './rounds.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const megabytes = option('mb', 200);
const rounds = option('rounds', 5);
const done = watchLoad(`verdict validate --jsonl on ${megabytes} MB`);
execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });

const work = mkdtempSync(join(tmpdir(), 'verdict-bench-jsonl-'));
try {
  const file = join(work, 'results.jsonl');
  const out = createWriteStream(file);
  const random = createRandom(7);
  let written = 0;
  while (written < megabytes * 1e6) {
    const batch = [];
    for (let k = 0; k < 1000; k++)
      batch.push(JSON.stringify(createDocument(random, 1 + Math.floor(random() * 8))));
    const text = `${batch.join('\n')}\n`;
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  const bytes = statSync(file).size;
  // The two halves, cut just after the line end nearest the middle.
  const probe = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  const read = readSync(fd, probe, 0, probe.length, Math.floor(bytes / 2));
  closeSync(fd);
  const middle = Math.floor(bytes / 2) + probe.subarray(0, read).indexOf(0x0a) + 1;
  const halves = [join(work, 'first.jsonl'), join(work, 'second.jsonl')];
  await pipeline(createReadStream(file, { end: middle - 1 }), createWriteStream(halves[0]));
  await pipeline(createReadStream(file, { start: middle }), createWriteStream(halves[1]));
  const floor = join(work, 'floor.mjs');
  writeFileSync(
    floor,
    `import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let ok = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  try { if (JSON.parse(line)?.success !== undefined) ok++; } catch {}
}
console.log(ok);
`,
  );
  const targets = [
    { name: 'readline + JSON.parse (floor)', args: [floor, file], env: {} },
    {
      name: 'verdict, one core',
      args: [CLI, 'validate', '--jsonl', file, '--json'],
      env: { VERDICT_JSONL_WORKERS: '1' },
    },
    { name: 'verdict, every core', args: [CLI, 'validate', '--jsonl', file, '--json'], env: {} },
    {
      name: 'two one-core verdict processes at once, one per half (the ceiling)',
      halves: halves.map((half) => [CLI, 'validate', '--jsonl', half, '--json']),
      env: { VERDICT_JSONL_WORKERS: '1' },
    },
  ];
  const figures = await interleave(
    targets,
    async (target) => {
      const started = performance.now();
      if (target.halves !== undefined) {
        const runs = target.halves.map((args) =>
          spawn(process.execPath, args, {
            env: { ...process.env, ...target.env },
            stdio: ['ignore', 'ignore', 'inherit'],
          }),
        );
        const codes = await Promise.all(runs.map(async (run) => (await once(run, 'exit'))[0]));
        if (codes.some((code) => code !== 0 && code !== 1))
          throw new Error(`${target.name} exited with ${codes}`);
        return performance.now() - started;
      }
      const run = spawnSync(process.execPath, target.args, {
        env: { ...process.env, ...target.env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (run.status !== 0 && run.status !== 1) throw new Error(`${target.name} exited with ${run.status}`);
      return performance.now() - started;
    },
    rounds,
  );
  console.log(`\n${(bytes / 1e6).toFixed(0)} MB, wall time, ${rounds} interleaved rounds: median (min–max)`);
  console.log('| target | seconds | MB/s |');
  console.log('|---|---:|---:|');
  for (const target of targets) {
    const ms = figures.get(target.name);
    console.log(
      `| ${target.name} | ${spread(
        ms.map((m) => m / 1000),
        2,
      )} | ${spread(
        ms.map((m) => bytes / 1e3 / m),
        1,
      )} |`,
    );
  }
  console.log(
    `\nevery core ÷ one core (speed-up): ${pairedRatio(figures, 'verdict, one core', 'verdict, every core')}`,
  );
  console.log(
    `two processes ÷ one core (the machine's own speed-up): ${pairedRatio(figures, 'verdict, one core', 'two one-core verdict processes at once, one per half (the ceiling)')}`,
  );
  console.log(
    `one core ÷ floor (throughput): ${pairedRatio(figures, 'readline + JSON.parse (floor)', 'verdict, one core')}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
done();
