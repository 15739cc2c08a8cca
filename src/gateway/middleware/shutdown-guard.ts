import type { MiddlewareHandler } from 'hono';
import { type GatewayEnv, onAnswerEnd, respond, systemFailure } from '../pipeline/gateway-env.js';

/** The graceful stop of one gateway (docs/gateway.md, "Shutdown"): what is in flight, and refusing new work. */
export interface ShutdownGuard {
  /** Counts every request until its answer ends (a stream's end included); mount it outermost. */
  readonly track: MiddlewareHandler<GatewayEnv>;
  /** Once closing, answers `PROVIDER_UNAVAILABLE` (503, `retry-after: 1`, `connection: close`); for `/v1/*`. */
  readonly refuse: MiddlewareHandler<GatewayEnv>;
  /** True once `close()` was called. */
  readonly closing: boolean;
  /** Refuse new requests from now on; requests in flight go on. */
  close(): void;
  /** Resolves once no request is in flight (or at once when none is). */
  idle(): Promise<void>;
  /** Requests being answered now. */
  inFlight(): number;
}

/** A shutdown guard for one gateway: nothing in flight, not closing. */
export function createShutdownGuard(): ShutdownGuard {
  let closing = false;
  let active = 0;
  let idleWaiters: (() => void)[] = [];
  const settle = () => {
    active--;
    if (active !== 0) return;
    for (const wake of idleWaiters) wake();
    idleWaiters = [];
  };
  return {
    async track(c, next) {
      active++;
      try {
        await next();
      } finally {
        // Once stopping, every answer ends its connection, so that keep-alive clients reconnect elsewhere.
        if (closing) c.header('connection', 'close');
        // After the inner middleware's own bookkeeping (the log line, the usage record), so that `idle()`
        // resolving means that all of it is done.
        onAnswerEnd(c.get('facts'), settle);
      }
    },
    async refuse(c, next) {
      if (!closing) return next();
      return respond(
        c,
        systemFailure(
          'PROVIDER_UNAVAILABLE',
          'The gateway is shutting down; retry on another instance.',
          c.get('traceId'),
        ),
        { connection: 'close', 'retry-after': '1' },
      );
    },
    get closing() {
      return closing;
    },
    close() {
      closing = true;
    },
    idle() {
      return active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    inFlight: () => active,
  };
}
