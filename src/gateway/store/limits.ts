import type { BudgetPeriod, KeyRecord } from './keys.js';
import type { GatewayStore } from './open-store.js';

/** Why a request was not admitted, with the limit's values for the envelope's details. */
export type Refusal =
  | { limit: 'rpm' | 'tpm'; value: number; used: number; reset_s: number }
  | { limit: 'budget_tokens'; value: number; used: number; period: BudgetPeriod; reset_s: number | null };

/**
 * The outcome of admission (docs/gateway.md, "Leases"): admitted with the minute's request count as this instance
 * knows it, or refused by one limit.
 */
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
