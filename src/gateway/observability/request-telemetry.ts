import type { MiddlewareHandler } from 'hono';
import type { UnifiedOutput } from '../../unified/types.js';
import type { Target } from '../pipeline/call-with-fallbacks.js';
import type { GatewayEnv } from '../pipeline/gateway-env.js';

// The hooks the gateway's request path calls when OpenTelemetry is on (docs/gateway.md, "OpenTelemetry"). Types
// only: routes and the call loop depend on these, never on the SDK, which is loaded only when an endpoint is set.

/** The span of one provider attempt, begun by the call loop. */
export interface AttemptSpan {
  /** Headers for the provider request: `x-trace-id`, and `traceparent` naming this attempt's span. */
  readonly headers: Record<string, string>;
  /** End the attempt as failed, with the failure it became. */
  fail(failure: UnifiedOutput): void;
}

/** What the call loop asks of tracing: one span per provider attempt. */
export interface AttemptTracer {
  /** Begin the span of the `attempt`-th provider request of this gateway request (1-based), sent to `target`. */
  startAttempt(target: Target, attempt: number): AttemptSpan;
}

/** The tracing of one gateway request, kept in its context as `telemetry`. */
export interface RequestTelemetry extends AttemptTracer {
  /** The answer's first text arrived (a stream): time to first token is measured from its attempt's start. */
  firstToken(): void;
}

/** The gateway's OpenTelemetry export, once loaded. */
export interface GatewayTelemetry {
  /** Begins the request's server span and ends every span of it once its answer has ended. */
  readonly middleware: MiddlewareHandler<GatewayEnv>;
  /** Export what is held now, waiting at most `deadlineMs`. */
  flush(deadlineMs?: number): Promise<void>;
  /** Export what is held and stop exporting. */
  shutdown(deadlineMs?: number): Promise<void>;
}
