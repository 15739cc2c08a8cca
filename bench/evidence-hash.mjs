// `verdict evidence` over a 100 MB evidence file against `sha256sum` of the same file plus the time verdict needs
// to read the document at all (a Node process that reads the file and parses it with verdict's strict reader).
//   node bench/evidence-hash.mjs [--cli path/to/dist/cli/main.js] [--rounds N]
// Each command runs N times (default 5), interleaved, after one warm-up; the figures are medians of wall time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const CLI = resolve(option('--cli', join(ROOT, 'dist', 'cli', 'main.js')));
const READER = join(ROOT, 'dist', 'json', 'read-json.js');
const ROUNDS = Number(option('--rounds', '5'));

const work = mkdtempSync(join(tmpdir(), 'verdict-evidence-bench-'));
try {
  // About 100 MB: a success whose details hold 1,340,000 records of ~100 bytes.
  const big = join(work, 'success.json');
  const record = (i) =>
    `{"id":${i},"path":"src/module-${i % 997}/file-${i}.ts","sha":"${(i * 2654435761).toString(16).padStart(12, '0')}"}`;
  const parts = ['{"success":true,"message":"Indexed the repository.","details":{"files":['];
  for (let i = 0; i < 1_340_000; i += 1) parts.push(i === 0 ? record(i) : `,${record(i)}`);
  parts.push(']}}\n');
  writeFileSync(big, parts.join(''));
  const failure = join(work, 'failure.json');
  writeFileSync(failure, '{"success":false,"message":"The index is stale.","error_code":"stale_index"}\n');
  const reader = join(work, 'read-only.mjs');
  writeFileSync(
    reader,
    `import { readFileSync } from 'node:fs';\nimport { readJson } from ${JSON.stringify(READER)};\nconst read = readJson(new Uint8Array(readFileSync(process.argv[2])));\nif (!read.ok) process.exit(1);\n`,
  );

  const commands = {
    sha256sum: ['sha256sum', [big]],
    'read the document (node + verdict strict reader)': [process.execPath, [reader, big]],
    'verdict evidence': [
      process.execPath,
      [CLI, 'evidence', '--profile', 'core', '--success', big, '--failure', failure, '--json'],
    ],
  };
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const [name, [command, args]] of Object.entries(commands)) {
      const start = process.hrtime.bigint();
      const run = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (run.status !== 0) throw new Error(`${name} exited ${run.status}: ${run.stderr}`);
      if (round > 0) times[name].push(ms);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const m = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
  const budget = m.sha256sum + m['read the document (node + verdict strict reader)'];
  console.log(`file: ${(statSync(big).size / 1e6).toFixed(1)} MB; CLI: ${CLI}; median of ${ROUNDS} runs`);
  for (const [name, ms] of Object.entries(m))
    console.log(`${name.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms`);
  console.log(`verdict evidence / (sha256sum + read) = ${(m['verdict evidence'] / budget).toFixed(2)}×`);

  // In one process: the pure entry's SHA-256 (of the build --cli belongs to) against node:crypto, on 64 MiB.
  const { createHash } = await import('node:crypto');
  const { sha256Hex } = await import(join(dirname(dirname(CLI)), 'evidence', 'sha256.js'));
  const bytes = new Uint8Array(64 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
  const hashers = {
    'node:crypto': (b) => createHash('sha256').update(b).digest('hex'),
    'sha256Hex (verdict/evidence)': sha256Hex,
  };
  for (const [name, hash] of Object.entries(hashers)) {
    const runs = [];
    for (let round = 0; round <= ROUNDS; round += 1) {
      const start = process.hrtime.bigint();
      hash(bytes);
      if (round > 0) runs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    console.log(`64 MiB in process, ${name.padEnd(30)} ${median(runs).toFixed(0).padStart(6)} ms`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
