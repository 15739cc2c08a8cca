import type { Context } from 'hono';
import type { AiSdkOptions } from '../../unified/ai-sdk.js';
import type { UnifiedOutput } from '../../unified/types.js';
import {
  type AttemptInput,
  type CallOutcome,
  callWithFallbacks,
  stoppedFailure,
  type Target,
  traceFlagsOf,
} from '../call-with-fallbacks.js';
import type { RouteName } from '../config.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../gateway-env.js';
import { allowedTargets } from '../middleware/teams.js';
import type { Modality } from '../providers.js';

/** How one provider route calls the AI SDK and turns the result into an envelope. */
export interface CallSpec<R> {
  /** The route, for its limits. */
  route: RouteName;
  /** The modality, to pick the provider's model. */
  modality: Modality;
  /** The requested model (`provider:model` or an alias). */
  model: string;
  /** One attempt against one target; throws what the AI SDK throws. */
  call(input: AttemptInput): Promise<R>;
  /** The result as an envelope, through `verdict/unified/ai-sdk`. */
  convert(result: R, options: AiSdkOptions): UnifiedOutput | Promise<UnifiedOutput>;
}

/**
 * The AI SDK words a connection failure `Cannot connect to API: <the network error>`, whose text names the host
 * and port it tried (`getaddrinfo ENOTFOUND llm.internal`). The answer keeps the error's code only.
 */
function withoutAddress(message: string): string {
  if (!message.startsWith('Cannot connect to API:')) return message;
  const code = /\b(E[A-Z][A-Z_]{2,})\b/.exec(message)?.[1];
  return `Cannot connect to the provider${code === undefined ? '' : ` (${code})`}.`;
}

/** Facts of the call the envelope's metadata carries: attempts, the target that answered, fallbacks, latency. */
export function decorate(
  envelope: UnifiedOutput,
  outcome: Pick<CallOutcome<unknown>, 'attempts' | 'fallbackFrom'>,
  target: Target | undefined,
  startedAt: number,
): UnifiedOutput {
  const metadata = envelope.metadata as Record<string, unknown>;
  // The upstream URL (the adapter keeps it without its query) says where the gateway's providers live, which is
  // the operator's business, not the client's: the log line has the target instead.
  if (!envelope.success) {
    delete envelope.error.details.url;
    envelope.error.message = withoutAddress(envelope.error.message);
  }
  metadata.latency_ms = Math.round(performance.now() - startedAt);
  metadata.attempts = outcome.attempts;
  if (target !== undefined) metadata.target = target.label;
  // A recorded answer must never pass for a provider's: the demo's envelopes say so (docs/gateway.md).
  if (target?.provider.type === 'demo') metadata.demo = true;
  if (outcome.fallbackFrom.length > 0) metadata.fallback_from = outcome.fallbackFrom;
  return envelope;
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
 * Resolve the model, wait for a place under the concurrency limit (or refuse with `retry-after`), call with
 * retries, fallbacks and the route's deadline. The place is handed back when `run` returns, unless `run` takes
 * the release itself (a stream keeps its place until it ends).
 */
export async function withPlace(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  modality: Modality,
  model: string,
  run: (targets: Target[], takeRelease: () => () => void, place: Place) => Promise<Response>,
): Promise<Response> {
  const traceId = c.get('traceId');
  const resolved = runtime.resolve(model, modality, traceId);
  if (!resolved.ok) return respond(c, resolved.failure);
  const allowed = allowedTargets(c.get('caller'), model, resolved.targets, traceId);
  if (!allowed.ok) return respond(c, allowed.failure);
  // Every provider route is named after its modality.
  const waited = await waitForPlace(c, runtime, modality as RouteName);
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
export async function serveCall<R>(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  spec: CallSpec<R>,
): Promise<Response> {
  const startedAt = performance.now();
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  return withPlace(c, runtime, spec.modality, spec.model, async (targets, _take, place) => {
    const outcome = await callWithFallbacks({
      targets,
      traceId,
      reliability: runtime.reliability(spec.route),
      clientSignal: c.req.raw.signal,
      call: spec.call,
      queuedMs: place.queuedMs,
      stopSignal: runtime.stopSignal,
      traceFlags: traceFlagsOf(c.req.header('traceparent'), traceId),
    });
    if (c.req.raw.signal.aborted) facts.clientClosed = true;
    outcome.finish();
    facts.attempts = outcome.attempts;
    const target = outcome.result?.target;
    if (target !== undefined) facts.target = target.label;
    let envelope: UnifiedOutput;
    if (outcome.result !== undefined) {
      const { value, input } = outcome.result;
      envelope = await spec.convert(value, {
        ...input.adapter,
        model: { provider: input.target.model?.provider, modelId: input.target.modelId },
      });
    } else {
      envelope =
        outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
    }
    if (runtime.logContent && envelope.success) facts.content = envelope.content;
    return respond(c, decorate(envelope, outcome, target, startedAt));
  });
}
