import type { UnifiedOutput } from '../../unified/types.js';

// The hooks the gateway's request path calls when OpenTelemetry is on (docs/gateway.md, "OpenTelemetry"). Types
// only: routes and the call loop depend on these, never on the SDK, which is loaded only when an endpoint is set.

/** What a span says of the `provider:model` an attempt is sent to: the call loop's target has these and more. */
export interface AttemptTarget {
  /** `provider:model`, as written in requests and logs. */
  readonly label: string;
  /** The model id at that provider. */
  readonly modelId: string;
  /** The provider's type and base URL, which say the span's provider and server. */
  readonly provider: { readonly type: string; readonly baseURL: string | undefined };
}

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
  startAttempt(target: AttemptTarget, attempt: number): AttemptSpan;
}

/** The tracing of one gateway request, kept in its context as `telemetry`. */
export interface RequestTelemetry extends AttemptTracer {
  /** The answer's first text arrived (a stream): time to first token is measured from its attempt's start. */
  firstToken(): void;
}
