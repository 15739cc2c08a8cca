import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { waitUntilDead } from '../../test/helpers/process-state.js';
import {
  addRunId,
  endRunProcesses,
  findRunProcesses,
  parseProcStat,
  RUN_ID_VARIABLE,
} from './process-table.js';

describe('parseProcStat', () => {
  test('reads the process group, the session and the start time', () => {
    const line = '42 (sh) S 1 40 39 0 -1 4194304 0 0 0 0 3 4 0 0 20 0 1 0 123456 0 0';
    expect(parseProcStat(line)).toMatchObject({
      pid: 42,
      ppid: 1,
      pgrp: 40,
      session: 39,
      startTicks: 123456,
    });
  });

  test('reads the start time as NaN when the line stops before it', () => {
    expect(parseProcStat('7 (a) R 1 0 0 0 0 0 0 0 0 0 5 6 0 0')?.startTicks).toBeNaN();
  });
});

describe('addRunId', () => {
  test('keeps the ids of enclosing runs', () => {
    expect(addRunId(undefined, 'b')).toBe('b');
    expect(addRunId(' ', 'b')).toBe('b');
    expect(addRunId('a', 'b')).toBe('a b');
  });
});

describe('findRunProcesses and endRunProcesses', () => {
  test('find a process of another session by the run id in its environment, and end it', async () => {
    const runId = `test-${process.pid}-${Date.now()}`;
    // detached: the sleeper leads a session of its own, so only the run id ties it to the run.
    const sleeper = spawn('sleep', ['300'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, [RUN_ID_VARIABLE]: addRunId('outer-run', runId) },
    });
    sleeper.unref();
    const pid = sleeper.pid as number;
    // A leader whose group and session hold nobody: pid 1 started before this process and is never looked at.
    const marks = { leader: 1, runId };
    try {
      expect(findRunProcesses(marks)).toEqual([pid]);
      expect(findRunProcesses({ leader: 1, runId: `${runId}-other` })).toEqual([]);
      expect(await endRunProcesses(marks, 1000)).toEqual({ ended: [pid], survived: [] });
      expect(await waitUntilDead(pid)).toBe(true);
      expect(findRunProcesses(marks)).toEqual([]);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  test('find the processes of the command’s process group', async () => {
    const sleeper = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const pid = sleeper.pid as number;
    try {
      expect(findRunProcesses({ leader: pid, runId: 'none' })).toEqual([pid]);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
