import type { MiddlewareHandler } from 'hono';
import { traceIdFrom } from '../../unified/trace-id-from.js';
import type { GatewayEnv } from '../pipeline/gateway-env.js';

/**
 * Give every request its trace id — the caller's (`traceparent`, `x-trace-id`, `x-request-id`) when it sent a
 * usable one, else a new one (docs/gateway.md, "Trace ids") — and answer it in `x-trace-id`, whatever answers.
 */
export function createTraceIdMiddleware(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const traceId = traceIdFrom(c.req.raw.headers);
    c.set('traceId', traceId);
    try {
      await next();
    } finally {
      // Envelopes carry the header already; setting a header on a finished response makes Hono rebuild it
      // around its body stream, which costs more than the rest of the gateway's own work.
      if (c.res.headers.get('x-trace-id') !== traceId) c.header('x-trace-id', traceId);
    }
  };
}
