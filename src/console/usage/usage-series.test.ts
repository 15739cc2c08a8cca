import { describe, expect, test } from 'vitest';
import {
  chartData,
  compactNumber,
  formatDollars,
  niceScale,
  readUsageReport,
  type UsageReport,
} from './usage-series.js';

const totals = (requests: number, errors = 0, latency: number | null = 10) => ({
  requests,
  errors,
  input_tokens: requests * 10,
  output_tokens: requests,
  cost_usd: requests * 0.002,
  unpriced: 0,
  cost_saved_usd: 0,
  latency_p50_ms: latency,
  latency_p95_ms: latency,
  latency_p99_ms: latency,
});

const report: UsageReport = {
  from: '2026-12-01T10:00:00.000Z',
  to: '2026-12-01T10:03:00.000Z',
  group_by: 'key',
  bucket: 'minute',
  totals: totals(9, 2),
  groups: [
    { group: 'team-b', ...totals(2) },
    { group: 'team-a', ...totals(6, 2) },
    { group: null, ...totals(1) },
  ],
  series: [
    { time: '2026-12-01T10:00:00.000Z', group: 'team-a', ...totals(4, 2) },
    { time: '2026-12-01T10:02:00.000Z', group: 'team-a', ...totals(2) },
    { time: '2026-12-01T10:01:00.000Z', group: 'team-b', ...totals(2) },
    { time: '2026-12-01T10:01:00.000Z', group: null, ...totals(1) },
  ],
};

describe('chartData', () => {
  test('counts fill empty buckets with zero, busiest group first', () => {
    const data = chartData(report, 'requests');
    expect(data.times).toHaveLength(3);
    expect(data.lines).toEqual([
      { label: 'team-a', values: [4, 0, 2] },
      { label: 'team-b', values: [0, 2, 0] },
      { label: '(none)', values: [0, 1, 0] },
    ]);
  });

  test('rates leave a gap where a group has no requests', () => {
    const data = chartData(report, 'errorRate');
    expect(data.lines[0]).toEqual({ label: 'team-a', values: [50, null, 0] });
  });

  test('groups beyond the fifth are summed as "other" for counts', () => {
    const many: UsageReport = {
      ...report,
      groups: Array.from({ length: 7 }, (_, index) => ({ group: `k${index}`, ...totals(10 - index) })),
      series: Array.from({ length: 7 }, (_, index) => ({
        time: '2026-12-01T10:00:00.000Z',
        group: `k${index}`,
        ...totals(10 - index),
      })),
    };
    const data = chartData(many, 'requests');
    expect(data.lines.map((line) => line.label)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'other']);
    expect(data.lines.at(-1)?.values[0]).toBe(5 + 4);
  });
});

describe('compactNumber', () => {
  test('keeps two significant digits below 1, so the ticks of a cost axis differ', () => {
    expect([0.002, 0.004, 0.006].map(compactNumber)).toEqual(['0.002', '0.004', '0.006']);
    expect(compactNumber(0.000123)).toBe('0.00012');
    expect(compactNumber(0)).toBe('0');
    expect(compactNumber(2.5)).toBe('2.5');
    expect(compactNumber(1234567)).toBe('1.2M');
  });
});

describe('niceScale', () => {
  test('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceScale(7)).toEqual({ top: 8, step: 2 });
    expect(niceScale(730)).toEqual({ top: 800, step: 200 });
    expect(niceScale(0)).toEqual({ top: 1, step: 0.25 });
  });
});

describe('readUsageReport', () => {
  test('names the failure of a refused request', () => {
    const read = readUsageReport({
      success: false,
      error: { code: 'PERMISSION_DENIED', message: 'Use the admin key.' },
    });
    expect(read).toEqual({ ok: false, problem: 'PERMISSION_DENIED: Use the admin key.' });
  });
  test('reads the report of a success', () => {
    expect(readUsageReport({ success: true, metadata: { usage: report } })).toEqual({ ok: true, report });
  });
});

describe('formatDollars', () => {
  test('cents above a dollar, three significant digits below, never an exponent', () => {
    expect(formatDollars(12.345)).toBe('$12.35');
    expect(formatDollars(0.00030081)).toBe('$0.000301');
    expect(formatDollars(0.0000001)).toBe('$0.000000100');
    expect(formatDollars(0)).toBe('$0');
  });
});
