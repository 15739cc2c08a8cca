import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { invokeCommand } from '../../test/helpers/invoke-command.js';
import { createListProcesses, listProcesses, type ProcessInfo, parseProcStat } from './list-processes.js';

let fakeProc: string;

// Two processes with names that break naive parsing, a kernel thread without cmdline and a vanished pid.
beforeAll(async () => {
  fakeProc = await mkdtemp(join(tmpdir(), 'verdict-proc-'));
  const add = async (pid: number, stat: string, cmdline?: string, status?: string) => {
    await mkdir(join(fakeProc, String(pid)));
    await writeFile(join(fakeProc, String(pid), 'stat'), stat);
    if (cmdline !== undefined) await writeFile(join(fakeProc, String(pid), 'cmdline'), cmdline);
    if (status !== undefined) await writeFile(join(fakeProc, String(pid), 'status'), status);
  };
  const tail = '0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0';
  await add(
    10,
    `10 (my (odd) app) S 1 10 10 0 -1 4194304 0 0 0 0 150 50 ${tail}\n`,
    'node\0server.js\0',
    'Name:\tmy (odd) app\nVmRSS:\t    2048 kB\n',
  );
  await add(2, `2 (kthreadd) S 0 0 0 0 -1 0 0 0 0 0 0 0 ${tail}\n`, '', 'Name:\tkthreadd\n');
  await add(
    300,
    `300 (web worker) R 10 10 10 0 -1 0 0 0 0 0 7 3 ${tail}\n`,
    '/usr/bin/nginx\0-g\0\0',
    'VmRSS:\t1 kB\n',
  );
  await mkdir(join(fakeProc, '999'));
  await mkdir(join(fakeProc, 'self'));
});

afterAll(() => rm(fakeProc, { recursive: true, force: true }));

const fake = () => createListProcesses({ platform: 'linux', procRoot: fakeProc });

describe('listProcesses', () => {
  test('lists the real processes of this machine, including this one', async () => {
    const result = await invokeCommand(listProcesses, { limit: 100_000 });
    expect(result.success).toBe(true);
    const self = (result.processes as ProcessInfo[]).find((p) => p.pid === process.pid);
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid, state: expect.any(String) });
    expect(self?.rss_bytes).toBeGreaterThan(1024 * 1024);
    expect(self?.args?.[0]).toContain('node');
  });

  test('parses /proc entries in pid order, omitting what a kernel thread does not have', async () => {
    const result = await invokeCommand(fake(), {});
    expect(result).toMatchObject({ count: 3, total_matching: 3, truncated: false });
    expect(result.processes).toEqual([
      { pid: 2, ppid: 0, name: 'kthreadd', state: 'S', state_name: 'sleeping', cpu_time_ms: 0 },
      {
        pid: 10,
        ppid: 1,
        name: 'my (odd) app',
        state: 'S',
        state_name: 'sleeping',
        args: ['node', 'server.js'],
        command_line: 'node server.js',
        rss_bytes: 2048 * 1024,
        cpu_time_ms: 2000,
      },
      {
        pid: 300,
        ppid: 10,
        name: 'web worker',
        state: 'R',
        state_name: 'running',
        args: ['/usr/bin/nginx', '-g', ''],
        command_line: '/usr/bin/nginx -g ',
        rss_bytes: 1024,
        cpu_time_ms: 100,
      },
    ]);
  });

  test('filters by name or executable, case-insensitively', async () => {
    expect((await invokeCommand(fake(), { name: 'ODD' })).count).toBe(1);
    const byExecutable = await invokeCommand(fake(), { name: 'nginx' });
    expect((byExecutable.processes as ProcessInfo[]).map((p) => p.pid)).toEqual([300]);
    expect(await invokeCommand(fake(), { name: 'absent' })).toMatchObject({ success: true, count: 0 });
  });

  test('stops at --limit and says truncated', async () => {
    const result = await invokeCommand(fake(), { limit: 2 });
    expect(result).toMatchObject({ count: 2, total_matching: 3, truncated: true });
  });

  test('reports unsupported_platform outside Linux', async () => {
    const result = await invokeCommand(createListProcesses({ platform: 'darwin', procRoot: '/proc' }), {});
    expect(result).toMatchObject({ success: false, error_code: 'unsupported_platform', platform: 'darwin' });
  });

  test('reports proc_unavailable when /proc cannot be read', async () => {
    const missing = join(fakeProc, 'not-mounted');
    const result = await invokeCommand(createListProcesses({ platform: 'linux', procRoot: missing }), {});
    expect(result).toMatchObject({ success: false, error_code: 'proc_unavailable', path: missing });
  });
});

describe('parseProcStat', () => {
  test('takes the name up to the last parenthesis', () => {
    expect(parseProcStat('7 (a) b) (c) R 1 0 0 0 0 0 0 0 0 0 5 6 0 0')).toMatchObject({
      pid: 7,
      name: 'a) b) (c',
      state: 'R',
      ppid: 1,
      cpuTicks: 11,
    });
  });

  test('rejects a truncated line', () => {
    expect(parseProcStat('7 (a) R 1')).toBeUndefined();
    expect(parseProcStat('garbage')).toBeUndefined();
  });
});
