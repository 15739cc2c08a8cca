import type { Context, Hono } from 'hono';
import { ROUTE_TABLE, type RouteKey } from '../../basics/route-table.js';
import { createReadBody, jsonBodyOf } from '../../middleware/read-body.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../../pipeline/gateway-env.js';
import { invalidRequest } from '../../request/read-request.js';
import { serveTextRequest } from '../../routes/text.js';
import type { DropInSurface } from '../surface.js';
import { createAnthropicRenderer } from './anthropic-renderer.js';
import { serveCountTokens } from './count-tokens.js';
import { countTokensRequestSchema, messagesRequestSchema } from './messages-request-schema.js';
import { toTextRequest } from './to-text-request.js';

/**
 * The Anthropic surface (docs/gateway.md, "Anthropic clients"): what the Anthropic SDKs and the coding agents
 * that read `ANTHROPIC_BASE_URL` call, under `/anthropic`. A Messages request becomes the gateway's text request
 * and goes through the same pipeline as `POST /v1/text` (keys, limits, fallbacks, usage, logs); the envelope it
 * ends in is rendered as a Message, its stream as Anthropic's events.
 */

/** Refuse a method the route does not answer, in the surface's error shape. */
function refuseMethod(c: Context<GatewayEnv>, key: RouteKey): Response {
  const { method, path } = ROUTE_TABLE[key];
  return respond(
    c,
    systemFailure('VALIDATION_ERROR', `Use ${method} for ${path}, not ${c.req.method}.`, c.get('traceId'), {
      method: c.req.method,
      allowed: [method],
    }),
    { allow: method },
  );
}

/** `GET /anthropic/v1/models`: the configured aliases in Anthropic's list shape; any target works besides. */
function listModels(c: Context<GatewayEnv>, runtime: GatewayRuntime): Response {
  const data = Object.keys(runtime.aliases).map((alias) => ({
    type: 'model',
    id: alias,
    display_name: alias,
    // The gateway does not know when a model was made; the Unix epoch says so rather than inventing a date.
    created_at: '1970-01-01T00:00:00Z',
  }));
  c.get('facts').code = 'ok';
  return c.json(
    { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
    200,
    { 'request-id': c.get('traceId') },
  );
}

/** Register the surface's routes on the gateway (after its middleware, which guard `/anthropic/*`). */
function registerAnthropicRoutes(app: Hono<GatewayEnv>, runtime: GatewayRuntime): void {
  const bounds = {
    maxBytes: runtime.maxBodyBytes('text'),
    timeoutMs: runtime.bodyTimeoutMs,
    logContent: runtime.logContent,
  };
  const readMessages = createReadBody({ ...bounds, parse: jsonBodyOf(messagesRequestSchema) });
  app.all(
    ROUTE_TABLE.anthropic_messages.path,
    (c, next) => (c.req.method === 'POST' ? next() : Promise.resolve(refuseMethod(c, 'anthropic_messages'))),
    readMessages,
    (c) => {
      const body = c.req.valid('json');
      const translated = toTextRequest(body);
      if (!translated.ok) {
        const problem = invalidRequest(translated.problems);
        return respond(c, systemFailure(problem.code, problem.message, c.get('traceId'), problem.details));
      }
      c.set('renderer', createAnthropicRenderer(body.model));
      return serveTextRequest(c, runtime, translated.request);
    },
  );
  const readCount = createReadBody({ ...bounds, parse: jsonBodyOf(countTokensRequestSchema) });
  app.all(
    ROUTE_TABLE.anthropic_count_tokens.path,
    (c, next) =>
      c.req.method === 'POST' ? next() : Promise.resolve(refuseMethod(c, 'anthropic_count_tokens')),
    readCount,
    (c) => serveCountTokens(c, runtime, c.req.valid('json')),
  );
  app.all(ROUTE_TABLE.anthropic_models.path, (c) =>
    c.req.method === 'GET' ? listModels(c, runtime) : refuseMethod(c, 'anthropic_models'),
  );
}

/** The Anthropic surface under `/anthropic/`. */
export const ANTHROPIC_SURFACE: DropInSurface = {
  name: 'anthropic',
  prefix: '/anthropic/',
  renderer: createAnthropicRenderer(),
  register: registerAnthropicRoutes,
};
