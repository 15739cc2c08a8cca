import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** True while a Linux process exists and is not a zombie waiting for its parent (or init) to reap it. */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Waits up to `ms` for a process to die (a signal is delivered at once, but dying takes a moment); the
 * generous default only matters when the process never dies, so a busy machine cannot fail a good run.
 */
export async function waitUntilDead(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (isAlive(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Resolves once a file holds a complete line (a child wrote its pid): a readiness signal, not a delay. */
export async function whenWritten(path: string, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return;
    if (performance.now() > deadline) throw new Error(`${path} was not written within ${ms} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
