import type { Context } from 'hono';
import type { AiSdkOptions } from '../../unified/ai-sdk.js';
import type { UnifiedOutput } from '../../unified/types.js';
import {
  type AttemptInput,
  type CallOutcome,
  callWithFallbacks,
  type Target,
} from '../call-with-fallbacks.js';
import type { RouteName } from '../config.js';
import { type GatewayEnv, type GatewayRuntime, respond, systemFailure } from '../create-gateway.js';
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
  if (outcome.fallbackFrom.length > 0) metadata.fallback_from = outcome.fallbackFrom;
  return envelope;
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
  run: (targets: Target[], takeRelease: () => () => void) => Promise<Response>,
): Promise<Response> {
  const traceId = c.get('traceId');
  const resolved = runtime.resolve(model, modality, traceId);
  if (!resolved.ok) return respond(c, resolved.failure);
  const allowed = allowedTargets(c.get('caller'), model, resolved.targets, traceId);
  if (!allowed.ok) return respond(c, allowed.failure);
  const release = await runtime.limit.acquire(c.req.raw.signal);
  if (release === undefined) {
    return respond(
      c,
      systemFailure(
        'RATE_LIMITED',
        'The gateway is at its concurrency limit and its queue is full.',
        traceId,
        {
          retry_after_s: 1,
        },
      ),
      { 'retry-after': '1' },
    );
  }
  let handedOver = false;
  try {
    return await run(allowed.targets, () => {
      handedOver = true;
      return release;
    });
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
  return withPlace(c, runtime, spec.modality, spec.model, async (targets) => {
    const outcome = await callWithFallbacks({
      targets,
      traceId,
      reliability: runtime.reliability(spec.route),
      clientSignal: c.req.raw.signal,
      call: spec.call,
    });
    outcome.finish();
    facts.attempts = outcome.attempts;
    const target = outcome.result?.target;
    if (target !== undefined) facts.target = target.label;
    let envelope: UnifiedOutput;
    if (outcome.result !== undefined) {
      const { value, input } = outcome.result;
      envelope = await spec.convert(value, { ...input.adapter, model: { modelId: input.target.modelId } });
    } else {
      envelope =
        outcome.failure ?? systemFailure('INTERNAL_ERROR', 'The call ended without an answer.', traceId);
    }
    if (runtime.logContent && envelope.success) facts.content = envelope.content;
    return respond(c, decorate(envelope, outcome, target, startedAt));
  });
}
