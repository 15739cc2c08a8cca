import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The built CLI entry that the package's `bin.verdict` points at. */
export const BUILT_CLI = join(ROOT, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** The built console page (`npm run build:console`, part of `npm run build`). */
const BUILT_CONSOLE = join(ROOT, 'dist', 'console', 'index.html');

function builtAt(): number {
  try {
    return Math.min(statSync(BUILT_CLI).mtimeMs, statSync(BUILT_CONSOLE).mtimeMs);
  } catch {
    return -1;
  }
}

/**
 * Vitest global setup: the CLI and package tests run the built code in `dist/`, so build it once before any
 * test file starts when it is missing or older than `src/` (CI builds first and this is then a no-op).
 */
export default function ensureBuild(): void {
  if (builtAt() >= newestSource(join(ROOT, 'src'))) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}
