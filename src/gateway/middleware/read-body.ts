import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { type GatewayEnv, respond, systemFailure } from '../pipeline/gateway-env.js';
import { parseJsonRequest, type RequestRead, readBodyBytes } from '../request/read-request.js';

/** What the body reader needs: the route's bounds and how its body is read once its bytes are in. */
export interface ReadBodyOptions<T> {
  /** Largest body accepted, in bytes: past it the answer is `PAYLOAD_TOO_LARGE`, read no further. */
  maxBytes: number;
  /** Longest wait for the whole body, in milliseconds: past it the answer is `REQUEST_TIMEOUT`. */
  timeoutMs: number;
  /** The body from its bytes, or the problem to answer (`parseJsonRequest` for JSON bodies). */
  parse(bytes: Uint8Array, c: Context<GatewayEnv>): RequestRead<T> | Promise<RequestRead<T>>;
  /** Keep the read body for the log line (docs/gateway.md, "Security"). */
  logContent?: boolean | undefined;
}

/** The validated body a route's handler reads with `c.req.valid('json')`, typed as the reader made it. */
export type ReadBodyInput<T> = { out: { json: T } };

/**
 * Read a request's body strictly and within its route's bounds (docs/gateway.md, "Bounds"), as Hono's
 * `validator()` does: a body that is too large, too slow, or invalid is answered here as a failure envelope; a
 * good one reaches the handler through `c.req.valid('json')`.
 */
export function createReadBody<T>(
  options: ReadBodyOptions<T>,
): MiddlewareHandler<GatewayEnv, string, ReadBodyInput<T>> {
  const { maxBytes, timeoutMs, parse } = options;
  return async (c, next) => {
    const bytes = await readBodyBytes(c.req.raw, maxBytes, timeoutMs);
    const body = bytes.ok ? await parse(bytes.value, c) : bytes;
    if (!body.ok) {
      const { code, message, details } = body.problem;
      const failure = systemFailure(code, message, c.get('traceId'), details);
      if (code !== 'REQUEST_TIMEOUT') return respond(c, failure);
      if (details.reason === 'client_closed') c.get('facts').clientClosed = true;
      // The rest of a body that came too slowly is not read: the connection ends with the answer.
      return respond(c, failure, { connection: 'close' });
    }
    if (bytes.ok) c.get('facts').bodyBytes = bytes.value.length;
    if (options.logContent === true) c.get('facts').input = body.value;
    c.req.addValidatedData('json', body.value as object);
    await next();
  };
}

/** The `parse` of a JSON body: verdict's strict reader, then `schema` (docs/gateway.md, "Bounds"). */
export function jsonBodyOf<S extends z.ZodType>(schema: S): ReadBodyOptions<z.infer<S>>['parse'] {
  return (bytes) => parseJsonRequest(bytes, schema);
}
