import type { GatewayStore } from './open-store.js';

/** One versioned step of the store's schema; applied once, in order, never edited after release. */
export interface Migration {
  /** Increasing from 1. */
  version: number;
  /** What the step does. */
  name: string;
  /** Statements run in one transaction. */
  statements: readonly string[];
}

/**
 * The schema, step by step. Keys hold only a SHA-256 hash of the key; counters hold one row per key, kind and
 * window (`requests` and `tokens` per minute, `budget` and `spend` per budget period); leases hold the slices of
 * those limits instances took; usage holds one row per request, keyed by a request id so that a retried batch
 * writes each row once, and one row per day, key, provider, model, route and surface once past the retention.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'keys, counters and usage',
    statements: [
      `CREATE TABLE verdict_keys (
        name text PRIMARY KEY,
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        rpm integer,
        tpm bigint,
        budget_tokens bigint,
        budget_period text,
        routes jsonb,
        models jsonb,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`,
      `CREATE TABLE verdict_counters (
        key_name text NOT NULL,
        kind text NOT NULL,
        window_start timestamptz NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (key_name, kind, window_start)
      )`,
      `CREATE TABLE verdict_usage (
        request_id text PRIMARY KEY,
        time timestamptz NOT NULL,
        trace_id text NOT NULL,
        key_name text,
        route text NOT NULL,
        provider text,
        model text,
        target text,
        attempts integer NOT NULL,
        status integer NOT NULL,
        code text NOT NULL,
        latency_ms integer NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL
      )`,
      'CREATE INDEX verdict_usage_time ON verdict_usage (time)',
      'CREATE INDEX verdict_usage_key_time ON verdict_usage (key_name, time)',
      'CREATE INDEX verdict_usage_trace ON verdict_usage (trace_id)',
    ],
  },
  {
    version: 2,
    name: 'the client surface of each usage record',
    statements: ["ALTER TABLE verdict_usage ADD COLUMN surface text NOT NULL DEFAULT 'verdict'"],
  },
  {
    version: 3,
    name: 'cost of each request, budgets in dollars, daily rollups',
    statements: [
      // A row written before prices has no cost: sums count it as unpriced, as they count a call without a price.
      'ALTER TABLE verdict_usage ADD COLUMN cost_usd double precision',
      'ALTER TABLE verdict_usage ADD COLUMN cost_reason text',
      'ALTER TABLE verdict_keys ADD COLUMN budget_usd double precision',
      // What admitted calls may still cost, in nanodollars, until they settle or expire (a crashed instance's).
      `CREATE TABLE verdict_reservations (
        id text PRIMARY KEY,
        key_name text NOT NULL,
        amount bigint NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX verdict_reservations_key ON verdict_reservations (key_name, expires_at)',
      // Requests past the retention, summed per UTC day, key, provider, model and route ('' for none).
      `CREATE TABLE verdict_usage_daily (
        day date NOT NULL,
        key_name text NOT NULL,
        provider text NOT NULL,
        model text NOT NULL,
        route text NOT NULL,
        requests bigint NOT NULL,
        errors bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cost_usd double precision NOT NULL,
        unpriced bigint NOT NULL,
        PRIMARY KEY (day, key_name, provider, model, route)
      )`,
    ],
  },
  {
    version: 4,
    name: 'the response cache, and whether a usage record was answered from it',
    statements: [
      `CREATE TABLE verdict_cache (
        key text PRIMARY KEY,
        answer text NOT NULL,
        bytes integer NOT NULL,
        stored_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX verdict_cache_expires ON verdict_cache (expires_at)',
      'CREATE INDEX verdict_cache_stored ON verdict_cache (stored_at)',
      'ALTER TABLE verdict_usage ADD COLUMN cache text',
    ],
  },
  {
    version: 5,
    name: "leases: slices of a key's limits that an instance admits against on its own",
    statements: [
      // One row per key, instance, kind (`tokens`, `budget`, `spend`) and window: what the instance holds and has
      // not consumed yet (tokens, or nanodollars for `spend`); it counts against the limit until it expires.
      `CREATE TABLE verdict_leases (
        key_name text NOT NULL,
        instance text NOT NULL,
        kind text NOT NULL,
        window_start timestamptz NOT NULL,
        amount bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_name, instance, kind, window_start)
      )`,
      'CREATE INDEX verdict_leases_key ON verdict_leases (key_name, kind, window_start)',
      'CREATE INDEX verdict_leases_expires ON verdict_leases (expires_at)',
    ],
  },
  {
    version: 6,
    name: 'the client surface of each daily rollup',
    statements: [
      "ALTER TABLE verdict_usage_daily ADD COLUMN IF NOT EXISTS surface text NOT NULL DEFAULT 'verdict'",
      'ALTER TABLE verdict_usage_daily DROP CONSTRAINT verdict_usage_daily_pkey',
      'ALTER TABLE verdict_usage_daily ADD PRIMARY KEY (day, key_name, provider, model, route, surface)',
    ],
  },
  {
    version: 7,
    name: 'the dollars a cache hit saved',
    statements: [
      'ALTER TABLE verdict_usage ADD COLUMN cost_saved_usd double precision',
      'ALTER TABLE verdict_usage_daily ADD COLUMN cost_saved_usd double precision NOT NULL DEFAULT 0',
    ],
  },
];

/** Any fixed number: instances migrating at once take turns on this advisory lock. */
const MIGRATION_LOCK = 7_305_024;

/** What {@link migrateStore} did. */
export interface MigrationReport {
  /** Versions applied now. */
  applied: number[];
  /** The schema version after the run. */
  version: number;
}

/**
 * Apply the migrations the store lacks, in one transaction under an advisory lock, so instances starting together
 * on one PostgreSQL apply each step once.
 */
export async function migrateStore(store: GatewayStore): Promise<MigrationReport> {
  return store.transaction(async (query) => {
    await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await query(
      `CREATE TABLE IF NOT EXISTS verdict_schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const rows = await query<{ version: number }>('SELECT version FROM verdict_schema_migrations');
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements) await query(statement);
      await query('INSERT INTO verdict_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return { applied, version: Math.max(0, ...done, ...applied) };
  });
}
