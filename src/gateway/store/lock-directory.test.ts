import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { LOCK_FILE, lockDirectory } from './lock-directory.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-lock-'));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

// Two live processes: this one and its parent (the test runner), so each opener speaks for a real owner.
const ME = process.pid;
const OTHER = process.ppid;

async function settle(attempts: Promise<() => Promise<void>>[]) {
  const results = await Promise.allSettled(attempts);
  return {
    won: results.filter((result) => result.status === 'fulfilled').length,
    refused: results
      .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
      .map((result) => String(result.reason.message)),
  };
}

describe('lockDirectory', () => {
  test('lets exactly one of two racing openers in, and the other is told who holds it', async () => {
    for (let round = 0; round < 10; round++) {
      const dir = await freshDir();
      const { won, refused } = await settle([lockDirectory(dir, ME), lockDirectory(dir, OTHER)]);
      expect(won).toBe(1);
      expect(refused).toEqual([expect.stringMatching(/is open in another process \(pid \d+\)/)]);
    }
  });

  test('takes over a lock left by a dead process for exactly one of several racing openers', async () => {
    const dead = await deadPid();
    for (let round = 0; round < 10; round++) {
      const dir = await freshDir();
      await writeFile(join(dir, LOCK_FILE), String(dead));
      const { won } = await settle([lockDirectory(dir, ME), lockDirectory(dir, OTHER)]);
      expect(won).toBe(1);
      const owner = Number(await readFile(join(dir, LOCK_FILE), 'utf8'));
      expect([ME, OTHER]).toContain(owner);
      // No draft or reaping file is left behind.
      expect(await readdir(dir)).toEqual([LOCK_FILE]);
    }
  });

  test('never removes an empty lock file that another process is still writing', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, LOCK_FILE), '');
    await expect(lockDirectory(dir, ME)).rejects.toThrow(/another process is writing its lock file/);
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    // Left empty long past the grace, it was a crash in that instant: taken over.
    const past = new Date(Date.now() - 60_000);
    await utimes(join(dir, LOCK_FILE), past, past);
    const release = await lockDirectory(dir, ME);
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(ME));
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  test('gives back only a lock it still owns', async () => {
    const dir = await freshDir();
    const release = await lockDirectory(dir, ME);
    // The lock changed hands (an operator removed it and another process took it).
    await writeFile(join(dir, LOCK_FILE), String(OTHER));
    await release();
    expect(await readFile(join(dir, LOCK_FILE), 'utf8')).toBe(String(OTHER));
  });

  test('refuses a second opener in the same process and lets it in once released', async () => {
    const dir = await freshDir();
    const release = await lockDirectory(dir);
    await expect(lockDirectory(dir)).rejects.toThrow(/is open already in this process/);
    await release();
    const again = await lockDirectory(dir);
    await again();
  });
});
