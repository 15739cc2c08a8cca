// `npm run bench:cold-start`: wall time of `verdict validate small.json` against `node -e 0`, the floor of any
// Node program, spawned in interleaved rounds. Goal: at most 1.15× the floor.
// Run: npm run bench:cold-start [-- --rounds 30]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleave, pairedRatio, spread, watchLoad } from './rounds.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? 30 : Number(process.argv[roundsAt + 1]);
const done = watchLoad('cold start of verdict validate');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });

const work = mkdtempSync(join(tmpdir(), 'verdict-bench-cold-'));
try {
  const small = join(work, 'small.json');
  writeFileSync(small, '{"success":true,"message":"Copied 3 files.","details":{"files":3}}\n');
  const empty = join(work, 'empty.mjs');
  writeFileSync(empty, '');
  const targets = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'node empty.mjs', args: [empty] },
    { name: 'verdict validate small.json', args: [CLI, 'validate', small] },
  ];
  const figures = await interleave(
    targets,
    (target) => {
      const started = performance.now();
      const run = spawnSync(process.execPath, target.args, { stdio: 'ignore' });
      if (run.status !== 0) throw new Error(`${target.name} exited with ${run.status}`);
      return performance.now() - started;
    },
    rounds,
  );
  console.log(
    `\nwall time, ${rounds} interleaved rounds: median (min–max), and the ratio paired within each round`,
  );
  console.log('| target | ms | ÷ node -e 0 |');
  console.log('|---|---:|---:|');
  for (const target of targets) {
    console.log(
      `| ${target.name} | ${spread(figures.get(target.name))} | ${pairedRatio(figures, target.name, 'node -e 0')} |`,
    );
  }
  console.log('');
} finally {
  rmSync(work, { recursive: true, force: true });
}
done();
