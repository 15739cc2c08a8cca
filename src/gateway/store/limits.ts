import type { BudgetPeriod, KeyRecord } from './keys.js';
import type { GatewayStore } from './open-store.js';

/** Why a request was not admitted, with the limit's values for the envelope's details. */
export type Refusal =
  | { limit: 'rpm' | 'tpm'; value: number; used: number; reset_s: number }
  | { limit: 'budget_tokens'; value: number; used: number; period: BudgetPeriod; reset_s: number | null };

/** The outcome of admission: admitted with the minute's request count, or refused by one limit. */
export type Admission =
  | { admitted: true; requests: number; reset_s: number }
  | { admitted: false; refusal: Refusal };

const MINUTE_MS = 60_000;

/** Start of the minute (UTC) holding `now`. */
export function minuteStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
}

/** Start of the budget period (UTC) holding `now`; `total` is one window since 1970. */
export function periodStart(period: BudgetPeriod, now: Date): Date {
  if (period === 'day') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (period === 'month') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return new Date(0);
}

/** Seconds until the budget period holding `now` ends, or `null` for `total`. */
export function periodResetSeconds(period: BudgetPeriod, now: Date): number | null {
  if (period === 'total') return null;
  const start = periodStart(period, now);
  const end =
    period === 'day'
      ? Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1)
      : Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}

/** True when the key has a request or token limit to check at admission. */
export function hasCountedLimits(key: KeyRecord): boolean {
  return key.rpm !== null || key.tpm !== null || key.budget_tokens !== null;
}

/**
 * Admit one request of `key`, in one statement: the minute's token count and the period's budget count are read
 * and, only when both are under their limits, the minute's request count goes up by one — and only while it is
 * under the rpm (`ON CONFLICT … DO UPDATE … WHERE`). The row lock PostgreSQL takes for the upsert serializes
 * instances, so at most `rpm` requests are admitted per minute window however many instances share the store.
 */
export async function admitRequest(store: GatewayStore, key: KeyRecord, now: Date): Promise<Admission> {
  const minute = minuteStart(now);
  const resetMinute = Math.max(1, Math.ceil((minute.getTime() + MINUTE_MS - now.getTime()) / 1000));
  const period = key.budget_period ?? 'day';
  const rows = await store.query<{ minute_tokens: number; period_tokens: number; requests: number | null }>(
    `WITH counted AS (
       SELECT
         COALESCE(MAX(used) FILTER (WHERE kind = 'tokens' AND window_start = $2), 0)::float8 AS minute_tokens,
         COALESCE(MAX(used) FILTER (WHERE kind = 'budget' AND window_start = $3), 0)::float8 AS period_tokens
       FROM verdict_counters
       WHERE key_name = $1 AND kind IN ('tokens', 'budget')
     ), admitted AS (
       INSERT INTO verdict_counters (key_name, kind, window_start, used)
       SELECT $1, 'requests', $2, 1 FROM counted
       WHERE ($4::bigint IS NULL OR minute_tokens < $4) AND ($5::bigint IS NULL OR period_tokens < $5)
       ON CONFLICT (key_name, kind, window_start) DO UPDATE SET used = verdict_counters.used + 1
         WHERE $6::bigint IS NULL OR verdict_counters.used < $6
       RETURNING used
     )
     SELECT minute_tokens, period_tokens, (SELECT used FROM admitted)::float8 AS requests FROM counted`,
    [
      key.name,
      minute.toISOString(),
      periodStart(period, now).toISOString(),
      key.tpm,
      key.budget_tokens,
      key.rpm,
    ],
  );
  const row = rows[0] ?? { minute_tokens: 0, period_tokens: 0, requests: null };
  const minuteTokens = Number(row.minute_tokens);
  const periodTokens = Number(row.period_tokens);
  if (row.requests !== null) return { admitted: true, requests: Number(row.requests), reset_s: resetMinute };
  if (key.budget_tokens !== null && periodTokens >= key.budget_tokens) {
    return {
      admitted: false,
      refusal: {
        limit: 'budget_tokens',
        value: key.budget_tokens,
        used: periodTokens,
        period,
        reset_s: periodResetSeconds(period, now),
      },
    };
  }
  if (key.tpm !== null && minuteTokens >= key.tpm) {
    return {
      admitted: false,
      refusal: { limit: 'tpm', value: key.tpm, used: minuteTokens, reset_s: resetMinute },
    };
  }
  return {
    admitted: false,
    refusal: { limit: 'rpm', value: key.rpm ?? 0, used: key.rpm ?? 0, reset_s: resetMinute },
  };
}

/**
 * Count a finished request's tokens toward the key's minute and budget period, in one statement (an upsert that
 * adds). Called once per request when its answer ends; tokens of requests still in flight are not counted yet,
 * which is the overshoot docs/gateway.md ("Teams") bounds.
 */
export async function countTokens(
  store: GatewayStore,
  key: KeyRecord,
  tokens: number,
  now: Date,
): Promise<void> {
  if (tokens <= 0 || (key.tpm === null && key.budget_tokens === null)) return;
  const period = key.budget_period ?? 'day';
  await store.query(
    `INSERT INTO verdict_counters (key_name, kind, window_start, used)
     SELECT $1, kind, window_start::timestamptz, $4 FROM (VALUES ('tokens', $2), ('budget', $3)) AS windows (kind, window_start)
     WHERE (kind = 'tokens' AND $5) OR (kind = 'budget' AND $6)
     ON CONFLICT (key_name, kind, window_start) DO UPDATE SET used = verdict_counters.used + EXCLUDED.used`,
    [
      key.name,
      minuteStart(now).toISOString(),
      periodStart(period, now).toISOString(),
      tokens,
      key.tpm !== null,
      key.budget_tokens !== null,
    ],
  );
}

/** The key's counts now: requests and tokens this minute, tokens this budget period. */
export async function readCounts(
  store: GatewayStore,
  key: KeyRecord,
  now: Date,
): Promise<{ minute_requests: number; minute_tokens: number; period_tokens: number }> {
  const rows = await store.query<Record<string, number>>(
    `SELECT
       COALESCE(MAX(used) FILTER (WHERE kind = 'requests' AND window_start = $2), 0)::float8 AS minute_requests,
       COALESCE(MAX(used) FILTER (WHERE kind = 'tokens' AND window_start = $2), 0)::float8 AS minute_tokens,
       COALESCE(MAX(used) FILTER (WHERE kind = 'budget' AND window_start = $3), 0)::float8 AS period_tokens
     FROM verdict_counters WHERE key_name = $1`,
    [key.name, minuteStart(now).toISOString(), periodStart(key.budget_period ?? 'day', now).toISOString()],
  );
  const row = rows[0] ?? {};
  return {
    minute_requests: Number(row.minute_requests ?? 0),
    minute_tokens: Number(row.minute_tokens ?? 0),
    period_tokens: Number(row.period_tokens ?? 0),
  };
}

/** Remove per-minute counters older than an hour; budget windows stay (they are the budget's history). */
export async function pruneCounters(store: GatewayStore, now: Date): Promise<void> {
  await store.query(
    `DELETE FROM verdict_counters WHERE kind IN ('requests', 'tokens') AND window_start < $1`,
    [new Date(now.getTime() - 3_600_000).toISOString()],
  );
}
