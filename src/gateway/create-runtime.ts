import { omitUndefined } from '../contract/findings.js';
import { createGuardedFetch, DEFAULT_UPSTREAM_BOUNDS } from './ai-sdk/guarded-fetch.js';
import type { ModelMaker, ModelMakers, ModelOf } from './ai-sdk/model-types.js';
import { createProviderFetch } from './ai-sdk/provider-fetch.js';
import { type Modality, type RouteName, routeEntry } from './basics/route-table.js';
import type { StopNotice } from './basics/stop-notice.js';
import { ResponseCache } from './cache/response-cache.js';
import { resolveCacheSettings } from './config/cache-settings.js';
import { type ProviderSettings, providerTypeOf } from './config/config.js';
import { type GatewayOptions, providerSettingsOf } from './gateway-options.js';
import type { GatewayMetrics } from './observability/metrics.js';
import type { Target } from './pipeline/call-with-fallbacks.js';
import { ConcurrencyLimit } from './pipeline/concurrency-limit.js';
import { type GatewayRuntime, MAX_MODEL_ID_LENGTH, systemFailure } from './pipeline/gateway-env.js';
import { createProviderModels, MODALITIES_OF } from './providers/providers.js';
import { createPriceBook } from './spend/price-book.js';
import type { NativeTransport } from './wire/call-native.js';
import { createNativeTransportOf } from './wire/native-transports.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_BODY_BYTES = 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** What a provider route's table entry says about its calls: its models' noun and its own defaults. */
function callsOf(name: RouteName): { noun: string; timeoutMs?: number; maxBodyBytes?: number } {
  const { calls } = routeEntry(name);
  return calls ?? { noun: name };
}

/** The maker of one modality's models at a provider, or `undefined` when it offers none. */
function makerOf<K extends Modality>(makers: ModelMakers, modality: K): ModelMaker<K> | undefined {
  return makers[modality];
}

/** The response cache of the options, or `undefined` when it is off (docs/gateway.md, "Cache"). */
function createResponseCache(options: GatewayOptions): ResponseCache | undefined {
  const settings = resolveCacheSettings(options.cache);
  if (settings === undefined) return undefined;
  return new ResponseCache(settings, { store: options.store, now: options.cacheClock });
}

/**
 * What the routes share, built from the options: the providers with their guarded fetch, the aliases, the
 * concurrency limit, each route's bounds and how a requested model resolves to its targets.
 */
export function createRuntime(
  options: GatewayOptions,
  metrics: GatewayMetrics,
  stopSignal: StopNotice,
): GatewayRuntime {
  const env = options.env ?? {};
  const settings = providerSettingsOf(options);
  // The origins of the configured providers; a request anywhere else is a download made on a provider's word.
  const trustedOrigins = new Set<string>();
  const { allowDownloadAddresses, ...bounds } = options.upstream ?? {};
  const fetch = createGuardedFetch(
    // Only the bounds that are set: an `undefined` member must not hide its default.
    { ...DEFAULT_UPSTREAM_BOUNDS, ...omitUndefined(bounds) },
    options.fetch ?? createProviderFetch({ allowDownloadAddresses }).fetch,
    trustedOrigins,
  );
  const providers = new Map(
    Object.entries(settings).map(([id, provider]) => [
      id,
      createProviderModels(id, provider, env, fetch, { paceMs: options.demoPaceMs }),
    ]),
  );
  for (const provider of providers.values()) {
    if (provider.baseURL !== undefined) trustedOrigins.add(new URL(provider.baseURL).origin);
  }
  // The providers whose text requests the gateway sends natively (docs/design.md, "Native wire formats").
  const natives = new Map<string, NativeTransport>();
  for (const [id, provider] of providers) {
    const native = createNativeTransportOf(provider, settings[id] as ProviderSettings, env, fetch);
    if (native !== undefined) natives.set(id, native);
  }
  const aliases = Object.fromEntries(
    Object.entries(options.aliases ?? {}).map(([name, targets]) => [
      name,
      Array.isArray(targets) ? targets : [targets],
    ]),
  );
  const route = (name: RouteName) => options.routes?.[name];
  return {
    providers,
    natives,
    aliases,
    metrics,
    logContent: options.logContent ?? false,
    videoPollMs: options.videoPollMs ?? 2000,
    prices: createPriceBook(
      options.prices,
      new Map(Object.entries(settings).map(([id, provider]) => [id, providerTypeOf(id, provider)])),
    ),
    stopSignal,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    cache: createResponseCache(options),
    limit: new ConcurrencyLimit(options.concurrency ?? 64, options.queue ?? 256),
    reliability: (name) => ({
      retries: route(name)?.retries ?? options.retries ?? 2,
      retryBaseMs: options.retryBaseMs ?? 250,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 20_000,
      timeoutMs: route(name)?.timeoutMs ?? options.timeoutMs ?? callsOf(name).timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }),
    maxBodyBytes: (name) =>
      route(name)?.maxBodyBytes ?? options.maxBodyBytes ?? callsOf(name).maxBodyBytes ?? DEFAULT_BODY_BYTES,
    resolve(model, modality, traceId) {
      if (model.length > MAX_MODEL_ID_LENGTH) {
        return {
          ok: false,
          failure: systemFailure(
            'VALIDATION_ERROR',
            `The model id is ${model.length} characters long; the gateway accepts at most ${MAX_MODEL_ID_LENGTH}.`,
            traceId,
            { max_model_id_length: MAX_MODEL_ID_LENGTH, length: model.length },
          ),
        };
      }
      const labels = aliases[model] ?? [model];
      const targets: Target<ModelOf<typeof modality>>[] = [];
      const problems: string[] = [];
      for (const label of labels) {
        const colon = label.indexOf(':');
        const provider = colon > 0 ? providers.get(label.slice(0, colon)) : undefined;
        const modelId = label.slice(colon + 1);
        if (provider === undefined || modelId === '') {
          problems.push(label);
          continue;
        }
        const make = makerOf(provider, modality);
        if (make === undefined) {
          return {
            ok: false,
            failure: systemFailure(
              'VALIDATION_ERROR',
              `Provider "${provider.id}" offers no ${callsOf(modality).noun} models through the gateway; it offers ${MODALITIES_OF[provider.type].join(', ')}.`,
              traceId,
              { model: label, modality, offered: [...MODALITIES_OF[provider.type]] },
            ),
          };
        }
        targets.push({ provider, modelId, label, model: make(modelId) });
      }
      if (targets.length > 0) return { ok: true, targets };
      const configured = [...providers.keys()];
      const names = Object.keys(aliases);
      return {
        ok: false,
        failure: systemFailure(
          'NOT_FOUND',
          configured.length === 0
            ? `Unknown model "${model}": no provider is configured (set a key such as OPENAI_API_KEY, give a config file, or start verdict gateway with --demo to try demo:any-model offline).`
            : `Unknown model "${model}": use provider:model with a configured provider (${configured.join(', ')})${names.length > 0 ? ` or an alias (${names.join(', ')})` : ''}.`,
          traceId,
          { model, providers: configured, aliases: names, unknown: problems },
        ),
      };
    },
  };
}
