/**
 * The lock that keeps a PGlite directory to one process (docs/gateway.md, "Teams"). PGlite is one process's
 * database: a second process opening the same directory would corrupt it.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError } from './store-error.js';

/** The lock file's name inside the store directory. */
export const LOCK_FILE = 'verdict-gateway.lock';

/**
 * How long an empty lock file counts as being written. A lock written by this module is never empty (it appears
 * whole, through a hard link); an empty one comes from a writer of an older release between creating and filling
 * it, or from a crash in that instant.
 */
const EMPTY_LOCK_GRACE_MS = 10_000;

/**
 * Take the lock of `dir` for the process `pid` (this process unless a test speaks for another) and answer the
 * function that gives it back. The lock file holds the owner's pid and appears whole: it is written to a private
 * file first and hard-linked into place, which fails when a lock exists. A lock whose process is gone is taken
 * over by one opener only: the openers race to create a reaping file named after the dead owner, and only the
 * winner removes the stale lock. Giving the lock back removes it only while it still names its owner.
 * @example
 * const release = await lockDirectory('./gateway-data');
 * try { … } finally { await release(); }
 */
export async function lockDirectory(dir: string, pid: number = process.pid): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch((error) => {
    throw storeFailure(error);
  });
  const lock = join(dir, LOCK_FILE);
  const draft = join(dir, `.${LOCK_FILE}.${pid}.${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(draft, String(pid), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw storeFailure(error);
  }
  try {
    // Each round either takes the lock, refuses because a live owner holds it, or removes one stale lock; three
    // rounds cover a stale lock and a reaper that died mid-way.
    for (let round = 0; round < 4; round++) {
      if (await linkExclusive(draft, lock)) return () => releaseLock(lock, pid);
      const owner = await readOwner(lock);
      if (owner === 'gone') continue;
      if (owner === 'writing') throw busy(dir, 'another process is writing its lock file');
      if (owner === pid)
        throw busy(dir, pid === process.pid ? 'already in this process' : `in process ${pid}`);
      if (owner !== 'empty' && processAlive(owner)) throw busy(dir, `in another process (pid ${owner})`);
      await reapStaleLock(dir, lock, draft, owner);
    }
  } finally {
    await rm(draft, { force: true });
  }
  throw new StoreError('store_unreachable', `The PGlite store ${dir} could not be locked.`);
}

/** Remove the stale lock of a dead owner, unless another opener is already doing so. */
async function reapStaleLock(
  dir: string,
  lock: string,
  draft: string,
  owner: number | 'empty',
): Promise<void> {
  const reaper = join(dir, `.${LOCK_FILE}.reap-${owner}`);
  if (!(await linkExclusive(draft, reaper))) {
    // Another opener reaps this lock; a reaping file left by a process that died while reaping is itself stale.
    const other = await readOwner(reaper);
    if (typeof other === 'number' && !processAlive(other)) await rm(reaper, { force: true });
    else await pause();
    return;
  }
  try {
    // Between reading the owner and winning the reaping file, the lock may have changed hands: remove it only
    // while it still names the dead owner.
    if ((await readOwner(lock)) === owner) await rm(lock, { force: true });
  } finally {
    await rm(reaper, { force: true });
  }
}

async function releaseLock(lock: string, pid: number): Promise<void> {
  if ((await readOwner(lock)) === pid) await rm(lock, { force: true });
}

async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw storeFailure(error);
  }
}

/**
 * The pid a lock file names; `gone` when it no longer exists, `writing` when it is empty and fresh, `empty` when
 * it is empty or unreadable and older than the grace (a crash left it).
 */
async function readOwner(file: string): Promise<number | 'gone' | 'writing' | 'empty'> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([readFile(file, 'utf8'), stat(file).then((info) => info.mtimeMs)]);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return 'gone';
    throw storeFailure(error);
  }
  const owner = Number(text.trim());
  if (/^\d{1,10}$/.test(text.trim()) && owner > 0) return owner;
  return Date.now() - modified < EMPTY_LOCK_GRACE_MS ? 'writing' : 'empty';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

function busy(dir: string, where: string): StoreError {
  return new StoreError(
    'store_unreachable',
    `The PGlite store ${dir} is open ${where}; PGlite serves one process: stop it, or share a PostgreSQL server (--store postgres://…).`,
  );
}

function storeFailure(error: unknown): StoreError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreError('store_unreachable', `The store failed: ${reason}`, { cause: error });
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}
