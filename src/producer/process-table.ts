import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from '../sleep.js';

/** One line of `/proc/[pid]/stat`, the fields verdict reads (numbered as in proc(5)). */
export interface ProcStat {
  /** Field 1: process id. */
  pid: number;
  /** Field 2: kernel name (`comm`). */
  name: string;
  /** Field 3: state letter (`Z` for a zombie). */
  state: string;
  /** Field 4: parent process id. */
  ppid: number;
  /** Field 5: process group id. */
  pgrp: number;
  /** Field 6: session id. */
  session: number;
  /** Fields 14 + 15: user plus system CPU time, in clock ticks. */
  cpuTicks: number;
  /** Field 22: start time after boot, in clock ticks; NaN when the line is too short to hold it. */
  startTicks: number;
}

/** Parses `/proc/[pid]/stat`; the name sits between the first `(` and the last `)` and may hold spaces. */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // Fields after the name, numbered from 3 (state) as in proc(5).
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const field = (n: number) => Number(rest[n - 3]);
  const pid = Number(text.slice(0, open).trim());
  const state = rest[0];
  if (!Number.isInteger(pid) || state === undefined || rest.length < 13) return undefined;
  return {
    pid,
    name: text.slice(open + 1, close),
    state,
    ppid: field(4),
    pgrp: field(5),
    session: field(6),
    cpuTicks: field(14) + field(15),
    startTicks: field(22),
  };
}

/**
 * The environment variable every command that `verdict run` starts carries: the ids of the runs it belongs
 * to, separated by spaces (an inner `verdict run` adds its own after the outer one's). Descendants inherit
 * it, so it still names them after they leave the process group and session (`setsid`, a double fork).
 */
export const RUN_ID_VARIABLE = 'VERDICT_RUN_ID';

/** Adds `runId` to the run ids an environment already carries in {@link RUN_ID_VARIABLE}. */
export function addRunId(inherited: string | undefined, runId: string): string {
  return inherited === undefined || inherited.trim() === '' ? runId : `${inherited.trim()} ${runId}`;
}

/** What marks the processes of one run. */
export interface RunMarks {
  /** Pid of the command: its process group and its session carry this id (it was started with setsid). */
  leader: number;
  /** The run's id in {@link RUN_ID_VARIABLE}. */
  runId: string;
}

function readStat(pid: number | 'self'): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

function carriesRunId(pid: number, runId: string): boolean {
  let environ: string;
  try {
    // Another user's process cannot be read unless verdict runs as root: it stays invisible (docs/run.md).
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return false;
  }
  const prefix = `${RUN_ID_VARIABLE}=`;
  const entry = environ.split('\0').find((variable) => variable.startsWith(prefix));
  return entry?.slice(prefix.length).split(' ').includes(runId) ?? false;
}

/** One process found: its pid and start time, which together name it even if the pid is later reused. */
interface FoundProcess {
  pid: number;
  startTicks: number;
}

const isLive = (stat: ProcStat) => stat.state !== 'Z' && stat.state !== 'X' && stat.state !== 'x';

/**
 * True when a process is gone, a zombie (it has ended; only its parent's wait is missing), or its pid now
 * belongs to another process (another start time).
 */
function hasEnded(found: FoundProcess): boolean {
  const stat = readStat(found.pid);
  return stat === undefined || !isLive(stat) || !sameStart(stat.startTicks, found.startTicks);
}

const sameStart = (a: number, b: number) => (Number.isNaN(a) && Number.isNaN(b)) || a === b;

/**
 * The live processes of a run, read from Linux `/proc`: those in the command's process group or session, and
 * those whose environment carries the run's id. Undefined where `/proc` cannot be read (not Linux).
 * Only processes started after verdict itself are looked at, since a run's processes cannot be older.
 */
export function findRunProcesses(marks: RunMarks): number[] | undefined {
  return scanRunProcesses(marks)?.map((found) => found.pid);
}

function scanRunProcesses(marks: RunMarks): FoundProcess[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const since = readStat('self')?.startTicks ?? Number.NaN;
  const found: FoundProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const stat = readStat(pid);
    if (stat === undefined || !isLive(stat) || stat.startTicks < since) continue;
    if (stat.pgrp === marks.leader || stat.session === marks.leader || carriesRunId(pid, marks.runId)) {
      found.push({ pid, startTicks: stat.startTicks });
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** What {@link endRunProcesses} did. */
export interface EndedProcesses {
  /** Processes that ended after verdict signalled them. */
  ended: number[];
  /** Processes still running after SIGKILL (another user's, or in uninterruptible sleep). */
  survived: number[];
}

function signalProcess(found: FoundProcess, signal: NodeJS.Signals): boolean {
  // Checked again right before the signal: a pid that ended and was reused names someone else now.
  if (hasEnded(found)) return true;
  try {
    process.kill(found.pid, signal);
    return true;
  } catch (error) {
    // ESRCH: it ended meanwhile, which is what was wanted. EPERM: it belongs to someone else now.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function waitForEnd(processes: readonly FoundProcess[], ms: number): Promise<FoundProcess[]> {
  const deadline = Date.now() + ms;
  let alive = processes.filter((found) => !hasEnded(found));
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(10);
    alive = alive.filter((found) => !hasEnded(found));
  }
  return alive;
}

const MAX_ROUNDS = 5;

/**
 * Ends every live process of a run: SIGTERM, then SIGKILL for those still there after `graceMs`. It looks
 * again after each round, since a process may start another before it ends, for at most five rounds.
 * Undefined where `/proc` cannot be read.
 */
export async function endRunProcesses(marks: RunMarks, graceMs: number): Promise<EndedProcesses | undefined> {
  const ended = new Set<number>();
  const survived = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const found = scanRunProcesses(marks)?.filter(({ pid }) => !survived.has(pid));
    if (found === undefined) return round === 0 ? undefined : { ended: [...ended], survived: [...survived] };
    if (found.length === 0) break;
    const signalled = found.filter((each) => signalProcess(each, 'SIGTERM'));
    for (const { pid } of found) if (!signalled.some((each) => each.pid === pid)) survived.add(pid);
    const stubborn = await waitForEnd(signalled, graceMs);
    for (const each of stubborn) signalProcess(each, 'SIGKILL');
    const left = new Set((await waitForEnd(stubborn, graceMs)).map(({ pid }) => pid));
    for (const { pid } of signalled) (left.has(pid) ? survived : ended).add(pid);
  }
  return { ended: [...ended].sort((a, b) => a - b), survived: [...survived].sort((a, b) => a - b) };
}

/** Sends SIGKILL to every live process of a run at once, without waiting (for verdict's own exit). */
export function killRunProcesses(marks: RunMarks): void {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const found = scanRunProcesses(marks);
    if (found === undefined || found.length === 0) return;
    for (const each of found) signalProcess(each, 'SIGKILL');
  }
}
