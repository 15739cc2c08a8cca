// The usage record's size per million requests (docs/gateway.md, "Retention"): inserts N per-request rows into a
// fresh in-memory PGlite store through the gateway's own writer, reads the table's size with its indexes
// (pg_total_relation_size), then rolls every row up and reads the size of the daily rollups.
//
//   npm run build && node bench/usage-size.mjs [ROWS]      (100 000 by default)
import { migrateStore, openStore, rollUpUsage, UsageWriter } from '../dist/gateway/store/index.js';

const rows = Number(process.argv[2] ?? 100_000);
const keys = 20;
const models = ['gpt-4o-mini', 'gpt-4.1-mini', 'claude-sonnet-4-5-20250929', 'gemini-2.5-flash', 'llama3'];
const routes = ['/v1/text', '/v1/images'];
const start = Date.parse('2026-11-01T00:00:00Z');
const spanMs = 30 * 86_400_000;

const store = await openStore(':memory:');
await migrateStore(store);
const writer = new UsageWriter(store, { maxQueue: rows + 1 });
for (let index = 0; index < rows; index++) {
  const model = models[index % models.length];
  writer.add({
    request_id: globalThis.crypto.randomUUID(),
    time: new Date(start + Math.floor((index / rows) * spanMs)).toISOString(),
    trace_id: globalThis.crypto.randomUUID().replaceAll('-', ''),
    key_name: `team-${index % keys}`,
    route: routes[index % 7 === 0 ? 1 : 0],
    surface: index % 3 === 0 ? 'openai' : 'verdict',
    provider: model.startsWith('claude') ? 'anthropic' : model.startsWith('gemini') ? 'google' : 'openai',
    model,
    target: `openai:${model}`,
    attempts: 1,
    status: index % 20 === 0 ? 429 : 200,
    code: index % 20 === 0 ? 'RATE_LIMITED' : 'ok',
    latency_ms: 200 + (index % 800),
    input_tokens: 500 + (index % 3000),
    output_tokens: 50 + (index % 500),
    cost_usd: model === 'llama3' ? null : (index % 1000) / 1e6,
    cost_reason: model === 'llama3' ? 'unknown_price' : null,
  });
}
if ((await writer.flush(600_000)) !== 0) throw new Error('Some records were dropped.');
if (writer.stats.parked !== 0 || writer.stats.written !== rows) {
  throw new Error(
    `Only ${writer.stats.written} of ${rows} records were written (${writer.stats.parked} set aside).`,
  );
}

const size = async (table) => {
  const [row] = await store.query(
    `SELECT pg_total_relation_size($1)::float8 AS bytes, (SELECT count(*) FROM ${table})::float8 AS n`,
    [table],
  );
  return { bytes: Number(row.bytes), rows: Number(row.n) };
};
const perRequest = await size('verdict_usage');
const rolled = await rollUpUsage(store, new Date(start + spanMs + 31 * 86_400_000), {
  retentionDays: 30,
  batchSize: 5000,
  maxBatches: 1_000,
});
const daily = await size('verdict_usage_daily');
await store.close();

const mib = (bytes) => (bytes / 1_048_576).toFixed(1);
console.log(
  JSON.stringify({
    rows,
    usage_bytes: perRequest.bytes,
    usage_bytes_per_row: Math.round(perRequest.bytes / rows),
    usage_mib_per_million: mib((perRequest.bytes / rows) * 1e6),
    rolled_up: rolled.moved,
    daily_rows: daily.rows,
    daily_bytes: daily.bytes,
    daily_bytes_per_row: Math.round(daily.bytes / Math.max(1, daily.rows)),
  }),
);
