import { fromBase64Url, toBase64Url } from '../../unified/base64.js';
import { hasControlCharacter } from '../basics/plain-id.js';
import type { GatewayStore } from './open-store.js';
import type { UsageRecord } from './usage-writer.js';

/** What usage can be grouped by. */
export const USAGE_GROUPS = ['key', 'provider', 'model', 'route', 'surface', 'code'] as const;

/** One of {@link USAGE_GROUPS}. */
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** Widths of a time series' buckets. */
export const USAGE_BUCKETS = ['minute', 'hour', 'day'] as const;

/** One of {@link USAGE_BUCKETS}. */
export type UsageBucket = (typeof USAGE_BUCKETS)[number];

/** Counts of a set of requests. */
export interface UsageTotals {
  /** Requests. */
  requests: number;
  /** Requests that ended in a failure. */
  errors: number;
  /** Input tokens. */
  input_tokens: number;
  /** Output tokens. */
  output_tokens: number;
  /** Dollars, over the requests that have a price (docs/gateway.md, "Prices"). */
  cost_usd: number;
  /** Requests without a price (`cost_usd` leaves them out): an unknown model, usage the provider did not report. */
  unpriced: number;
  /** Dollars the response cache saved: what the answers its hits replayed cost when they were made. */
  cost_saved_usd: number;
  /** Median latency in milliseconds (`null` without requests). */
  latency_p50_ms: number | null;
  /** 95th percentile latency in milliseconds. */
  latency_p95_ms: number | null;
  /** 99th percentile latency in milliseconds. */
  latency_p99_ms: number | null;
}

/** Usage over a range: totals, totals per group, and a time series per group. */
export interface UsageReport {
  /** The range asked for (ISO 8601), start included, end excluded. */
  from: string;
  /** End of the range. */
  to: string;
  /** The grouping. */
  group_by: UsageGroup;
  /** The width of the series' buckets. */
  bucket: UsageBucket;
  /** Everything in the range. */
  totals: UsageTotals;
  /** Totals per group value (`null` for requests without one, such as refused keys), busiest first. */
  groups: (UsageTotals & { group: string | null })[];
  /** One point per bucket and group value that has requests, in time order. */
  series: (UsageTotals & { time: string; group: string | null })[];
}

/** Most series points one report answers. */
export const MAX_SERIES_POINTS = 5000;

/**
 * The requests of the range `[$1, $2)`: per-request rows, and the daily rollups of the days past the retention
 * (docs/gateway.md, "Retention"), each counted at the start of its UTC day, without a code or a latency. A request
 * is in one of the two tables, never both: the rollup job moves it in one transaction.
 */
const IN_RANGE = `WITH counted AS (
  SELECT time, key_name, provider, model, route, surface, code, 1 AS requests,
    CASE WHEN code <> 'ok' THEN 1 ELSE 0 END AS errors, input_tokens, output_tokens, cost_usd,
    CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END AS unpriced, cost_saved_usd, latency_ms
  FROM verdict_usage WHERE time >= $1::timestamptz AND time < $2::timestamptz
  UNION ALL
  SELECT day::timestamp AT TIME ZONE 'UTC', NULLIF(key_name, ''), NULLIF(provider, ''), NULLIF(model, ''), route,
    surface, NULL, requests, errors, input_tokens, output_tokens, cost_usd, unpriced, cost_saved_usd, NULL
  FROM verdict_usage_daily
  WHERE day::timestamp AT TIME ZONE 'UTC' >= $1::timestamptz AND day::timestamp AT TIME ZONE 'UTC' < $2::timestamptz
)`;

const AGGREGATES = `COALESCE(sum(requests), 0)::float8 AS requests,
  COALESCE(sum(errors), 0)::float8 AS errors,
  COALESCE(sum(input_tokens), 0)::float8 AS input_tokens,
  COALESCE(sum(output_tokens), 0)::float8 AS output_tokens,
  COALESCE(sum(cost_usd), 0)::float8 AS cost_usd,
  COALESCE(sum(unpriced), 0)::float8 AS unpriced,
  COALESCE(sum(cost_saved_usd), 0)::float8 AS cost_saved_usd,
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms))::float8 AS latency_p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms))::float8 AS latency_p95_ms,
  (percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms))::float8 AS latency_p99_ms`;

// The grouping column is picked by a parameter inside the statement: no SQL is built from request input.
const GROUP = `CASE $3::text WHEN 'key' THEN key_name WHEN 'provider' THEN provider WHEN 'model' THEN model
  WHEN 'route' THEN route WHEN 'surface' THEN surface ELSE code END`;

function totalsOf(row: Record<string, unknown>): UsageTotals {
  const maybe = (value: unknown) =>
    value === null || value === undefined ? null : Math.round(Number(value));
  return {
    requests: Number(row.requests ?? 0),
    errors: Number(row.errors ?? 0),
    input_tokens: Number(row.input_tokens ?? 0),
    output_tokens: Number(row.output_tokens ?? 0),
    // Twelve decimals, as each cost is given: a sum of doubles carries binary noise past them.
    cost_usd: Math.round(Number(row.cost_usd ?? 0) * 1e12) / 1e12,
    unpriced: Number(row.unpriced ?? 0),
    cost_saved_usd: Math.round(Number(row.cost_saved_usd ?? 0) * 1e12) / 1e12,
    latency_p50_ms: maybe(row.latency_p50_ms),
    latency_p95_ms: maybe(row.latency_p95_ms),
    latency_p99_ms: maybe(row.latency_p99_ms),
  };
}

/**
 * Usage between `from` and `to`, grouped and bucketed, over per-request rows and, past the retention, the daily
 * rollups; the series is cut at {@link MAX_SERIES_POINTS}.
 */
export async function queryUsage(
  store: GatewayStore,
  range: { from: Date; to: Date; groupBy: UsageGroup; bucket: UsageBucket },
): Promise<UsageReport> {
  const params = [range.from.toISOString(), range.to.toISOString(), range.groupBy];
  const [totals, groups, series] = await Promise.all([
    store.query(`${IN_RANGE} SELECT ${AGGREGATES} FROM counted WHERE $3::text IS NOT NULL`, params),
    store.query(
      `${IN_RANGE} SELECT ${GROUP} AS grp, ${AGGREGATES} FROM counted GROUP BY grp ORDER BY requests DESC LIMIT 200`,
      params,
    ),
    store.query(
      `${IN_RANGE} SELECT date_trunc($4::text, time, 'UTC') AS bucket, ${GROUP} AS grp, ${AGGREGATES}
       FROM counted GROUP BY bucket, grp ORDER BY bucket, grp LIMIT ${MAX_SERIES_POINTS}`,
      [...params, range.bucket],
    ),
  ]);
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    group_by: range.groupBy,
    bucket: range.bucket,
    totals: totalsOf(totals[0] ?? {}),
    groups: groups.map((row) => ({ group: (row.grp as string | null) ?? null, ...totalsOf(row) })),
    series: series.map((row) => ({
      time: new Date(row.bucket as string).toISOString(),
      group: (row.grp as string | null) ?? null,
      ...totalsOf(row),
    })),
  };
}

/** Filters of a page of usage records; all optional. */
export interface RequestFilter {
  /** Records of this key name. */
  key?: string | undefined;
  /** Records ending with this code (`ok` for successes). */
  code?: string | undefined;
  /** Records of this trace id. */
  trace_id?: string | undefined;
  /** Records at or after this time. */
  from?: Date | undefined;
  /** Records before this time. */
  to?: Date | undefined;
}

/** A page of records, newest first, and the cursor of the next page (`null` on the last). */
export interface RequestPage {
  /** The records. */
  requests: UsageRecord[];
  /** Pass as `cursor` for the next page. */
  next_cursor: string | null;
}

function encodeCursor(record: UsageRecord): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify([record.time, record.request_id])));
}

/** The position a cursor names, or `undefined` for a cursor this gateway did not give. */
export function decodeCursor(cursor: string): { time: string; request_id: string } | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  const bytes = fromBase64Url(cursor);
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [time, id]: unknown[] = value;
    if (typeof time !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(time)))
      return undefined;
    if (hasControlCharacter(id)) return undefined;
    return { time, request_id: id };
  } catch {
    return undefined;
  }
}

function toRecord(row: Record<string, unknown>): UsageRecord {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    request_id: String(row.request_id),
    time: new Date(row.time as string).toISOString(),
    trace_id: String(row.trace_id),
    key_name: text(row.key_name),
    route: String(row.route),
    surface: String(row.surface ?? 'verdict'),
    provider: text(row.provider),
    model: text(row.model),
    target: text(row.target),
    attempts: Number(row.attempts),
    status: Number(row.status),
    code: String(row.code),
    latency_ms: Number(row.latency_ms),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    cost_usd: row.cost_usd === null || row.cost_usd === undefined ? null : Number(row.cost_usd),
    cost_reason: text(row.cost_reason),
    cache: text(row.cache),
    cost_saved_usd:
      row.cost_saved_usd === null || row.cost_saved_usd === undefined ? null : Number(row.cost_saved_usd),
  };
}

/** A page of usage records, newest first, filtered; `limit` is 1 to 500. */
export async function queryRequests(
  store: GatewayStore,
  filter: RequestFilter,
  page: { limit: number; cursor?: { time: string; request_id: string } | undefined },
): Promise<RequestPage> {
  const limit = Math.min(500, Math.max(1, Math.trunc(page.limit)));
  const rows = await store.query(
    `SELECT * FROM verdict_usage
     WHERE ($1::text IS NULL OR key_name = $1) AND ($2::text IS NULL OR code = $2)
       AND ($3::text IS NULL OR trace_id = $3)
       AND ($4::timestamptz IS NULL OR time >= $4) AND ($5::timestamptz IS NULL OR time < $5)
       AND ($6::timestamptz IS NULL OR (time, request_id) < ($6::timestamptz, $7::text))
     ORDER BY time DESC, request_id DESC
     LIMIT $8`,
    [
      filter.key ?? null,
      filter.code ?? null,
      filter.trace_id ?? null,
      filter.from?.toISOString() ?? null,
      filter.to?.toISOString() ?? null,
      page.cursor?.time ?? null,
      page.cursor?.request_id ?? null,
      limit + 1,
    ],
  );
  const records = rows.slice(0, limit).map(toRecord);
  const last = records.at(-1);
  return {
    requests: records,
    next_cursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
  };
}
