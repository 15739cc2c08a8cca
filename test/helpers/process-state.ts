import { readdirSync, readFileSync } from 'node:fs';

/** True while a Linux process exists and is not a zombie waiting for its parent (or init) to reap it. */
export function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits up to `ms` for a process to die (a signal is delivered at once, but dying takes a moment). */
export async function waitUntilDead(pid: number, ms = 5000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (isAlive(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Pids of the live (not zombie) processes in a process group or a session with this id, from Linux /proc. */
export function membersOf(id: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // After the name: state, ppid, pgrp, session (proc(5) fields 3–6).
        const [state, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && (Number(pgrp) === id || Number(session) === id);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Waits up to `ms` for a process group and session to have no live member left; returns those still there. */
export async function waitUntilGroupGone(id: number, ms = 5000): Promise<number[]> {
  const deadline = performance.now() + ms;
  let members = membersOf(id);
  while (members.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    members = membersOf(id);
  }
  return members;
}

/** Waits up to `ms` for a file to hold a line of text (a pid a child wrote), and returns that text. */
export async function waitForText(path: string, ms = 10_000): Promise<string> {
  const deadline = performance.now() + ms;
  for (;;) {
    try {
      const text = readFileSync(path, 'utf8');
      if (text.endsWith('\n')) return text.trim();
    } catch {
      // Not written yet.
    }
    if (performance.now() > deadline) throw new Error(`${path} was not written within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
