/**
 * The gateway's store (docs/gateway.md, "Teams"): keys with limits, leases of those limits, and the usage record, in
 * PostgreSQL (`pg`) or PGlite, with versioned migrations.
 */
export {
  type BudgetRefusal,
  pruneReservations,
  type Reservation,
  readSpend,
  reserveSpend,
  type SpendNow,
  settleSpend,
} from './budgets.js';
export {
  KeyLeases,
  type KeyLeasesOptions,
  LEASE_PARTS,
  LEASE_TTL_MS,
  type LeaseReservation,
} from './key-leases.js';
export {
  BUDGET_PERIODS,
  type BudgetPeriod,
  checkKeyInput,
  createKey,
  findKeyByName,
  findKeyBySecret,
  hashKey,
  type KeyChanges,
  type KeyLimits,
  type KeyProblem,
  type KeyRecord,
  listKeys,
  revokeKey,
  updateKey,
} from './keys.js';
export {
  type Consumption,
  exchangeLeases,
  type LeaseAnswer,
  type LeaseExchange,
  type LeaseState,
  POOLED_KINDS,
  type PooledKind,
  pruneLeases,
} from './leases.js';
export { type Admission, type Refusal, readCounts } from './limits.js';
export { MIGRATIONS, type Migration, type MigrationReport, migrateStore } from './migrate-store.js';
export {
  type GatewayStore,
  isPostgresUrl,
  openStore,
  redactStoreUrl,
  StoreError,
  type StoreOptions,
} from './open-store.js';
export {
  queryRequests,
  queryUsage,
  type RequestFilter,
  type RequestPage,
  USAGE_BUCKETS,
  USAGE_GROUPS,
  type UsageBucket,
  type UsageGroup,
  type UsageReport,
  type UsageTotals,
} from './query-usage.js';
export { type RollUpOptions, type RollUpReport, rollUpUsage } from './roll-up-usage.js';
export {
  type UsageRecord,
  UsageWriter,
  type UsageWriterOptions,
  type UsageWriterStats,
} from './usage-writer.js';
