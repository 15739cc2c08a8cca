import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import { parseProcStat } from '../producer/process-table.js';
import { renderResult } from '../producer/render.js';
import type { CommandDefinition, OptionSpecs } from '../producer/types.js';
import { errnoOf } from './fs-failure.js';

export { parseProcStat };

const options = {
  name: {
    type: 'string',
    description: 'Keep processes whose name or executable contains this text (case-insensitive).',
    valueName: 'TEXT',
  },
  limit: {
    type: 'integer',
    description: 'Return at most this many processes (lowest pids first).',
    default: 100,
    min: 1,
    valueName: 'N',
  },
} as const satisfies OptionSpecs;

/** Process states of `/proc/[pid]/stat` field 3 (proc(5)), with their names. */
export const PROCESS_STATES = {
  R: 'running',
  S: 'sleeping',
  D: 'disk_sleep',
  Z: 'zombie',
  T: 'stopped',
  t: 'tracing_stop',
  X: 'dead',
  x: 'dead',
  I: 'idle',
  K: 'wakekill',
  W: 'waking',
  P: 'parked',
} as const;

/** One process as `/proc` describes it; a fact that could not be read is absent. */
export interface ProcessInfo {
  /** Process id. */
  pid: number;
  /** Parent process id. */
  ppid: number;
  /** Kernel name of the process (`comm`, at most 15 bytes). */
  name: string;
  /** State letter from proc(5). */
  state: string;
  /** Readable state, when the letter is known. */
  state_name?: string;
  /** Arguments, from `/proc/[pid]/cmdline`; absent for kernel threads and unreadable entries. */
  args?: string[];
  /** The arguments joined with spaces, for people. */
  command_line?: string;
  /** Resident memory in bytes (`VmRSS`); absent for kernel threads. */
  rss_bytes?: number;
  /** User plus system CPU time consumed, in milliseconds. */
  cpu_time_ms: number;
}

// proc(5) counts utime/stime in clock ticks of sysconf(_SC_CLK_TCK); Linux fixes USER_HZ at 100 on every
// architecture Node.js runs on (only alpha differs), so a tick is 10 ms.
const MS_PER_TICK = 10;

/** Where and on what platform `listProcesses` runs; tests point it at a fake `/proc` or another platform. */
export interface ProcessSource {
  /** `process.platform` or a stand-in. */
  platform: NodeJS.Platform;
  /** The proc file system root. */
  procRoot: string;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function readProcess(procRoot: string, pid: string): Promise<ProcessInfo | undefined> {
  const stat = await readOptional(join(procRoot, pid, 'stat'));
  const parsed = stat === undefined ? undefined : parseProcStat(stat);
  // A process that ended between the listing and the read is simply no longer there.
  if (parsed === undefined) return undefined;
  const cmdline = await readOptional(join(procRoot, pid, 'cmdline'));
  const args = cmdline?.split('\0').filter((arg, i, all) => arg !== '' || i < all.length - 1);
  const status = await readOptional(join(procRoot, pid, 'status'));
  const rssKb = status?.match(/^VmRSS:\s+(\d+)\s+kB$/m)?.[1];
  const info: ProcessInfo = {
    pid: parsed.pid,
    ppid: parsed.ppid,
    name: parsed.name,
    state: parsed.state,
    cpu_time_ms: parsed.cpuTicks * MS_PER_TICK,
  };
  if (Object.hasOwn(PROCESS_STATES, parsed.state)) {
    info.state_name = PROCESS_STATES[parsed.state as keyof typeof PROCESS_STATES];
  }
  if (args !== undefined && args.length > 0) {
    info.args = args;
    info.command_line = args.join(' ');
  }
  if (rssKb !== undefined) info.rss_bytes = Number(rssKb) * 1024;
  return info;
}

function matchesName(info: ProcessInfo, needle: string): boolean {
  const executable = info.args?.[0]?.split('/').pop() ?? '';
  return info.name.toLowerCase().includes(needle) || executable.toLowerCase().includes(needle);
}

/** Builds the `listProcesses` command over a process source (the real `/proc` by default). */
export function createListProcesses(
  source: ProcessSource = { platform: process.platform, procRoot: '/proc' },
): CommandDefinition<typeof options> {
  return defineCommand({
    name: 'listProcesses',
    description:
      'Lists running processes with pid, parent pid, name, command line, state, resident memory and CPU time, ' +
      'read from Linux /proc.',
    options,
    errorCodes: {
      unsupported_platform: 'The platform has no Linux /proc (macOS, Windows, …).',
      proc_unavailable: 'The /proc file system cannot be read.',
    },
    outputSchema: {
      type: 'object',
      required: ['processes', 'count', 'total_matching', 'truncated'],
      properties: {
        processes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['pid', 'ppid', 'name', 'state', 'cpu_time_ms'],
            properties: {
              pid: { type: 'integer', minimum: 0 },
              ppid: { type: 'integer', minimum: 0 },
              name: { type: 'string' },
              state: { type: 'string', description: 'State letter from proc(5).' },
              state_name: { type: 'string', enum: [...new Set(Object.values(PROCESS_STATES))] },
              args: { type: 'array', items: { type: 'string' } },
              command_line: { type: 'string' },
              rss_bytes: { type: 'integer', minimum: 0 },
              cpu_time_ms: { type: 'number', minimum: 0 },
            },
          },
        },
        count: { type: 'integer', minimum: 0 },
        total_matching: { type: 'integer', minimum: 0, description: 'Matching processes before --limit.' },
        truncated: { type: 'boolean' },
      },
    },
    async run({ options: opts }, ctx) {
      if (source.platform !== 'linux') {
        return fail(`listProcesses reads Linux /proc and is not available on ${source.platform}.`, {
          error_code: 'unsupported_platform',
          platform: source.platform,
        });
      }
      let entries: string[];
      try {
        entries = await readdir(source.procRoot);
      } catch (error) {
        return fail(`${source.procRoot} cannot be read; is the proc file system mounted?`, {
          error_code: 'proc_unavailable',
          error: error instanceof Error ? error.message : (errnoOf(error) ?? String(error)),
          path: source.procRoot,
        });
      }
      const pids = entries.filter((entry) => /^\d+$/.test(entry)).sort((a, b) => Number(a) - Number(b));
      const needle = opts.name?.toLowerCase();
      const processes: ProcessInfo[] = [];
      let total = 0;
      for (const pid of pids) {
        ctx.signal.throwIfAborted();
        const info = await readProcess(source.procRoot, pid);
        if (info === undefined || (needle !== undefined && !matchesName(info, needle))) continue;
        total += 1;
        if (processes.length < opts.limit) processes.push(info);
      }
      const filter = opts.name === undefined ? '' : ` matching "${opts.name}"`;
      const shown = total > processes.length ? ` (showing the first ${processes.length})` : '';
      return ok(`${total} process${total === 1 ? '' : 'es'}${filter}${shown}.`, {
        processes,
        count: processes.length,
        total_matching: total,
        truncated: total > processes.length,
      });
    },
    // For people: one table with the short facts first and the command line last, where it is cut to fit.
    render: (result, context) =>
      renderResult(result, context, {
        columns: { processes: ['pid', 'ppid', 'state', 'rss_bytes', 'cpu_time_ms', 'name', 'command_line'] },
        omit: ['count'],
      }),
  });
}

/** Lists the processes of this Linux machine from `/proc`. */
export const listProcesses = createListProcesses();
