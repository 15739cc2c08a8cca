import { readFileSync } from 'node:fs';

/** True while a Linux process exists and is not a zombie waiting for its parent (or init) to reap it. */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits up to `ms` for a process to die (a signal is delivered at once, but dying takes a moment). */
export async function waitUntilDead(pid: number, ms = 2000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (isAlive(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
