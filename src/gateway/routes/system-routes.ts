import type { Hono } from 'hono';
import { ROUTE_TABLE } from '../basics/route-table.js';
import { DEMO_CATALOG } from '../demo/create-demo-models.js';
import type { ShutdownGuard } from '../middleware/shutdown-guard.js';
import type { Teams } from '../middleware/teams.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import {
  type GatewayEnv,
  type GatewayRuntime,
  respond,
  systemFailure,
  systemSuccess,
} from '../pipeline/gateway-env.js';
import { MODALITIES_OF } from '../providers/providers.js';

/**
 * What the gateway's own routes read: the runtime, the metrics, the shutdown state, the store (with one) and the
 * OpenAPI document.
 */
export interface SystemRouteContext {
  /** The configured providers and aliases, and the concurrency limit's gauges. */
  runtime: GatewayRuntime;
  /** The counters `/metrics` renders. */
  metrics: GatewayMetrics;
  /** Whether the gateway is stopping, which `/healthz` says. */
  shutdown: Pick<ShutdownGuard, 'closing'>;
  /** The teams part, with a store: its health and its metrics. */
  teams?: Teams | undefined;
  /** The document `GET /openapi.json` answers: the app's, which describes every route and surface. */
  openapi: () => Record<string, unknown>;
}

/**
 * Register the routes the gateway answers itself, without a provider: `GET /healthz`, `GET /metrics`,
 * `GET /openapi.json` and `GET /v1/models` (docs/gateway.md, "Endpoints").
 */
export function registerSystemRoutes(app: Hono<GatewayEnv>, context: SystemRouteContext): void {
  const { runtime, metrics, shutdown, teams, openapi } = context;
  // Health is an envelope like every other answer: a success while serving, PROVIDER_UNAVAILABLE (503) while
  // stopping, so a load balancer's readiness check and a client read the same thing.
  // With a store, health says whether it answers: down is a failure unless stored keys fail open
  // (docs/gateway.md, "Teams").
  // A store that answers while usage records keep failing to be written is `stuck`: usage is being lost.
  app.get(ROUTE_TABLE.healthz.path, async (c) => {
    const store = teams === undefined ? undefined : (await teams.storeUp()) ? 'up' : 'down';
    if (store === 'down' && !shutdown.closing && !teams?.failOpen) {
      return respond(
        c,
        systemFailure('PROVIDER_UNAVAILABLE', "The gateway's store cannot be reached.", c.get('traceId'), {
          store,
        }),
      );
    }
    if (store === 'up' && teams?.usageStuck() && !shutdown.closing && !teams.failOpen) {
      return respond(
        c,
        systemFailure(
          'PROVIDER_UNAVAILABLE',
          "The gateway's store answers but refuses usage records: usage is not being recorded.",
          c.get('traceId'),
          { store, usage_writer: 'stuck' },
        ),
      );
    }
    return respond(
      c,
      shutdown.closing
        ? systemFailure('PROVIDER_UNAVAILABLE', 'The gateway is shutting down.', c.get('traceId'))
        : systemSuccess(
            `Serving ${runtime.providers.size} provider(s)${store === undefined ? '' : `; the store is ${store}`}.`,
            c.get('traceId'),
            {
              providers: [...runtime.providers.keys()],
              ...(store === undefined ? {} : { store }),
              ...(teams?.usageStuck() ? { usage_writer: 'stuck' } : {}),
            },
          ),
    );
  });
  app.get(ROUTE_TABLE.metrics.path, (c) => {
    c.get('facts').code = 'ok';
    const teamLines = teams === undefined ? '' : `${teams.metrics().join('\n')}\n`;
    const cacheLines = runtime.cache === undefined ? '' : `${runtime.cache.metrics().join('\n')}\n`;
    return c.body(metrics.render(runtime.limit) + teamLines + cacheLines, 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    });
  });
  app.get(ROUTE_TABLE.openapi.path, (c) => {
    c.get('facts').code = 'ok';
    return c.json(openapi());
  });
  app.get(ROUTE_TABLE.models.path, (c) => {
    const traceId = c.get('traceId');
    const providers = [...runtime.providers.values()].map((provider) => ({
      id: provider.id,
      type: provider.type,
      modalities: [...MODALITIES_OF[provider.type]],
      ...(provider.type === 'demo' ? { demo: true, models: DEMO_CATALOG } : {}),
    }));
    const summary = `${providers.length} provider${providers.length === 1 ? '' : 's'} and ${Object.keys(runtime.aliases).length} alias${Object.keys(runtime.aliases).length === 1 ? '' : 'es'} configured.`;
    return respond(c, systemSuccess(summary, traceId, { providers, aliases: runtime.aliases }));
  });
}
