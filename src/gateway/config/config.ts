import { z } from 'zod';
import { isJsonObject } from '../../contract/findings.js';
import { pointerOf } from '../../json/json-pointer.js';
import { PROVIDER_ID_PATTERN } from '../../unified/validate-unified-output.js';
import { PACKAGED_TYPE_NAMES } from '../ai-sdk/packaged-types.js';
import { hasControlCharacter, MAX_ID_LENGTH } from '../basics/plain-id.js';
import { ROUTE_NAMES, type RouteName } from '../basics/route-table.js';
import { type CacheConfig, cacheConfigSchema } from './cache-settings.js';
import { type ConfigProblem, problemsOf } from './config-problem.js';
import { OTLP_PROTOCOLS, type OtelConfig } from './otel-settings.js';
import { checkPrices, type ModelPrices, pricesSchema } from './price-settings.js';
import {
  ALL_PROVIDER_TYPES,
  enablingSets,
  isEnabled,
  KNOWN_COMPATIBLE,
  PROVIDER_ENV,
  PROVIDER_TYPES,
  type ProviderType,
} from './provider-variables.js';

// The routes that call providers come from the route table; each may have its own timeout and retries.
export { ROUTE_NAMES, type RouteName } from '../basics/route-table.js';
export {
  ALL_PROVIDER_TYPES,
  describeProviderVariables,
  KNOWN_COMPATIBLE,
  PROVIDER_ENV,
  PROVIDER_TYPES,
  type ProviderType,
  type ProviderVariables,
  providerVariables,
} from './provider-variables.js';

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

const providerSchema = z.strictObject({
  type: z.enum([...PROVIDER_TYPES, ...PACKAGED_TYPE_NAMES]).optional(),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: envName.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  api: z.enum(['chat', 'responses']).optional(),
});

const routeSchema = z.strictObject({
  timeoutMs: positiveInt.optional(),
  retries: nonNegativeInt.max(10).optional(),
  maxBodyBytes: positiveInt.optional(),
});

const upstreamSchema = z.strictObject({
  maxResponseBytes: positiveInt.optional(),
  maxStreamBytes: positiveInt.optional(),
  maxEventBytes: positiveInt.optional(),
  maxStreamEvents: positiveInt.optional(),
  firstByteTimeoutMs: positiveInt.optional(),
  maxInFlightBytes: positiveInt.optional(),
  reuseConnections: z
    .boolean()
    .optional()
    .describe('Keep provider connections alive between requests (false: one request per connection).'),
  allowDownloadAddresses: z
    .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))
    .max(256)
    .optional()
    .describe('Internal addresses or CIDR ranges downloads named by a provider may reach.'),
});

const otelSchema = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  tracesEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  metricsEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  protocol: z.enum(OTLP_PROTOCOLS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  serviceName: z.string().min(1).optional(),
  resourceAttributes: z.record(z.string(), z.string()).optional(),
  captureContent: z.boolean().optional(),
  latestConventions: z.boolean().optional(),
});

const targetSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*:.+$/, 'must be provider:model')
  .max(MAX_ID_LENGTH)
  .refine((value) => !hasControlCharacter(value), 'must not hold control characters');
const aliasSchema = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .refine((value) => !hasControlCharacter(value), 'must not hold control characters');

/** The schema a configuration (file or object) is checked against; every problem is reported at once. */
export const gatewayConfigSchema = z.strictObject({
  providers: z.record(z.string(), providerSchema).optional(),
  aliases: z.record(aliasSchema, z.union([targetSchema, z.array(targetSchema).min(1)])).optional(),
  routes: z.partialRecord(z.enum(ROUTE_NAMES), routeSchema).optional(),
  timeoutMs: positiveInt.optional(),
  retries: nonNegativeInt.max(10).optional(),
  retryBaseMs: nonNegativeInt.optional(),
  maxRetryAfterMs: nonNegativeInt.optional(),
  concurrency: positiveInt.optional(),
  queue: nonNegativeInt.optional(),
  maxBodyBytes: positiveInt.optional(),
  keys: z.array(z.string().min(16, 'gateway keys must be at least 16 characters')).optional(),
  keysEnv: envName.optional(),
  cors: z.strictObject({ origins: z.array(z.string().min(1)).min(1) }).optional(),
  logContent: z.boolean().optional(),
  shutdownGraceMs: nonNegativeInt.optional(),
  videoPollMs: positiveInt.optional(),
  demoPaceMs: nonNegativeInt.max(1000).optional(),
  upstream: upstreamSchema.optional(),
  otel: otelSchema.optional(),
  maxConnections: positiveInt.optional(),
  headersTimeoutMs: positiveInt.optional(),
  bodyTimeoutMs: positiveInt.optional(),
  prices: pricesSchema.optional(),
  usageRetentionDays: positiveInt.max(36_500).optional(),
  cache: cacheConfigSchema.optional(),
});

/** How to reach one provider. */
export interface ProviderSettings {
  /** Which AI SDK provider package speaks to it; by default the id when it names one, else `openai-compatible`. */
  type?: ProviderType | undefined;
  /** Base URL of its API (the tests point it at local replay servers). */
  baseURL?: string | undefined;
  /** The API key itself (programmatic use; a config file names a variable with `apiKeyEnv` instead). */
  apiKey?: string | undefined;
  /** Environment variable holding the API key; by default the provider's usual one (`OPENAI_API_KEY`…). */
  apiKeyEnv?: string | undefined;
  /** Extra headers sent with every call. */
  headers?: Record<string, string> | undefined;
  /** OpenAI and Azure only: Chat Completions (`chat`, the default) or the Responses API. */
  api?: 'chat' | 'responses' | undefined;
}

/** Limits of one route. */
export interface RouteSettings {
  /** Deadline of the whole request (all attempts and fallbacks), in milliseconds. */
  timeoutMs?: number | undefined;
  /** Retries of one target after its first attempt. */
  retries?: number | undefined;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes?: number | undefined;
}

/** The gateway's configuration: the shape of a config file, also accepted by `createGateway`. */
export interface GatewayConfig {
  /** Providers by id (the id is the envelope's `provider`); by default one per provider whose key variable is set. */
  providers?: Record<string, ProviderSettings> | undefined;
  /** Model aliases: a name for one `provider:model` target or a list tried in order (fallbacks). */
  aliases?: Record<string, string | string[]> | undefined;
  /** Per-route limits, over the defaults below. */
  routes?: Partial<Record<RouteName, RouteSettings>> | undefined;
  /** Default deadline of a request in milliseconds (60 000; videos 600 000). */
  timeoutMs?: number | undefined;
  /** Default retries of one target after its first attempt (2). */
  retries?: number | undefined;
  /** First backoff delay in milliseconds, doubled on each retry, with jitter (250). */
  retryBaseMs?: number | undefined;
  /** Longest `retry-after` the gateway waits for; a longer one ends the retries of that target (20 000). */
  maxRetryAfterMs?: number | undefined;
  /** Provider requests served at once (64). */
  concurrency?: number | undefined;
  /** Requests waiting for a place; past that the answer is `RATE_LIMITED` with `retry-after` (256). */
  queue?: number | undefined;
  /** Largest request body in bytes (1 MiB; transcriptions 25 MiB). */
  maxBodyBytes?: number | undefined;
  /** Gateway keys clients must send as `Authorization: Bearer …`; none means no authentication. */
  keys?: string[] | undefined;
  /** Environment variable holding comma-separated gateway keys (`VERDICT_GATEWAY_KEYS` when unset). */
  keysEnv?: string | undefined;
  /** Origins allowed by CORS; CORS is off when absent. */
  cors?: { origins: string[] } | undefined;
  /** Log prompt and output text (off by default). */
  logContent?: boolean | undefined;
  /** OpenTelemetry export over OTLP/HTTP, over the OTEL_* variables (docs/gateway.md, "OpenTelemetry"). */
  otel?: OtelConfig | undefined;
  /** How long a graceful stop waits for requests in flight, in milliseconds (10 000). */
  shutdownGraceMs?: number | undefined;
  /** Milliseconds between two status checks of a video job (2 000). */
  videoPollMs?: number | undefined;
  /** Milliseconds between two words the demo provider streams (0: at once; `verdict gateway --demo` sets 60). */
  demoPaceMs?: number | undefined;
  /** Bounds of every provider answer (docs/gateway.md, "Bounds"). */
  upstream?: UpstreamSettings | undefined;
  /** Connections open at once; `verdict gateway` refuses more (1 024). */
  maxConnections?: number | undefined;
  /** Longest wait for a request's headers, in milliseconds; `verdict gateway` then answers 408 (10 000). */
  headersTimeoutMs?: number | undefined;
  /** Longest wait for a request's body, in milliseconds; then the answer is `REQUEST_TIMEOUT` (30 000). */
  bodyTimeoutMs?: number | undefined;
  /** Prices by `provider:model`, over the bundled price table (docs/gateway.md, "Prices"). */
  prices?: Record<string, ModelPrices> | undefined;
  /** Days per-request usage rows are kept before they are summed into daily rollups (30; docs/gateway.md, "Retention"). */
  usageRetentionDays?: number | undefined;
  /** The response cache: on when present, unless `enabled: false` (docs/gateway.md, "Cache"). */
  cache?: CacheConfig | undefined;
}

/** Bounds of every provider answer; past one the call fails and the provider request is aborted. */
export interface UpstreamSettings {
  /** Largest body of an answer that is not a stream, in bytes (32 MiB). */
  maxResponseBytes?: number | undefined;
  /** Largest stream, all events together, in bytes (64 MiB). */
  maxStreamBytes?: number | undefined;
  /** Largest line or event of a stream, in bytes (1 MiB). */
  maxEventBytes?: number | undefined;
  /** Most events in one stream (100 000). */
  maxStreamEvents?: number | undefined;
  /** Longest wait for the provider's status line and headers, in milliseconds (60 000). */
  firstByteTimeoutMs?: number | undefined;
  /** Most bytes of answers that are not streams held by all calls at once, decoded (256 MiB). */
  maxInFlightBytes?: number | undefined;
  /** Keep provider connections alive between requests (false: one request per connection, docs/gateway.md "Security"). */
  reuseConnections?: boolean | undefined;
  /** Internal addresses or CIDR ranges a download named by a provider's answer may reach (none). */
  allowDownloadAddresses?: readonly string[] | undefined;
}

/** The outcome of {@link checkGatewayConfig}. */
export type ConfigCheck = { ok: true; config: GatewayConfig } | { ok: false; problems: ConfigProblem[] };

/** True when `value` names a provider type a configuration may use. */
export function isProviderType(value: unknown): value is ProviderType {
  return ALL_PROVIDER_TYPES.some((type) => type === value);
}

/** The provider type an id stands for when the configuration does not say. */
export function providerTypeOf(id: string, settings: ProviderSettings | undefined): ProviderType {
  if (settings?.type !== undefined) return settings.type;
  return isProviderType(id) ? id : 'openai-compatible';
}

/**
 * Check a configuration strictly: unknown members, wrong types, provider ids that cannot name an envelope's
 * provider, aliases whose targets name no configured provider, openai-compatible providers without a base URL.
 * Every problem is listed; nothing throws.
 */
export function checkGatewayConfig(value: unknown): ConfigCheck {
  const parsed = gatewayConfigSchema.safeParse(value);
  // The checks across members run on the file as it is, so that a file with a wrong type somewhere still gets
  // its other problems listed too.
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error.issues)),
    ...crossProblems(value),
    // The prices' arithmetic is tried only once their shape is right.
    ...(parsed.success && parsed.data.prices !== undefined
      ? checkPrices(parsed.data.prices as Record<string, ModelPrices>)
      : []),
  ];
  return parsed.success && problems.length === 0
    ? { ok: true, config: parsed.data as GatewayConfig }
    : { ok: false, problems };
}

/** Problems between members: provider ids, base URLs and `api` by type, aliases naming unknown providers. */
function crossProblems(value: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (!isJsonObject(value)) return problems;
  const providers = isJsonObject(value.providers) ? value.providers : undefined;
  for (const [id, settings] of Object.entries(providers ?? {})) {
    if (!PROVIDER_ID_PATTERN.test(id)) {
      problems.push({
        path: pointerOf('providers', id),
        message:
          'A provider id is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.',
      });
    }
    // A settings object whose type is not one the schema accepts has that problem listed already.
    if (!isJsonObject(settings)) continue;
    const declared = settings.type;
    if (declared !== undefined && !isProviderType(declared)) continue;
    const type = providerTypeOf(id, { type: declared });
    if (
      type === 'openai-compatible' &&
      settings.baseURL === undefined &&
      KNOWN_COMPATIBLE[id] === undefined
    ) {
      problems.push({
        path: pointerOf('providers', id, 'baseURL'),
        message: `Provider "${id}" is openai-compatible and needs a baseURL.`,
      });
    }
    if (settings.api !== undefined && type !== 'openai' && type !== 'azure') {
      problems.push({
        path: pointerOf('providers', id, 'api'),
        message: '"api" applies to openai and azure providers only.',
      });
    }
  }
  if (providers !== undefined && isJsonObject(value.aliases)) {
    for (const [alias, targets] of Object.entries(value.aliases)) {
      const list: unknown[] = Array.isArray(targets) ? targets : [targets];
      list.forEach((target, index) => {
        if (typeof target !== 'string' || !targetSchema.safeParse(target).success) return;
        const provider = target.slice(0, target.indexOf(':'));
        if (!Object.hasOwn(providers, provider)) {
          problems.push({
            path: Array.isArray(targets) ? pointerOf('aliases', alias, index) : pointerOf('aliases', alias),
            message: `Alias "${alias}" names provider "${provider}", which is not configured.`,
          });
        }
      });
    }
  }
  return problems;
}

/** The key variable of a provider: its configured `apiKeyEnv`, else its type's usual one. */
export function keyEnvOf(id: string, settings: ProviderSettings | undefined): string | undefined {
  if (settings?.apiKeyEnv !== undefined) return settings.apiKeyEnv;
  const type = providerTypeOf(id, settings);
  if (type === 'openai-compatible') return KNOWN_COMPATIBLE[id]?.keyEnv;
  if (type === 'demo') return undefined;
  return PROVIDER_ENV[type].keyEnv;
}

/**
 * The zero-configuration providers: one per provider whose variables are set (its key, for most), with the base
 * URL its variable names (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`…) when set.
 */
export function providersFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, ProviderSettings> {
  const providers: Record<string, ProviderSettings> = {};
  for (const [id, names] of Object.entries({ ...PROVIDER_ENV, ...KNOWN_COMPATIBLE })) {
    if (!isEnabled(enablingSets(names), env)) continue;
    providers[id] = (env[names.baseEnv] ?? '').trim() !== '' ? { baseURL: env[names.baseEnv] } : {};
  }
  return providers;
}

/**
 * Providers whose credentials are missing: a provider that reads its key from a variable needs that variable
 * set and not empty, unless its settings hold the key itself. Providers that need no key (the demo, an
 * openai-compatible server of your own without `apiKeyEnv`) pass. Each problem names the variable to set.
 */
export function checkCredentials(
  providers: Readonly<Record<string, ProviderSettings>>,
  env: Readonly<Record<string, string | undefined>>,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [id, settings] of Object.entries(providers)) {
    if (settings.apiKey !== undefined && settings.apiKey !== '') continue;
    const type = providerTypeOf(id, settings);
    // Ollama asks for no key; Bedrock and Vertex also take their SDK's own credentials (SigV4 from the AWS
    // variables, a service account), which their `enabledBy` sets name.
    if (type === 'ollama') continue;
    const names = type === 'openai-compatible' || type === 'demo' ? undefined : PROVIDER_ENV[type];
    if (settings.apiKeyEnv === undefined && names?.enabledBy !== undefined && isEnabled(names.enabledBy, env))
      continue;
    const variable = keyEnvOf(id, settings);
    if (variable === undefined) continue;
    const value = env[variable];
    if (value !== undefined && value.trim() !== '') continue;
    problems.push({
      path: pointerOf('providers', id),
      message: `Provider "${id}" needs its key: ${variable} is ${value === undefined ? 'not set' : 'empty'}.`,
    });
  }
  return problems;
}

/** One sentence for what {@link checkCredentials} found, as `verdict gateway` and `createGateway` say it. */
export function describeMissingKeys(problems: readonly ConfigProblem[]): string {
  return `${problems.length} provider(s) lack their key: ${problems.map((problem) => problem.message).join(' ')}`;
}
