import type { Context } from 'hono';
import type { AiSdkOptions } from '../../unified/ai-sdk.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { ModelOf } from '../ai-sdk/model-types.js';
import type { RouteName } from '../config/config.js';
import { allowedTargets } from '../middleware/teams.js';
import {
  type AttemptInput,
  callWithFallbacks,
  stoppedFailure,
  type Target,
  traceFlagsOf,
} from '../pipeline/call-with-fallbacks.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../pipeline/gateway-env.js';
import { worstCaseUsd } from '../spend/worst-case.js';

/** How one provider route calls the AI SDK and turns the result into an envelope. */
export interface CallSpec<R, K extends RouteName> {
  /** The route: its limits, and the modality whose model each target carries. */
  route: K;
  /** The requested model (`provider:model` or an alias). */
  model: string;
  /** One attempt against one target, whose model is the route's; throws what the AI SDK throws. */
  call(input: AttemptInput<ModelOf<K>>): Promise<R>;
  /** The request's output maximum, for the worst case a dollar budget reserves. */
  maxOutputTokens?: number | undefined;
  /** The result as a draft envelope, through `verdict/unified/ai-sdk`. */
  convert(result: R, options: AiSdkOptions): UnifiedOutput | Promise<UnifiedOutput>;
}

/** What a request's wait for its place tells the call: how long it waited. */
export interface Place {
  /** Milliseconds spent in the queue; they count toward the route's deadline. */
  readonly queuedMs: number;
}

/**
 * Wait for a place under the concurrency limit, no longer than the route's deadline, and leave the queue when
 * the client goes away or the gateway stops: the release, or the answer to give instead.
 */
async function waitForPlace(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  route: RouteName,
): Promise<{ release: () => void; queuedMs: number } | { answer: UnifiedOutput; clientGone?: true }> {
  const traceId = c.get('traceId');
  const timeoutMs = runtime.reliability(route).timeoutMs;
  const leave = new AbortController();
  const client = c.req.raw.signal;
  const onAbort = () => leave.abort();
  const timer = setTimeout(onAbort, timeoutMs);
  client.addEventListener('abort', onAbort, { once: true });
  runtime.stopSignal.addEventListener('abort', onAbort, { once: true });
  const queuedAt = performance.now();
  const release = await runtime.limit.acquire(leave.signal);
  clearTimeout(timer);
  client.removeEventListener('abort', onAbort);
  runtime.stopSignal.removeEventListener('abort', onAbort);
  if (release !== undefined) return { release, queuedMs: performance.now() - queuedAt };
  if (client.aborted) {
    // Nobody reads this answer; the log line and the metrics count it as the client's doing.
    return {
      answer: systemFailure('REQUEST_TIMEOUT', 'The client closed the request while it was queued.', traceId),
      clientGone: true,
    };
  }
  if (runtime.stopSignal.aborted) return { answer: stoppedFailure(traceId) };
  if (leave.signal.aborted) {
    return {
      answer: systemFailure(
        'PROVIDER_TIMEOUT',
        `No place under the concurrency limit within the route's deadline of ${timeoutMs} ms.`,
        traceId,
        { timeout_ms: timeoutMs, queued: true },
      ),
    };
  }
  return {
    answer: systemFailure(
      'RATE_LIMITED',
      'The gateway is at its concurrency limit and its queue is full.',
      traceId,
      { retry_after_s: 1 },
    ),
  };
}

/**
 * Reserve the call's worst case against the key's dollar budget, when it has one (docs/gateway.md, "Budgets in
 * dollars"): the answer to give instead when it does not fit. The reservation outlives the route's deadline by a
 * minute at most, so one an instance never settles stops counting.
 */
function reserveWorstCase(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  route: RouteName,
  targets: readonly Target[],
  maxOutputTokens: number | undefined,
): Promise<Response | undefined> {
  const gate = c.get('spend');
  if (gate === undefined) return Promise.resolve(undefined);
  const usd = worstCaseUsd(
    {
      targets: targets.map((target) => ({ provider: target.provider.id, model: target.modelId })),
      inputBytes: c.get('facts').bodyBytes ?? 0,
      maxOutputTokens,
      at: new Date(),
    },
    runtime.prices,
  );
  return gate.reserve(usd, runtime.reliability(route).timeoutMs + 60_000);
}

/**
 * Resolve the model, wait for a place under the concurrency limit (or refuse with `retry-after`), call with
 * retries, fallbacks and the route's deadline. The place is handed back when `run` returns, unless `run` takes
 * the release itself (a stream keeps its place until it ends).
 */
export async function withPlace<K extends RouteName>(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  route: K,
  model: string,
  run: (targets: Target<ModelOf<K>>[], takeRelease: () => () => void, place: Place) => Promise<Response>,
  maxOutputTokens?: number,
): Promise<Response> {
  const traceId = c.get('traceId');
  // Every provider route is named after its modality.
  const resolved = runtime.resolve(model, route, traceId);
  if (!resolved.ok) return respond(c, resolved.failure);
  const allowed = allowedTargets(c.get('caller'), model, resolved.targets, traceId);
  if (!allowed.ok) return respond(c, allowed.failure);
  const refused = await reserveWorstCase(c, runtime, route, allowed.targets, maxOutputTokens);
  if (refused !== undefined) return refused;
  const waited = await waitForPlace(c, runtime, route);
  if ('answer' in waited) {
    if (waited.clientGone) c.get('facts').clientClosed = true;
    const retry = !waited.answer.success && waited.answer.error.code === 'RATE_LIMITED';
    return respond(c, waited.answer, retry ? { 'retry-after': '1' } : undefined);
  }
  const release = waited.release;
  let handedOver = false;
  try {
    return await run(
      allowed.targets,
      () => {
        handedOver = true;
        return release;
      },
      { queuedMs: waited.queuedMs },
    );
  } finally {
    if (!handedOver) release();
  }
}

/** Serve one non-streamed provider call as an envelope. */
export async function serveCall<R, K extends RouteName>(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  spec: CallSpec<R, K>,
): Promise<Response> {
  const startedAt = performance.now();
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  return withPlace(
    c,
    runtime,
    spec.route,
    spec.model,
    async (targets, _take, place) => {
      const outcome = await callWithFallbacks({
        targets,
        traceId,
        reliability: runtime.reliability(spec.route),
        clientSignal: c.req.raw.signal,
        call: spec.call,
        queuedMs: place.queuedMs,
        stopSignal: runtime.stopSignal,
        traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
        tracer: c.get('telemetry'),
      });
      if (c.req.raw.signal.aborted) facts.clientClosed = true;
      outcome.finish();
      facts.attempts = outcome.attempts;
      const target = outcome.result?.target;
      if (target !== undefined) facts.target = target.label;
      let draft: UnifiedOutput;
      if (outcome.result !== undefined) {
        const { value, input } = outcome.result;
        draft = await spec.convert(value, {
          ...input.adapter,
          model: { provider: input.target.model.provider, modelId: input.target.modelId },
        });
      } else {
        draft =
          outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
      }
      if (runtime.logContent && draft.success) facts.content = draft.content;
      return respond(c, draft, undefined, {
        startedAt,
        attempts: outcome.attempts,
        fallbackFrom: outcome.fallbackFrom,
        target,
        prices: runtime.prices,
      });
    },
    spec.maxOutputTokens,
  );
}
