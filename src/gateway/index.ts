/**
 * verdict/gateway: the unified AI output as a running service — a Hono app answering every request with a
 * unified envelope (docs/gateway.md). Runs wherever a Web `fetch` handler runs; `verdict gateway` serves it on Node.
 */

export type { CacheStatus } from './cache/response-cache.js';
export { CACHE_DEFAULTS, type CacheConfig } from './config/cache-settings.js';
export {
  type ConfigCheck,
  checkCredentials,
  checkGatewayConfig,
  describeProviderVariables,
  type GatewayConfig,
  PROVIDER_TYPES,
  type ProviderSettings,
  type ProviderType,
  type ProviderVariables,
  providersFromEnv,
  providerVariables,
  ROUTE_NAMES,
  type RouteName,
  type RouteSettings,
} from './config/config.js';
export type { ConfigProblem } from './config/config-problem.js';
export { createGateway, type Gateway } from './create-gateway.js';
export type { AssetHandler, GatewayOptions } from './gateway-options.js';
export { createOpenApiDocument } from './openapi.js';
export { MODALITIES_OF, type Modality } from './providers/providers.js';
export {
  CACHE_NAMESPACE_HEADER,
  CACHE_STATUS_HEADER,
  CACHE_TTL_HEADER,
} from './routes/serve-through-cache.js';
export {
  BUDGET_PERIODS,
  type BudgetPeriod,
  createKey,
  findKeyByName,
  type GatewayStore,
  type KeyChanges,
  type KeyLimits,
  type KeyRecord,
  listKeys,
  migrateStore,
  openStore,
  queryRequests,
  queryUsage,
  revokeKey,
  StoreError,
  type StoreOptions,
  type UsageRecord,
  type UsageReport,
  updateKey,
} from './store/index.js';
