import type { Context, MiddlewareHandler } from 'hono';
import { type GatewayEnv, respond, systemFailure } from '../pipeline/gateway-env.js';
import { createKeyCheck, offeredKey } from './check-key.js';

/** The answer to a request without an accepted key: `AUTHENTICATION_ERROR` (401) asking for a bearer token. */
export function refuseWithoutKey(c: Context<GatewayEnv>): Response {
  return respond(
    c,
    systemFailure(
      'AUTHENTICATION_ERROR',
      'Send a gateway key as "Authorization: Bearer <key>" or "x-api-key: <key>".',
      c.get('traceId'),
    ),
    { 'www-authenticate': 'Bearer' },
  );
}

/**
 * Let through only requests that carry one of the gateway keys as `Authorization: Bearer <key>`, `x-api-key` or
 * `api-key` (compared in
 * constant time, docs/gateway.md, "Security"); the gateway mounts it on `/v1/*` and `/metrics` when it has keys
 * and no store.
 */
export function createRequireKey(keys: readonly string[]): MiddlewareHandler<GatewayEnv> {
  const check = createKeyCheck(keys);
  return async (c, next) => {
    if (await check(offeredKey((name) => c.req.header(name)))) return next();
    return refuseWithoutKey(c);
  };
}
