import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { VerdictError } from '../errors.js';
import { traceIdFrom } from '../unified/trace-id-from.js';
import { createRedactor } from './basics/redact-secrets.js';
import { ROUTE_KEYS, routeEntry, routeLabelOf } from './basics/route-table.js';
import { StopNotice } from './basics/stop-notice.js';
import { readOtelSettings } from './config/otel-settings.js';
import { createRuntime } from './create-runtime.js';
import {
  adminKeyOf,
  checkPriceOptions,
  checkProviderKeys,
  type GatewayOptions,
  gatewayKeysOf,
  secretsOf,
} from './gateway-options.js';
import { createKeylessGuard } from './middleware/keyless-guard.js';
import type { GatewayTelemetry } from './middleware/load-telemetry.js';
import { createRequestLog } from './middleware/request-log.js';
import { createRequireKey } from './middleware/require-key.js';
import { createSecurityHeaders } from './middleware/security-headers.js';
import { createShutdownGuard } from './middleware/shutdown-guard.js';
import { createTeams } from './middleware/teams.js';
import { createTraceIdMiddleware } from './middleware/trace-id.js';
import { GatewayMetrics } from './observability/metrics.js';
import { createOpenApiDocument } from './openapi.js';
import { type GatewayEnv, respond, systemFailure } from './pipeline/gateway-env.js';
import { isSurfacePath } from './pipeline/renderer.js';
import { registerProviderRoutes } from './routes/provider-routes.js';
import {
  CACHE_NAMESPACE_HEADER,
  CACHE_STATUS_HEADER,
  CACHE_TTL_HEADER,
} from './routes/serve-through-cache.js';
import { registerSystemRoutes } from './routes/system-routes.js';
import { registerUsageRoutes } from './routes/usage-routes.js';
import { COST_HEADER } from './spend/cost-header.js';
import { ANTHROPIC_SURFACE } from './surfaces/anthropic/anthropic-surface.js';
import { OPENAI_SURFACE } from './surfaces/openai/openai-surface.js';
import type { DropInSurface } from './surfaces/surface.js';

/** The headers the OpenAI SDK adds to every request, which a browser asks the gateway's leave to send. */
const OPENAI_SDK_HEADERS = [
  'openai-organization',
  'openai-project',
  'x-stainless-arch',
  'x-stainless-helper-method',
  'x-stainless-lang',
  'x-stainless-os',
  'x-stainless-package-version',
  'x-stainless-retry-count',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-timeout',
];

/** The drop-in surfaces, each under its prefix (docs/gateway.md, "Use it from your existing client"). */
const SURFACES: readonly DropInSurface[] = [OPENAI_SURFACE, ANTHROPIC_SURFACE];

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
  /**
   * Write the usage records still queued and export the spans and metrics held (a graceful stop); answers how
   * many usage records were dropped.
   */
  flush(deadlineMs?: number): Promise<number>;
  /** Resolves once the OpenTelemetry export is loaded, or failed to load (at once when none is configured). */
  ready(): Promise<void>;
};

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

/**
 * The gateway: one HTTP API in front of text, image, speech, transcription and video providers, answering
 * every request with a unified envelope whose status follows its code (docs/gateway.md). A Hono app, so it
 * serves anywhere a Web `fetch` handler runs; `verdict gateway` serves it on Node. Throws a `VerdictError` for
 * options it cannot serve with: a gateway or admin key shorter than 16 characters, a provider without its key.
 * @example
 * import { serve } from '@hono/node-server';
 * const gateway = createGateway({ env: process.env, log: (line) => process.stderr.write(`${line}\n`) });
 * serve({ fetch: gateway.fetch, port: 8787, hostname: '127.0.0.1' });
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  const keys = gatewayKeysOf(options);
  const adminKey = adminKeyOf(options);
  checkProviderKeys(options);
  checkPriceOptions(options);
  const metrics = new GatewayMetrics();
  const stop = new StopNotice();
  const runtime = createRuntime(options, metrics, stop);
  const shutdown = createShutdownGuard();
  const teams =
    options.store === undefined
      ? undefined
      : createTeams({
          store: options.store,
          adminKey,
          staticKeys: keys,
          failOpen: options.storeFailOpen,
          log: options.log,
          now: options.storeClock,
          prices: runtime.prices,
          retentionDays: options.usageRetentionDays,
        });
  const telemetry = startTelemetry(options);
  const app = new Hono<GatewayEnv>();

  // Middleware, outermost first (docs/design.md, "The gateway's request path"): in-flight count, security
  // headers, trace id, the request's spans when OpenTelemetry is on, one log line and the metrics for every
  // request whatever answers it, CORS, then the key check (or, without keys, the Host, Origin and content-type
  // check) and the shutdown refusal on what they guard.
  app.use(shutdown.track);
  app.use(createSecurityHeaders());
  app.use(createTraceIdMiddleware());
  if (telemetry !== undefined) {
    app.use((c, next) => {
      const loaded = telemetry.current();
      return loaded === undefined ? next() : loaded.middleware(c, next);
    });
  }
  app.use(
    createRequestLog({
      metrics,
      redactor: createRedactor(secretsOf(options, keys)),
      routeOf: routeLabel,
      log: options.log,
      logContent: runtime.logContent,
      onFinish: teams?.finish,
    }),
  );
  // With a cache, every answer says what it did (docs/gateway.md, "Cache"): a request it took no part in —
  // refused, or on a route it does not keep — is a bypass.
  if (runtime.cache !== undefined) {
    app.use(async (c, next) => {
      await next();
      if (c.res.headers.has(CACHE_STATUS_HEADER)) return;
      const status = c.get('facts').cache ?? 'bypass';
      try {
        c.res.headers.set(CACHE_STATUS_HEADER, status);
      } catch {
        // A response whose headers are immutable (one a console handler passed on from `fetch`): a copy.
        const copy = new Response(c.res.body, c.res);
        copy.headers.set(CACHE_STATUS_HEADER, status);
        c.res = copy;
      }
    });
  }
  // A surface's answers, the refusals of the middleware below included, are written in its client's shape.
  for (const surface of SURFACES) {
    app.use(`${surface.prefix}*`, async (c, next) => {
      c.set('renderer', surface.renderer);
      c.get('facts').surface = surface.name;
      await next();
    });
  }
  if (options.cors !== undefined) {
    app.use(
      cors({
        origin: options.cors.origins,
        allowHeaders: [
          'authorization',
          'x-api-key',
          'api-key',
          'anthropic-version',
          'anthropic-beta',
          'content-type',
          'traceparent',
          'x-request-id',
          'x-trace-id',
          // What the OpenAI SDK sends from a web page (dangerouslyAllowBrowser): its own facts and options.
          ...OPENAI_SDK_HEADERS,
          'cache-control',
          CACHE_TTL_HEADER,
          CACHE_NAMESPACE_HEADER,
        ],
        exposeHeaders: [
          CACHE_STATUS_HEADER,
          'x-trace-id',
          'x-request-id',
          'request-id',
          'x-verdict-error-code',
          'retry-after',
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
          COST_HEADER,
        ],
      }),
    );
  }
  // Gateway keys guard the API and the metrics; /healthz, /openapi.json and the console stay open. Without
  // keys, every route refuses other sites' pages and rebound host names.
  const requireKey = teams?.guard ?? (keys.length > 0 ? createRequireKey(keys) : undefined);
  if (requireKey !== undefined) {
    app.use('/v1/*', requireKey);
    app.use('/metrics', requireKey);
    for (const surface of SURFACES) app.use(`${surface.prefix}*`, requireKey);
  } else {
    app.use(createKeylessGuard({ host: options.host, corsOrigins: options.cors?.origins }));
  }
  app.use('/v1/*', shutdown.refuse);
  for (const surface of SURFACES) app.use(`${surface.prefix}*`, shutdown.refuse);

  registerSystemRoutes(app, { runtime, metrics, shutdown, teams, openapi: createOpenApiDocument });
  if (teams !== undefined) registerUsageRoutes(app, teams);
  registerProviderRoutes(app, runtime);
  for (const surface of SURFACES) surface.register(app, runtime);

  app.notFound(async (c) => {
    if (
      options.console !== undefined &&
      (c.req.method === 'GET' || c.req.method === 'HEAD') &&
      !c.req.path.startsWith('/v1/') &&
      !isSurfacePath(c.req.path)
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
    close: () => shutdown.close(),
    idle: () => shutdown.idle(),
    inFlight: () => shutdown.inFlight(),
    abortInFlight() {
      shutdown.close();
      stop.abort();
    },
    ready: () => telemetry?.ready() ?? Promise.resolve(),
    async flush(deadlineMs?: number) {
      const [dropped] = await Promise.all([
        teams?.flush(deadlineMs) ?? Promise.resolve(0),
        telemetry?.flush(deadlineMs),
      ]);
      return dropped;
    },
  });
}

/** The gateway's OpenTelemetry export as the app holds it: loaded now, or later. */
interface TelemetryHandle {
  /** The export once loaded. */
  current(): GatewayTelemetry | undefined;
  /** Resolves once the load has ended, well or not. */
  ready(): Promise<void>;
  /** Export what is held, once loaded. */
  flush(deadlineMs?: number): Promise<void>;
}

/**
 * The gateway's OpenTelemetry export: the one given, or one loaded in the background when an endpoint is
 * configured (requests before it is loaded are not traced), or `undefined` (nothing loaded, no cost). Throws a
 * `VerdictError` for settings it cannot export with.
 */
function startTelemetry(options: GatewayOptions): TelemetryHandle | undefined {
  let loaded = options.telemetry;
  let loading: Promise<void> | undefined;
  if (loaded === undefined) {
    const read = readOtelSettings(options.otel, options.env ?? {});
    if (!read.ok) throw new VerdictError('invalid_argument', `OpenTelemetry: ${read.problems.join(' ')}`);
    const settings = read.settings;
    if (settings === undefined) return undefined;
    loading = import('./middleware/load-telemetry.js')
      .then(({ loadTelemetry }) => loadTelemetry(settings, { log: options.log }))
      .then(
        (telemetry) => {
          loaded = telemetry;
        },
        (error: unknown) => {
          // The packages are optional (docs/install.md): the gateway answers on without tracing.
          options.log?.(
            JSON.stringify({
              time: new Date().toISOString(),
              event: 'otel_unavailable',
              error: error instanceof Error ? error.message.slice(0, 200) : String(error),
            }),
          );
        },
      );
  }
  return {
    current: () => loaded,
    ready: async () => {
      await loading;
    },
    async flush(deadlineMs) {
      await loading;
      await loaded?.flush(deadlineMs);
    },
  };
}
