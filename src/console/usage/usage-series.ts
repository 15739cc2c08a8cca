/**
 * The Usage view's data, pure: reading `GET /v1/usage` and `GET /v1/usage/requests` envelopes (docs/gateway.md,
 * "Teams") and turning a report's series into chart lines. No DOM here, so it is tested on its own.
 */

// The report and record shapes are the gateway's own (docs/gateway.md, "Teams"), imported as types only: the
// page's bundle gets none of the store's code.
import type { UsageRecord, UsageReport, UsageTotals } from '../../gateway/store/index.js';

export type { UsageReport, UsageTotals };

/** One usage record, as `GET /v1/usage/requests` lists it. */
export type UsageRecordRow = UsageRecord;

/** What a chart draws per point. */
export const METRICS = {
  requests: { title: 'Requests', unit: 'requests', value: (t: UsageTotals) => t.requests, zeroFill: true },
  tokens: {
    title: 'Tokens',
    unit: 'tokens',
    value: (t: UsageTotals) => t.input_tokens + t.output_tokens,
    zeroFill: true,
  },
  cost: { title: 'Cost', unit: 'dollars', value: (t: UsageTotals) => t.cost_usd, zeroFill: true },
  errorRate: {
    title: 'Error rate',
    unit: '%',
    value: (t: UsageTotals) => (t.requests === 0 ? null : (100 * t.errors) / t.requests),
    zeroFill: false,
  },
  latencyP50: {
    title: 'Latency p50',
    unit: 'ms',
    value: (t: UsageTotals) => t.latency_p50_ms,
    zeroFill: false,
  },
  latencyP95: {
    title: 'Latency p95',
    unit: 'ms',
    value: (t: UsageTotals) => t.latency_p95_ms,
    zeroFill: false,
  },
} as const;

/** One of {@link METRICS}. */
export type MetricName = keyof typeof METRICS;

/** A line of a chart: a group's values at each time of the grid (`null` where it has none). */
export interface ChartLine {
  /** The group's label (`(none)` for requests without one). */
  label: string;
  /** One value per time of {@link ChartData.times}. */
  values: (number | null)[];
}

/** What a chart draws: a time grid and a few lines. */
export interface ChartData {
  /** Bucket starts, in milliseconds since 1970, ascending. */
  times: number[];
  /** The busiest groups' lines, then one for the rest when there are more. */
  lines: ChartLine[];
}

const BUCKET_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Most lines a chart draws; the other groups are summed (or left out, for rates) as "other". */
export const MAX_LINES = 5;

/** The label of a group value. */
export function groupLabel(group: string | null): string {
  return group === null || group === '' ? '(none)' : group;
}

function timeGrid(report: UsageReport): number[] {
  const step = BUCKET_MS[report.bucket];
  const from = Math.floor(Date.parse(report.from) / step) * step;
  const to = Date.parse(report.to);
  const count = Math.ceil((to - from) / step);
  if (Number.isFinite(count) && count > 0 && count <= 2000) {
    return Array.from({ length: count }, (_, index) => from + index * step);
  }
  return [...new Set(report.series.map((point) => Date.parse(point.time)))].sort((a, b) => a - b);
}

/** The lines of one metric: the busiest groups, each over the whole time grid. */
export function chartData(report: UsageReport, metric: MetricName): ChartData {
  const { value, zeroFill } = METRICS[metric];
  const times = timeGrid(report);
  const index = new Map(times.map((time, position) => [time, position]));
  const ranked = [...report.groups]
    .sort((a, b) => b.requests - a.requests)
    .map((group) => groupLabel(group.group));
  const shown = ranked.slice(0, MAX_LINES);
  const lines = new Map(
    shown.map((label) => [label, times.map(() => (zeroFill ? 0 : null)) as (number | null)[]]),
  );
  const rest = times.map(() => (zeroFill ? 0 : null)) as (number | null)[];
  let restUsed = false;
  for (const point of report.series) {
    const position = index.get(Date.parse(point.time));
    if (position === undefined) continue;
    const line = lines.get(groupLabel(point.group));
    const amount = value(point);
    if (line !== undefined) line[position] = amount;
    else if (zeroFill && amount !== null) {
      rest[position] = (rest[position] ?? 0) + amount;
      restUsed = true;
    }
  }
  const drawn = [...lines].map(([label, values]) => ({ label, values }));
  if (restUsed) drawn.push({ label: 'other', values: rest });
  return { times, lines: drawn };
}

/** A round upper bound for an axis and its tick step (1, 2 or 5 times a power of ten). */
export function niceScale(max: number, ticks = 4): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.25 };
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step =
    [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  return { top: Math.ceil(max / step) * step, step };
}

/** Round spacings of the time axis's labels, in milliseconds, per bucket width: 5 min, 10 min… 1 day, 2 days… */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ROUND_SPACINGS: Readonly<Record<'minute' | 'hour' | 'day', readonly number[]>> = {
  minute: [1, 2, 5, 10, 15, 30, 60, 120].map((n) => n * MINUTE),
  hour: [1, 2, 3, 6, 12, 24].map((n) => n * HOUR),
  day: [1, 2, 7, 14].map((n) => n * DAY),
};

/**
 * The positions of `times` (bucket starts, oldest first, in ms) that get a label on the time axis: those at a
 * round time (a multiple of 10 minutes, of 3 hours, of a day… in UTC), spaced so that at most `most` are drawn.
 */
export function timeTicks(times: readonly number[], bucket: 'minute' | 'hour' | 'day', most = 6): number[] {
  const spacings = ROUND_SPACINGS[bucket];
  const first = times[0] ?? 0;
  const last = times.at(-1) ?? 0;
  const count = (spacing: number) => Math.floor(last / spacing) - Math.ceil(first / spacing) + 1;
  const spacing = spacings.find((candidate) => count(candidate) <= most) ?? (spacings.at(-1) as number);
  const ticks: number[] = [];
  times.forEach((time, index) => {
    if (time % spacing === 0) ticks.push(index);
  });
  return ticks;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The report in a `/v1/usage` envelope, or why there is none. */
export function readUsageReport(
  body: unknown,
): { ok: true; report: UsageReport } | { ok: false; problem: string } {
  if (!isObject(body)) return { ok: false, problem: 'The answer is not an envelope.' };
  if (body.success !== true) {
    const error = isObject(body.error) ? body.error : {};
    return {
      ok: false,
      problem: `${String(error.code ?? 'ERROR')}: ${String(error.message ?? 'no message')}`,
    };
  }
  const usage = isObject(body.metadata) ? body.metadata.usage : undefined;
  if (
    !isObject(usage) ||
    !Array.isArray(usage.series) ||
    !Array.isArray(usage.groups) ||
    !isObject(usage.totals)
  ) {
    return { ok: false, problem: 'The envelope carries no usage report (metadata.usage).' };
  }
  return { ok: true, report: usage as unknown as UsageReport };
}

/** The records and next cursor in a `/v1/usage/requests` envelope, or why there are none. */
export function readRequestPage(
  body: unknown,
): { ok: true; requests: UsageRecordRow[]; next: string | null } | { ok: false; problem: string } {
  if (!isObject(body)) return { ok: false, problem: 'The answer is not an envelope.' };
  if (body.success !== true) {
    const error = isObject(body.error) ? body.error : {};
    return {
      ok: false,
      problem: `${String(error.code ?? 'ERROR')}: ${String(error.message ?? 'no message')}`,
    };
  }
  const metadata = isObject(body.metadata) ? body.metadata : {};
  if (!Array.isArray(metadata.requests)) return { ok: false, problem: 'The envelope carries no requests.' };
  return {
    ok: true,
    requests: metadata.requests as UsageRecordRow[],
    next: typeof metadata.next_cursor === 'string' ? metadata.next_cursor : null,
  };
}

/**
 * Dollars for people: cents above a dollar, three significant digits below (a call costs fractions of a cent).
 * @example formatDollars(0.00030081) // "$0.000301"
 */
export function formatDollars(usd: number): string {
  if (usd === 0) return '$0';
  if (Math.abs(usd) >= 1) return `$${usd.toFixed(2)}`;
  const decimals = Math.min(12, 2 - Math.floor(Math.log10(Math.abs(usd))));
  return `$${usd.toFixed(decimals)}`;
}

/** A number for people: 1234567 → "1.2M", 0.00042 → "0.00042" (dollars of a call are that small). */
export function compactNumber(value: number): string {
  // Below 1, two significant digits: one decimal would draw every tick of a cost axis as "0.0".
  if (value !== 0 && Math.abs(value) < 1) return String(Number(value.toPrecision(2)));
  if (Math.abs(value) >= 1e9) return `${(value / 1e9).toFixed(1)}G`;
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (Math.abs(value) >= 1e4) return `${(value / 1e3).toFixed(0)}k`;
  if (Math.abs(value) >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
