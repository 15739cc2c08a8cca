import type { GatewayStore } from './open-store.js';

/**
 * Retention of the usage record (docs/gateway.md, "Retention"): per-request rows older than the retention are
 * summed into `verdict_usage_daily` (per UTC day, key, provider, model, route and surface) and deleted, in small batches,
 * each one transaction, so writers are never held for long and a batch is either moved whole or not at all.
 */

/** Any fixed number: the instance holding this advisory lock runs the batch; the others skip it. */
const ROLLUP_LOCK = 7_305_025;

/** What one run of {@link rollUpUsage} did. */
export interface RollUpReport {
  /** `false` when another instance held the lock, so this one did nothing. */
  ran: boolean;
  /** Per-request rows moved into the daily rollups and deleted. */
  moved: number;
  /** Batches run. */
  batches: number;
}

/** How a run goes. */
export interface RollUpOptions {
  /** Per-request rows older than this many days are rolled up (30 by default). */
  retentionDays?: number | undefined;
  /** Rows per batch (1 000). */
  batchSize?: number | undefined;
  /** Most batches per run (100): a backlog is worked off over several runs. */
  maxBatches?: number | undefined;
}

// One statement per batch: the oldest rows past the cutoff, locked (rows another transaction holds are skipped),
// deleted, and their sums added to the day's rollup.
const MOVE_BATCH = `WITH batch AS (
    SELECT request_id FROM verdict_usage WHERE time < $1 ORDER BY time LIMIT $2 FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM verdict_usage AS usage USING batch WHERE usage.request_id = batch.request_id
    RETURNING usage.time, usage.key_name, usage.provider, usage.model, usage.route, usage.surface, usage.code,
      usage.input_tokens, usage.output_tokens, usage.cost_usd, usage.cost_saved_usd
  ), rolled AS (
    INSERT INTO verdict_usage_daily AS daily (day, key_name, provider, model, route, surface, requests, errors,
      input_tokens, output_tokens, cost_usd, unpriced, cost_saved_usd)
    SELECT (time AT TIME ZONE 'UTC')::date, COALESCE(key_name, ''), COALESCE(provider, ''), COALESCE(model, ''), route,
      surface, count(*), count(*) FILTER (WHERE code <> 'ok'), COALESCE(sum(input_tokens), 0), COALESCE(sum(output_tokens), 0),
      COALESCE(sum(cost_usd), 0), count(*) FILTER (WHERE cost_usd IS NULL), COALESCE(sum(cost_saved_usd), 0)
    FROM gone GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (day, key_name, provider, model, route, surface) DO UPDATE SET
      requests = daily.requests + EXCLUDED.requests,
      errors = daily.errors + EXCLUDED.errors,
      input_tokens = daily.input_tokens + EXCLUDED.input_tokens,
      output_tokens = daily.output_tokens + EXCLUDED.output_tokens,
      cost_usd = daily.cost_usd + EXCLUDED.cost_usd,
      unpriced = daily.unpriced + EXCLUDED.unpriced,
      cost_saved_usd = daily.cost_saved_usd + EXCLUDED.cost_saved_usd
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::float8 AS moved`;

/**
 * Roll up and delete the per-request rows older than the retention, batch by batch, each batch under a
 * transaction-level advisory lock: when instances run it at once, one moves each batch and the others stop.
 */
export async function rollUpUsage(
  store: GatewayStore,
  now: Date,
  options: RollUpOptions = {},
): Promise<RollUpReport> {
  const retentionDays = options.retentionDays ?? 30;
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 100;
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  const report: RollUpReport = { ran: false, moved: 0, batches: 0 };
  while (report.batches < maxBatches) {
    const moved = await store.transaction(async (query) => {
      const [lock] = await query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        ROLLUP_LOCK,
      ]);
      if (lock?.locked !== true) return undefined;
      const [row] = await query<{ moved: number }>(MOVE_BATCH, [cutoff, batchSize]);
      return Number(row?.moved ?? 0);
    });
    if (moved === undefined) return report;
    report.ran = true;
    report.batches++;
    report.moved += moved;
    if (moved < batchSize) break;
  }
  return report;
}
