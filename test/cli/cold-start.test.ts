import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-cold-start-'));
  writeFileSync(join(dir, 'small.json'), '{"success":true,"message":"Copied 3 files."}\n');
  // Preloaded into the CLI: at exit, writes the Node built-in modules the process loaded, one a line.
  writeFileSync(
    join(dir, 'record-modules.cjs'),
    `process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule '));
  require('node:fs').writeFileSync(process.env.VERDICT_TEST_MODULES, loaded.map((entry) => entry.slice(13)).join('\\n'));
});
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built-in modules a run of the built CLI loaded, with its exit status. */
async function builtinsLoadedBy(args: string[]): Promise<{ status: number | null; modules: string[] }> {
  const list = join(dir, `modules-${args.join('-').replace(/[^a-z]/g, '')}.txt`);
  const run = await spawnCli(args, {
    cwd: dir,
    env: {
      NODE_OPTIONS: `--require ${join(dir, 'record-modules.cjs')}`,
      VERDICT_TEST_MODULES: list,
    },
  });
  return { status: run.status, modules: readFileSync(list, 'utf8').split('\n') };
}

// Start-up cost is mostly Node's own (BENCHMARKS.md, "Cold start"): what verdict can spare is the built-in
// modules it loads and never uses on the way.
describe('a cold start of verdict validate', () => {
  test('loads neither worker threads nor the CommonJS module loader for one small file', async () => {
    const { status, modules } = await builtinsLoadedBy(['validate', 'small.json']);
    expect(status).toBe(0);
    expect(modules).toContain('fs/promises');
    expect(modules).not.toContain('worker_threads');
    expect(modules).not.toContain('os');
    expect(modules).not.toContain('module');
  });

  test('loads worker threads when --jsonl may need them', async () => {
    const { status, modules } = await builtinsLoadedBy(['validate', '--jsonl', 'small.json']);
    expect(status).toBe(0);
    expect(modules).toContain('worker_threads');
  });
});
