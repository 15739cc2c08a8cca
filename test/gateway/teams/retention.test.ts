import { describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import {
  type GatewayStore,
  rollUpUsage,
  type UsageRecord,
  UsageWriter,
} from '../../../src/gateway/store/index.js';
import { useReplay } from '../use-replay.js';
import { useThreeInstances } from './use-three-instances.js';

// Retention and daily rollups on a stopped clock (docs/gateway.md, "Retention"), on PGlite and on an embedded
// PostgreSQL with three instances running the job at once.
const replay = useReplay();
const NOW = new Date('2026-12-01T12:00:00.000Z');
const DAY = 86_400_000;
const { stores } = useThreeInstances();

/** `count` records, one every `stepMs` back from `NOW`, over two keys and models; every seventh unpriced. */
function records(count: number, stepMs: number): UsageRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    request_id: `r-${stepMs}-${index}`,
    time: new Date(NOW.getTime() - (index + 1) * stepMs).toISOString(),
    trace_id: `t-${index}`,
    key_name: index % 2 === 0 ? 'team-a' : null,
    route: '/v1/text',
    surface: index % 4 === 0 ? 'openai' : 'verdict',
    provider: 'openai',
    model: index % 3 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
    target: 'openai:gpt-4o-mini',
    attempts: 1,
    status: index % 5 === 0 ? 429 : 200,
    code: index % 5 === 0 ? 'RATE_LIMITED' : 'ok',
    latency_ms: 100,
    input_tokens: 10 + index,
    output_tokens: 3,
    cost_usd: index % 7 === 0 ? null : (index + 1) / 1e6,
    cost_reason: index % 7 === 0 ? 'unknown_price' : null,
  }));
}

/** Sums of the per-request rows and of the rollups, by day and key, to compare. */
async function sums(store: GatewayStore, table: 'verdict_usage' | 'verdict_usage_daily') {
  const select =
    table === 'verdict_usage'
      ? `SELECT (time AT TIME ZONE 'UTC')::date::text AS day, COALESCE(key_name, '') AS key, count(*)::float8 AS requests,
           (count(*) FILTER (WHERE code <> 'ok'))::float8 AS errors, sum(input_tokens)::float8 AS input_tokens,
           COALESCE(sum(cost_usd), 0)::float8 AS cost_usd, (count(*) FILTER (WHERE cost_usd IS NULL))::float8 AS unpriced
         FROM verdict_usage WHERE time < $1 GROUP BY 1, 2 ORDER BY 1, 2`
      : `SELECT day::text AS day, key_name AS key, sum(requests)::float8 AS requests, sum(errors)::float8 AS errors,
           sum(input_tokens)::float8 AS input_tokens, sum(cost_usd)::float8 AS cost_usd,
           sum(unpriced)::float8 AS unpriced
         FROM verdict_usage_daily WHERE $1::timestamptz IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`;
  const rows = await store.query<Record<string, number | string>>(select, [
    new Date(NOW.getTime() - 30 * DAY).toISOString(),
  ]);
  return rows.map((row) => ({ ...row, cost_usd: Math.round(Number(row.cost_usd) * 1e9) }));
}

describe.each(['pglite', 'postgres'] as const)('retention on %s', (kind) => {
  test('rows past the retention become daily rollups and are deleted, in batches; newer rows stay', async () => {
    const [store] = stores[kind] as [GatewayStore];
    await store.query('TRUNCATE verdict_usage, verdict_usage_daily');
    const writer = new UsageWriter(store);
    // 300 records, one every 4 hours back to 50 days: the 180 of the last 30 days stay (one exactly at the
    // cutoff among them), the 120 before are moved.
    for (const record of records(300, 4 * 3_600_000)) writer.add(record);
    expect(await writer.flush(60_000)).toBe(0);
    const before = await sums(store, 'verdict_usage');
    const report = await rollUpUsage(store, NOW, { retentionDays: 30, batchSize: 7 });
    expect(report).toMatchObject({ ran: true, moved: 120 });
    expect(report.batches).toBe(Math.ceil(120 / 7));
    expect(await sums(store, 'verdict_usage_daily')).toEqual(before);
    const [left] = await store.query<{ oldest: string; n: number }>(
      'SELECT min(time) AS oldest, count(*)::int AS n FROM verdict_usage',
    );
    expect(Number(left?.n)).toBe(180);
    expect(new Date(left?.oldest as string).getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 30 * DAY);
    // A second run finds nothing to move.
    expect(await rollUpUsage(store, NOW, { retentionDays: 30 })).toMatchObject({ ran: true, moved: 0 });
  }, 120_000);

  test('three instances running the job at once move every row exactly once', async () => {
    const list = stores[kind];
    await (list[0] as GatewayStore).query('TRUNCATE verdict_usage, verdict_usage_daily');
    const writer = new UsageWriter(list[0] as GatewayStore);
    for (const record of records(400, 3 * 3_600_000)) writer.add(record);
    expect(await writer.flush(60_000)).toBe(0);
    const before = await sums(list[0] as GatewayStore, 'verdict_usage');
    // Each instance keeps going until a batch is short or another holds the lock.
    const reports = await Promise.all(
      list.map(async (store) => {
        let total = 0;
        for (let run = 0; run < 50; run++) {
          const report = await rollUpUsage(store, NOW, { retentionDays: 30, batchSize: 5, maxBatches: 3 });
          total += report.moved;
          if (report.ran && report.moved < 15) break;
        }
        return total;
      }),
    );
    expect(reports.reduce((sum, moved) => sum + moved, 0)).toBe(160);
    expect(await sums(list[0] as GatewayStore, 'verdict_usage_daily')).toEqual(before);
  }, 120_000);
});

test('the gateway runs the job on its own, with the configured retention', async () => {
  const [store] = stores.pglite as [GatewayStore];
  await store.query('TRUNCATE verdict_usage, verdict_usage_daily');
  const writer = new UsageWriter(store);
  for (const record of records(10, DAY)) writer.add(record);
  expect(await writer.flush(60_000)).toBe(0);
  // The clock jumps past the ten-minute pruning interval between start-up and the first answer.
  let clock = NOW.getTime();
  const gateway = createGateway({
    providers: replay().providers() as GatewayOptions['providers'],
    store,
    adminKey: 'admin-key-of-the-tests-0123456789',
    usageRetentionDays: 3,
    storeClock: () => new Date(clock),
  });
  clock += 11 * 60_000;
  await gateway.request('/v1/models', {
    headers: { authorization: 'Bearer admin-key-of-the-tests-0123456789' },
  });
  await expect
    .poll(
      async () =>
        (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM verdict_usage_daily'))[0]?.n,
    )
    .toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const [row] = await store.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM verdict_usage WHERE time < $1`,
        [new Date(clock - 3 * DAY).toISOString()],
      );
      return Number(row?.n);
    })
    .toBe(0);
  expect(await gateway.flush()).toBe(0);
}, 120_000);

describe.each(['pglite', 'postgres'] as const)('/v1/usage past the retention on %s', (kind) => {
  test('90 days of usage answer the same totals before and after the rollup, per surface too', async () => {
    const [store] = stores[kind] as [GatewayStore];
    await store.query('TRUNCATE verdict_usage, verdict_usage_daily');
    const writer = new UsageWriter(store);
    // One record every 6 hours back to 75 days.
    for (const record of records(300, 6 * 3_600_000)) writer.add(record);
    expect(await writer.flush(60_000)).toBe(0);
    const gateway = createGateway({
      providers: replay().providers() as GatewayOptions['providers'],
      store,
      adminKey: 'admin-key-of-the-tests-0123456789',
      // An hour on: the records of the usage requests themselves fall after the range asked for.
      storeClock: () => new Date(NOW.getTime() + 3_600_000),
    });
    const from = new Date(NOW.getTime() - 90 * DAY).toISOString();
    const usage = async (groupBy: string) => {
      const answer = await gateway.request(
        `/v1/usage?from=${from}&to=${NOW.toISOString()}&group_by=${groupBy}&bucket=day`,
        { headers: { authorization: 'Bearer admin-key-of-the-tests-0123456789' } },
      );
      expect(answer.status).toBe(200);
      return (await answer.json()).metadata.usage;
    };
    // Latency percentiles are of per-request rows only: the rollups keep counts and sums.
    const counts = ({
      requests,
      errors,
      input_tokens,
      output_tokens,
      cost_usd,
      unpriced,
    }: Record<string, number>) => ({
      requests,
      errors,
      input_tokens,
      output_tokens,
      cost_usd: Math.round((cost_usd ?? 0) * 1e9),
      unpriced,
    });
    const before = await usage('surface');
    expect(before.totals.requests).toBe(300);
    const report = await rollUpUsage(store, NOW, { retentionDays: 30 });
    expect(report.moved).toBeGreaterThan(150);
    const after = await usage('surface');
    expect(counts(after.totals)).toEqual(counts(before.totals));
    const bySurface = (list: (Record<string, number> & { group: string })[]) =>
      Object.fromEntries(list.map((group) => [group.group, counts(group)]));
    expect(bySurface(after.groups)).toEqual(bySurface(before.groups));
    expect(Object.keys(bySurface(after.groups)).sort()).toEqual(['openai', 'verdict']);
    // Per key and per model the sums hold as well; a rolled-up day is one point at its start.
    for (const groupBy of ['key', 'model']) {
      const grouped = await usage(groupBy);
      expect(
        grouped.groups.reduce((sum: number, group: { requests: number }) => sum + group.requests, 0),
      ).toBe(300);
    }
    // The daily series counts the rolled-up days too.
    const seriesRequests = (series: { requests: number }[]) =>
      series.reduce((sum, point) => sum + point.requests, 0);
    expect(seriesRequests(after.series)).toBe(300);
    expect(await gateway.flush()).toBe(0);
  }, 120_000);
});
