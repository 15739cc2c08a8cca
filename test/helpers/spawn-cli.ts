import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The built CLI entry point; spawned tests need `npm run build` first (CI builds before testing). */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** What a spawned CLI run produced. */
export interface SpawnedRun {
  /** Exit status (null when a signal ended it). */
  status: number | null;
  /** Everything written to stdout. */
  stdout: string;
  /** Everything written to stderr. */
  stderr: string;
}

/** Options of {@link spawnCli}. */
export interface SpawnCliOptions {
  /** Working directory. */
  cwd?: string;
  /**
   * Run as this user id (tests that need real permission errors while running as root). Such a run uses the
   * copy of the CLI that the global setup made readable for every user, since the clone may sit in a folder
   * that user cannot enter.
   */
  uid?: number;
  /** Group id to go with `uid`. */
  gid?: number;
  /** Variables added to (or replacing) the test's environment. */
  env?: Record<string, string>;
  /** Text written to standard input, which is then closed. */
  input?: string;
  /** Called with the child once it has started (to send it signals). */
  onSpawn?: (pid: number) => void;
}

/** Runs `node dist/cli/main.js ARGS` asynchronously (so in-process servers keep answering) and collects it. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): Promise<SpawnedRun> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run npm run build before these tests.`);
  return new Promise((resolve, reject) => {
    const cli = options.uid === undefined ? CLI_PATH : inject('sharedCli');
    const node = options.uid === undefined ? process.execPath : inject('sharedNode');
    const child = spawn(node, [cli, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('spawn', () => options.onSpawn?.(child.pid as number));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
