import { z } from 'zod';
import { ROUTE_NAMES, type RouteName } from '../basics/route-table.js';

/**
 * The response cache's settings (docs/gateway.md, "Cache"): the `cache` member of a configuration, and the
 * settings the gateway runs with once the defaults are filled in.
 */

/** The routes whose answers the cache can keep; the others always answer `x-verdict-cache: bypass`. */
export const CACHEABLE_ROUTES = ['text', 'embeddings'] as const satisfies readonly RouteName[];

/** How far an entry is shared: between the requests of one key (the default), or of every key. */
export const CACHE_SHARING = ['key', 'gateway'] as const;

/** Longest TTL a configuration or a request may ask for, in seconds (30 days). */
export const MAX_CACHE_TTL_S = 2_592_000;

const positiveInt = z.number().int().positive();

/** The schema of the configuration's `cache` member. */
export const cacheConfigSchema = z.strictObject({
  enabled: z.boolean().optional(),
  ttl_s: positiveInt.max(MAX_CACHE_TTL_S).optional(),
  max_entry_bytes: positiveInt.optional(),
  max_memory_bytes: positiveInt.optional(),
  max_store_bytes: positiveInt.optional(),
  share: z.enum(CACHE_SHARING).optional(),
  routes: z.partialRecord(z.enum(ROUTE_NAMES), z.boolean()).optional(),
  aliases: z.record(z.string(), z.boolean()).optional(),
});

/** The configuration's `cache` member: present (and not `enabled: false`) turns the cache on. */
export type CacheConfig = z.infer<typeof cacheConfigSchema>;

/** The cache's settings with every default filled in. */
export interface CacheSettings {
  /** How long an entry answers, in seconds, unless a request asks for less or more. */
  readonly ttlS: number;
  /** Largest entry kept, in bytes of its JSON; a larger answer is served but not kept. */
  readonly maxEntryBytes: number;
  /** Bytes of entries each instance keeps in memory; the least recently used go first. */
  readonly maxMemoryBytes: number;
  /** Bytes of entries the store keeps; the oldest are removed in the background past it. */
  readonly maxStoreBytes: number;
  /** Who shares an entry. */
  readonly share: (typeof CACHE_SHARING)[number];
  /** Routes turned off (`routes: {text: false}`). */
  readonly routesOff: ReadonlySet<string>;
  /** Aliases turned off or on by name; an alias not named follows the gateway. */
  readonly aliases: Readonly<Record<string, boolean>>;
}

/** The defaults of {@link CacheSettings}: 5 minutes, 1 MiB entries, 64 MiB per instance, 1 GiB in the store. */
export const CACHE_DEFAULTS = {
  ttlS: 300,
  maxEntryBytes: 1024 * 1024,
  maxMemoryBytes: 64 * 1024 * 1024,
  maxStoreBytes: 1024 * 1024 * 1024,
} as const;

/** The settings of a configuration's `cache` member, or `undefined` when the cache is off. */
export function resolveCacheSettings(config: CacheConfig | undefined): CacheSettings | undefined {
  if (config === undefined || config.enabled === false) return undefined;
  return {
    ttlS: config.ttl_s ?? CACHE_DEFAULTS.ttlS,
    maxEntryBytes: config.max_entry_bytes ?? CACHE_DEFAULTS.maxEntryBytes,
    maxMemoryBytes: config.max_memory_bytes ?? CACHE_DEFAULTS.maxMemoryBytes,
    maxStoreBytes: config.max_store_bytes ?? CACHE_DEFAULTS.maxStoreBytes,
    share: config.share ?? 'key',
    routesOff: new Set(
      Object.entries(config.routes ?? {})
        .filter(([, on]) => on === false)
        .map(([route]) => route),
    ),
    aliases: config.aliases ?? {},
  };
}
