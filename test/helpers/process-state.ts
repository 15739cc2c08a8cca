import { readFileSync } from 'node:fs';

/** True while a Linux process exists and is not a zombie waiting for its parent (or init) to reap it. */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
