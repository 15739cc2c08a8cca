import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { omitUndefined } from '../contract/findings.js';
import { VerdictError } from '../errors.js';
import { traceIdFrom } from '../unified/trace-id-from.js';
import type { Target } from './call-with-fallbacks.js';
import { type GatewayConfig, keyEnvOf, providersFromEnv } from './config.js';
import {
  type GatewayEnv,
  type GatewayRuntime,
  MAX_MODEL_ID_LENGTH,
  type RequestFacts,
  respond,
  systemFailure,
  systemSuccess,
} from './gateway-env.js';
import { createGuardedFetch, DEFAULT_UPSTREAM_BOUNDS } from './guarded-fetch.js';
import { GatewayMetrics } from './metrics.js';
import { createKeyCheck } from './middleware/check-key.js';
import { ConcurrencyLimit } from './middleware/concurrency-limit.js';
import { createTeams } from './middleware/teams.js';
import { createOpenApiDocument } from './openapi.js';
import {
  createProviderModels,
  MODALITIES_OF,
  type ModelMaker,
  type ModelMakers,
  type ModelOf,
} from './providers.js';
import { createRedactor } from './redact-secrets.js';
import {
  type Modality,
  ROUTE_KEYS,
  ROUTE_TABLE,
  type RouteName,
  routeEntry,
  routeLabelOf,
} from './route-table.js';
import { registerProviderRoutes } from './routes/provider-routes.js';
import { StopNotice } from './stop-notice.js';
import type { GatewayStore } from './store/open-store.js';

export {
  type GatewayEnv,
  type GatewayRuntime,
  MAX_MODEL_ID_LENGTH,
  noteEnvelope,
  type RequestFacts,
  respond,
  systemFailure,
  systemSuccess,
} from './gateway-env.js';

/** Answers a request for a static asset (the console), or `undefined` to let the gateway answer. */
export type AssetHandler = (request: Request) => Response | undefined | Promise<Response | undefined>;

/** Everything `createGateway` takes: the configuration plus what only code can give. */
export interface GatewayOptions extends GatewayConfig {
  /** Environment for provider keys and base URLs (`process.env` by the CLI); default: none. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Receives one JSON log line per request; default: none (the CLI writes them to stderr). */
  log?: ((line: string) => void) | undefined;
  /**
   * Static assets such as the web console: asked first for every `GET`/`HEAD` outside `/v1/`, `/healthz`,
   * `/metrics` and `/openapi.json`; what it does not answer becomes a `NOT_FOUND` envelope.
   */
  console?: AssetHandler | undefined;
  /**
   * The `fetch` provider calls go through, under the gateway's bounds (docs/gateway.md, "Bounds"); default:
   * the global `fetch`. `verdict gateway` gives one with a keep-alive connection pool when it can.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * An open, migrated store (`openStore`, `migrateStore`): keys with limits, usage records and `/v1/usage`
   * (docs/gateway.md, "Teams"). Without one the gateway keeps no state.
   */
  store?: GatewayStore | undefined;
  /** The admin key for `/v1/usage`; default: `VERDICT_ADMIN_KEY` from `env`. */
  adminKey?: string | undefined;
  /** Admit stored keys without limits while the store is unreachable (default: refuse them). */
  storeFailOpen?: boolean | undefined;
  /** The clock of limit windows and usage records (tests); default: the system clock. */
  storeClock?: (() => Date) | undefined;
}

/** A Hono app serving the gateway, with what a server needs to stop gracefully. */
export type Gateway = Hono<GatewayEnv> & {
  /** Refuse new provider requests (`PROVIDER_UNAVAILABLE`) from now on; requests in flight go on. */
  close(): void;
  /** Resolves once no request is in flight (or at once when none is). */
  idle(): Promise<void>;
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * End the grace period: every request still running is answered now with a `PROVIDER_UNAVAILABLE` failure
   * (a stream gets it as its final event) and logged.
   */
  abortInFlight(): void;
  /** Write the usage records still queued (a graceful stop); answers how many were dropped. */
  flush(deadlineMs?: number): Promise<number>;
};

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_BODY_BYTES = 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** Shortest gateway key accepted, from any source (configuration, options, `VERDICT_GATEWAY_KEYS`). */
export const MIN_GATEWAY_KEY_LENGTH = 16;

/** The routes of the table by path; a path with a parameter is matched by what comes before the parameter. */
const LABELS = new Map<string, string>(ROUTE_KEYS.map((key) => [routeEntry(key).path, routeLabelOf(key)]));
const PARAMETER_LABELS = ROUTE_KEYS.flatMap((key) => {
  const { path } = routeEntry(key);
  const open = path.indexOf('{');
  return open < 0 ? [] : [[path.slice(0, open), routeLabelOf(key)] as const];
});

/** The label of a request's log line and metrics: its route's, or `other`. */
function routeLabel(path: string): string {
  return LABELS.get(path) ?? PARAMETER_LABELS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'other';
}

/** The secrets of a configuration: provider keys (given or from the environment), credential headers, gateway keys. */
function secretsOf(options: GatewayOptions, keys: readonly string[]): string[] {
  const env = options.env ?? {};
  const settings = options.providers ?? providersFromEnv(env);
  const secrets: (string | undefined)[] = [...keys];
  for (const [id, provider] of Object.entries(settings)) {
    const keyEnv = keyEnvOf(id, provider);
    secrets.push(provider.apiKey, keyEnv === undefined ? undefined : env[keyEnv]);
    for (const [name, value] of Object.entries(provider.headers ?? {})) {
      if (/auth|key|token|secret|cookie/i.test(name)) secrets.push(value.replace(/^Bearer\s+/i, ''), value);
    }
  }
  return secrets.filter((secret): secret is string => secret !== undefined);
}

/** The gateway keys from the options and their environment variable, each at least 16 characters. */
function gatewayKeysOf(options: GatewayOptions): string[] {
  const variable = options.keysEnv ?? 'VERDICT_GATEWAY_KEYS';
  const fromEnv = (options.env?.[variable] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const short = [...(options.keys ?? []), ...fromEnv].filter((key) => key.length < MIN_GATEWAY_KEY_LENGTH);
  if (short.length > 0) {
    throw new VerdictError(
      'invalid_argument',
      `Gateway keys must be at least ${MIN_GATEWAY_KEY_LENGTH} characters; ${short.length} key(s)${fromEnv.some((key) => short.includes(key)) ? ` in ${variable}` : ''} are shorter.`,
    );
  }
  return [...(options.keys ?? []), ...fromEnv];
}

/** What a provider route's table entry says about its calls: its models' noun and its own defaults. */
function callsOf(name: RouteName): { noun: string; timeoutMs?: number; maxBodyBytes?: number } {
  const { calls } = routeEntry(name);
  return calls ?? { noun: name };
}

/** The maker of one modality's models at a provider, or `undefined` when it offers none. */
function makerOf<K extends Modality>(makers: ModelMakers, modality: K): ModelMaker<K> | undefined {
  return makers[modality];
}

function createRuntime(
  options: GatewayOptions,
  metrics: GatewayMetrics,
  stopSignal: StopNotice,
): GatewayRuntime {
  const env = options.env ?? {};
  const settings = options.providers ?? providersFromEnv(env);
  const fetch = createGuardedFetch(
    // Only the bounds that are set: an `undefined` member must not hide its default.
    { ...DEFAULT_UPSTREAM_BOUNDS, ...omitUndefined(options.upstream ?? {}) },
    options.fetch,
  );
  const providers = new Map(
    Object.entries(settings).map(([id, provider]) => [id, createProviderModels(id, provider, env, fetch)]),
  );
  const aliases = Object.fromEntries(
    Object.entries(options.aliases ?? {}).map(([name, targets]) => [
      name,
      Array.isArray(targets) ? targets : [targets],
    ]),
  );
  const route = (name: RouteName) => options.routes?.[name];
  return {
    providers,
    aliases,
    metrics,
    logContent: options.logContent ?? false,
    videoPollMs: options.videoPollMs ?? 2000,
    stopSignal,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    limit: new ConcurrencyLimit(options.concurrency ?? 64, options.queue ?? 256, metrics),
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

/**
 * The gateway: one HTTP API in front of text, image, speech, transcription and video providers, answering
 * every request with a unified envelope whose status follows its code (docs/gateway.md). A Hono app, so it
 * serves anywhere a Web `fetch` handler runs; `verdict gateway` serves it on Node.
 * @example
 * import { serve } from '@hono/node-server';
 * const gateway = createGateway({ env: process.env, log: (line) => process.stderr.write(`${line}\n`) });
 * serve({ fetch: gateway.fetch, port: 8787, hostname: '127.0.0.1' });
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  const metrics = new GatewayMetrics();
  const stop = new StopNotice();
  const keys = gatewayKeysOf(options);
  const redactor = createRedactor(secretsOf(options, keys));
  const runtime = createRuntime(options, metrics, stop);
  const app = new Hono<GatewayEnv>();
  let closing = false;
  let active = 0;
  let idleWaiters: (() => void)[] = [];
  const checkIdle = () => {
    if (active !== 0) return;
    for (const wake of idleWaiters) wake();
    idleWaiters = [];
  };
  const checkKey = keys.length > 0 ? createKeyCheck(keys) : undefined;
  const adminKey = options.adminKey ?? options.env?.VERDICT_ADMIN_KEY;
  const teams =
    options.store === undefined
      ? undefined
      : createTeams({
          store: options.store,
          adminKey: adminKey === '' ? undefined : adminKey,
          staticKeys: keys,
          failOpen: options.storeFailOpen,
          log: options.log,
          now: options.storeClock,
        });

  // Outermost: trace id, one log line and the metrics for every request, whatever answers it.
  app.use(async (c, next) => {
    const started = performance.now();
    active++;
    const traceId = traceIdFrom(c.req.raw.headers);
    const facts: RequestFacts = { route: routeLabel(c.req.path), attempts: 0 };
    c.set('traceId', traceId);
    c.set('facts', facts);
    c.set('redactor', redactor);
    const finalize = () => {
      const seconds = (performance.now() - started) / 1000;
      // A client that left before its answer is counted apart (499, as proxies log it), not as a failure of the
      // gateway: whatever the unread answer said.
      const gone = facts.clientClosed === true && facts.code !== 'ok';
      const status = gone ? 499 : c.res.status;
      if (gone) facts.code = 'client_closed';
      metrics.record({
        route: facts.route,
        status,
        code: facts.code ?? (status < 400 ? 'ok' : 'INTERNAL_ERROR'),
        seconds,
        attempts: facts.attempts,
        provider: facts.provider ?? 'system',
      });
      options.log?.(
        logLine({
          time: new Date().toISOString(),
          trace_id: traceId,
          method: c.req.method,
          route: facts.route,
          status,
          code: facts.code ?? (status < 400 ? 'ok' : undefined),
          provider: facts.provider,
          model: facts.model,
          target: facts.target,
          latency_ms: Math.round(seconds * 1000),
          attempts: facts.attempts,
          usage: facts.usage,
          key: facts.key,
          ...(runtime.logContent ? { input: facts.input, content: facts.content } : {}),
        }),
      );
      teams?.finish(c, facts, status, seconds);
      function logLine(fields: Record<string, unknown>): string {
        return redactor.redact(JSON.stringify(fields));
      }
      active--;
      checkIdle();
    };
    try {
      await next();
    } finally {
      // Envelopes carry the header already; setting a header on a finished response makes Hono rebuild it
      // around its body stream, which costs more than the rest of the gateway's own work.
      if (c.res.headers.get('x-trace-id') !== traceId) c.header('x-trace-id', traceId);
      if (closing) c.header('connection', 'close');
      if (facts.pending === undefined) finalize();
      else facts.pending.then(finalize, finalize);
    }
  });

  if (options.cors !== undefined) {
    app.use(
      cors({
        origin: options.cors.origins,
        allowHeaders: ['authorization', 'content-type', 'traceparent', 'x-request-id', 'x-trace-id'],
        exposeHeaders: [
          'x-trace-id',
          'retry-after',
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
        ],
      }),
    );
  }

  // Gateway keys guard the API and the metrics; /healthz, /openapi.json and the console stay open.
  if (teams !== undefined) {
    app.use('/v1/*', teams.guard);
    app.use('/metrics', teams.guard);
  } else if (checkKey !== undefined) {
    const requireKey = async (c: Context<GatewayEnv>, next: () => Promise<void>) => {
      if (await checkKey(c.req.header('authorization'))) return next();
      return respond(
        c,
        systemFailure(
          'AUTHENTICATION_ERROR',
          'Send a gateway key as "Authorization: Bearer <key>".',
          c.get('traceId'),
        ),
        { 'www-authenticate': 'Bearer' },
      );
    };
    app.use('/v1/*', requireKey);
    app.use('/metrics', requireKey);
  }
  app.use('/v1/*', async (c, next) => {
    if (closing) {
      return respond(
        c,
        systemFailure(
          'PROVIDER_UNAVAILABLE',
          'The gateway is shutting down; retry on another instance.',
          c.get('traceId'),
        ),
        { connection: 'close', 'retry-after': '1' },
      );
    }
    await next();
  });

  // Health is an envelope like every other answer: a success while serving, PROVIDER_UNAVAILABLE (503) while
  // stopping, so a load balancer's readiness check and a client read the same thing.
  // With a store, health says whether it answers: down is a failure unless stored keys fail open
  // (docs/gateway.md, "Teams").
  app.get(ROUTE_TABLE.healthz.path, async (c) => {
    const store = teams === undefined ? undefined : (await teams.storeUp()) ? 'up' : 'down';
    if (store === 'down' && !closing && !teams?.failOpen) {
      return respond(
        c,
        systemFailure('PROVIDER_UNAVAILABLE', "The gateway's store cannot be reached.", c.get('traceId'), {
          store,
        }),
      );
    }
    return respond(
      c,
      closing
        ? systemFailure('PROVIDER_UNAVAILABLE', 'The gateway is shutting down.', c.get('traceId'))
        : systemSuccess(
            `Serving ${runtime.providers.size} provider(s)${store === undefined ? '' : `; the store is ${store}`}.`,
            c.get('traceId'),
            { providers: [...runtime.providers.keys()], ...(store === undefined ? {} : { store }) },
          ),
    );
  });
  app.get(ROUTE_TABLE.metrics.path, (c) => {
    c.get('facts').code = 'ok';
    const teamLines = teams === undefined ? '' : `${teams.metrics().join('\n')}\n`;
    return c.body(metrics.render() + teamLines, 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    });
  });
  app.get(ROUTE_TABLE.openapi.path, (c) => {
    c.get('facts').code = 'ok';
    return c.json(createOpenApiDocument());
  });
  app.get(ROUTE_TABLE.models.path, (c) => {
    const traceId = c.get('traceId');
    const providers = [...runtime.providers.values()].map((provider) => ({
      id: provider.id,
      type: provider.type,
      modalities: [...MODALITIES_OF[provider.type]],
      ...(provider.type === 'demo' ? { demo: true } : {}),
    }));
    const summary = `${providers.length} provider${providers.length === 1 ? '' : 's'} and ${Object.keys(runtime.aliases).length} alias${Object.keys(runtime.aliases).length === 1 ? '' : 'es'} configured.`;
    return respond(c, systemSuccess(summary, traceId, { providers, aliases: runtime.aliases }));
  });
  teams?.register(app);
  registerProviderRoutes(app, runtime);

  app.notFound(async (c) => {
    if (
      options.console !== undefined &&
      (c.req.method === 'GET' || c.req.method === 'HEAD') &&
      !c.req.path.startsWith('/v1/')
    ) {
      const asset = await options.console(c.req.raw);
      if (asset !== undefined) {
        c.get('facts').code = asset.ok ? 'ok' : 'NOT_FOUND';
        return asset;
      }
    }
    return respond(
      c,
      systemFailure(
        'NOT_FOUND',
        `No route ${c.req.method} ${c.req.path}; GET /openapi.json lists them.`,
        c.get('traceId'),
        {
          method: c.req.method,
          path: c.req.path,
        },
      ),
    );
  });
  app.onError((error, c) => {
    // A bug or a framework error: the answer says so without internals; the log line has the code only.
    const traceId = c.get('traceId') ?? traceIdFrom(c.req.raw.headers);
    return respond(
      c,
      systemFailure('INTERNAL_ERROR', 'The gateway failed to answer this request.', traceId, {
        error: error instanceof Error ? error.name : typeof error,
      }),
    );
  });

  return Object.assign(app, {
    close() {
      closing = true;
    },
    idle() {
      return active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    inFlight: () => active,
    abortInFlight() {
      closing = true;
      stop.abort();
    },
    flush: (deadlineMs?: number) => teams?.flush(deadlineMs) ?? Promise.resolve(0),
  });
}
