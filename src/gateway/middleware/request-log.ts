import type { Context, MiddlewareHandler } from 'hono';
import type { Redactor } from '../basics/redact-secrets.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import { type GatewayEnv, onAnswerEnd, type RequestFacts } from '../pipeline/gateway-env.js';

/** What the request log needs. */
export interface RequestLogOptions {
  /** Counts every finished request. */
  metrics: GatewayMetrics;
  /** Removes provider and gateway keys from log lines; also given to `respond` for the answers. */
  redactor: Redactor;
  /** The route label of a path (`/v1/videos/:job`, or `other`), so that clients cannot grow the label set. */
  routeOf(path: string): string;
  /** Receives one JSON line per request; default: none. */
  log?: ((line: string) => void) | undefined;
  /** Put the request body and the output text in the line (docs/gateway.md, "Security"). */
  logContent?: boolean | undefined;
  /** Called once per request after its line, with the status served and the seconds it took (usage records). */
  onFinish?:
    | ((c: Context<GatewayEnv>, facts: RequestFacts, status: number, seconds: number) => void)
    | undefined;
}

/**
 * One log line and the metrics for every request, whatever answers it, written when the answer ends (a
 * stream's end included; docs/gateway.md, "Observability"). It gathers the request's facts: routes and
 * `respond` fill them in. Mount it inside the trace id.
 */
export function createRequestLog(options: RequestLogOptions): MiddlewareHandler<GatewayEnv> {
  const { metrics, redactor, log, onFinish } = options;
  const logContent = options.logContent ?? false;
  return async (c, next) => {
    const started = performance.now();
    const facts: RequestFacts = { route: options.routeOf(c.req.path), attempts: 0 };
    c.set('facts', facts);
    c.set('redactor', redactor);
    const finish = () => {
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
      if (log !== undefined) {
        const line = {
          time: new Date().toISOString(),
          trace_id: c.get('traceId'),
          method: c.req.method,
          route: facts.route,
          ...(facts.surface === undefined || facts.surface === 'verdict' ? {} : { surface: facts.surface }),
          status,
          code: facts.code ?? (status < 400 ? 'ok' : undefined),
          provider: facts.provider,
          model: facts.model,
          target: facts.target,
          latency_ms: Math.round(seconds * 1000),
          attempts: facts.attempts,
          usage: facts.usage,
          cost: facts.cost,
          key: facts.key,
          ...(logContent ? { input: facts.input, content: facts.content } : {}),
        };
        log(redactor.redact(JSON.stringify(line)));
      }
      onFinish?.(c, facts, status, seconds);
    };
    try {
      await next();
    } finally {
      onAnswerEnd(facts, finish);
    }
  };
}
