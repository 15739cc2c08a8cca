import { sleep } from '../../sleep.js';
import type { AiSdkModelLike, AiSdkOptions } from '../../unified/ai-sdk.js';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedErrorCode } from '../../unified/error-taxonomy.js';
import { randomHex } from '../../unified/trace-id-from.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { attemptFailure } from '../ai-sdk/upstream-fault.js';
import type { StopNotice } from '../basics/stop-notice.js';
import type { AttemptTracer } from '../observability/request-telemetry.js';
import type { ProviderModels } from '../providers/providers.js';

/**
 * One `provider:model` a request may be sent to, with the AI SDK model of the route's modality already made
 * (`Target<ModelOf<'images'>>` holds an image model).
 */
export interface Target<M extends AiSdkModelLike = AiSdkModelLike> {
  /** The provider's models. */
  readonly provider: ProviderModels;
  /** The model id at that provider. */
  readonly modelId: string;
  /** `provider:model`, as written in requests and logs. */
  readonly label: string;
  /** The AI SDK model the call is sent to; its provider id also selects the parsers of its errors. */
  readonly model: M;
}

/** What one attempt gets: where to send it, how to abort it and the headers that carry the trace id. */
export interface AttemptInput<M extends AiSdkModelLike = AiSdkModelLike> {
  /** The target of this attempt. */
  readonly target: Target<M>;
  /** Aborted on the request's deadline or when the client goes away. */
  readonly signal: AbortSignal;
  /** Headers for the provider call (`traceparent`, `x-trace-id`). */
  readonly headers: Record<string, string>;
  /** Options for the `verdict/unified/ai-sdk` adapter: provider, model and trace id. */
  readonly adapter: AiSdkOptions;
}

/** How hard to try. */
export interface Reliability {
  /** Retries of one target after its first attempt. */
  readonly retries: number;
  /** First backoff delay in milliseconds (doubled each retry, with jitter). */
  readonly retryBaseMs: number;
  /** Longest `retry-after` honoured; a longer one moves on to the next target. */
  readonly maxRetryAfterMs: number;
  /** Deadline of the whole request in milliseconds. */
  readonly timeoutMs: number;
}

/** The outcome of a call with its attempts counted. */
export interface CallOutcome<R, M extends AiSdkModelLike = AiSdkModelLike> {
  /** The envelope when the call failed for good (or was converted already). */
  readonly failure?: UnifiedOutput;
  /** The raw AI SDK result when an attempt succeeded, with the target that gave it. */
  readonly result?: { value: R; target: Target<M>; input: AttemptInput<M> };
  /** Attempts made, over every target. */
  readonly attempts: number;
  /** Targets that failed before the last one, with their code. */
  readonly fallbackFrom: { target: string; code: string }[];
  /** Ends the deadline timer; call it when the answer is complete (streams end later than the call). */
  readonly finish: () => void;
  /** The signal of the request (deadline and client), for work that goes on after the call (streams). */
  readonly signal: AbortSignal;
  /** True once the deadline passed. */
  readonly timedOut: () => boolean;
  /** True once the gateway's grace period ended with this request unfinished. */
  readonly stopped: () => boolean;
}

/** The answer of a request the gateway stopped before it was complete (its grace period ended). */
export function stoppedFailure(traceId: string): UnifiedOutput {
  return assembleFailure(
    'system',
    'PROVIDER_UNAVAILABLE',
    'The gateway stopped before the answer was complete; retry on another instance.',
    { reason: 'shutdown' },
    { trace_id: traceId },
  );
}

/**
 * Codes worth another attempt at the same target when the failure does not say: rate limits, provider 5xx,
 * overload, provider timeouts.
 */
const RETRYABLE: ReadonlySet<string> = new Set<UnifiedErrorCode>([
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_TIMEOUT',
]);

/** Codes that are the request's own fault: another target would refuse it too, so no fallback. */
const NO_FALLBACK: ReadonlySet<string> = new Set<UnifiedErrorCode>([
  'VALIDATION_ERROR',
  'CONTEXT_LENGTH_EXCEEDED',
  'CONTENT_FILTERED',
  'PAYLOAD_TOO_LARGE',
]);

/**
 * The one retry rule: a failure that says whether it is retryable (`details.is_retryable`, from the provider's
 * status or the gateway's own fault) is taken at its word; one that does not is retried by its code.
 */
export function isRetryable(failure: UnifiedOutput): boolean {
  if (failure.success) return false;
  const flag = failure.error.details.is_retryable;
  return typeof flag === 'boolean' ? flag : RETRYABLE.has(failure.error.code);
}

/** Codes whose answer (429, 503) passes on the provider's `retry-after` (see docs/gateway.md). */
const ASKS_TO_WAIT: ReadonlySet<string> = new Set<UnifiedErrorCode>(['RATE_LIMITED', 'PROVIDER_UNAVAILABLE']);

/** The longest wait a provider's answer is taken to ask for: a day (a longer one is passed on as a day). */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The delay a failed call asks for: OpenAI's `retry-after-ms`, else `retry-after` in seconds or as a date, at
 * most {@link MAX_RETRY_AFTER_MS}.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as { responseHeaders?: Record<string, string> } | null)?.responseHeaders;
  if (headers === undefined || headers === null) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const asked = askedDelayMs(lower, now);
  return asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS);
}

function askedDelayMs(lower: Record<string, string>, now: number): number | undefined {
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Headers that pass the trace id on to the provider: always `x-trace-id`, and `traceparent` for W3C ids, with
 * the trace flags of the incoming `traceparent` when it had them (a trace the caller does not sample stays
 * unsampled) and `01` otherwise.
 */
export function traceHeaders(traceId: string, flags?: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-trace-id': traceId };
  const kept = flags !== undefined && /^[0-9a-f]{2}$/.test(flags) ? flags : '01';
  if (/^[0-9a-f]{32}$/.test(traceId)) headers.traceparent = `00-${traceId}-${randomHex(8)}-${kept}`;
  return headers;
}

/** The trace flags of a `traceparent` header whose trace id is `traceId`, else `undefined`. */
export function traceFlagsOf(traceparent: string | undefined, traceId: string): string | undefined {
  const match = /^[ \t]*[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-([0-9a-f]{2})/.exec(traceparent ?? '');
  return match?.[1] === traceId ? match[2] : undefined;
}

/**
 * Call the targets in order (fallbacks), each up to `1 + retries` times, within one deadline. The AI SDK's own
 * retries are off (`maxRetries: 0` in every call), so each attempt here is one provider request and the count
 * in `metadata.attempts` is exact. Retries wait with exponential backoff, or what `retry-after` asks for.
 */
export async function callWithFallbacks<R, M extends AiSdkModelLike>(options: {
  targets: readonly Target<M>[];
  traceId: string;
  reliability: Reliability;
  clientSignal: AbortSignal | undefined;
  call: (input: AttemptInput<M>) => Promise<R>;
  /** Milliseconds the request waited for its place already; they count toward the deadline. */
  queuedMs?: number | undefined;
  /** Aborted when the gateway's grace period ends: what is still running is answered as stopped. */
  stopSignal?: StopNotice | undefined;
  /** Trace flags of the incoming `traceparent`, passed on. */
  traceFlags?: string | undefined;
  /** Begins a span per attempt when OpenTelemetry is on; its context then travels in `traceparent`. */
  tracer?: AttemptTracer | undefined;
}): Promise<CallOutcome<R, M>> {
  const { targets, traceId, reliability } = options;
  const queuedMs = Math.max(0, options.queuedMs ?? 0);
  // One controller for the deadline and the client, linked by hand: `AbortSignal.any` costs more per request
  // and keeps its source signals reachable longer.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new DOMException('The request deadline passed.', 'TimeoutError'));
    },
    Math.max(0, reliability.timeoutMs - queuedMs),
  );
  const client = options.clientSignal;
  const onClientAbort = () => controller.abort(client?.reason);
  if (client?.aborted) onClientAbort();
  else client?.addEventListener('abort', onClientAbort, { once: true });
  const stop = options.stopSignal;
  let stopped = false;
  const onStop = () => {
    stopped = true;
    controller.abort(new DOMException('The gateway stopped.', 'AbortError'));
  };
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  const signal = controller.signal;
  const startedAt = Date.now() - queuedMs;
  const finish = () => {
    clearTimeout(timer);
    client?.removeEventListener('abort', onClientAbort);
    stop?.removeEventListener('abort', onStop);
  };
  const fallbackFrom: { target: string; code: string }[] = [];
  let attempts = 0;
  let last: UnifiedOutput | undefined;
  let lastAsked: number | undefined;
  const outcome = (rest: Partial<CallOutcome<R, M>>): CallOutcome<R, M> => ({
    attempts,
    fallbackFrom,
    finish,
    signal,
    timedOut: () => timedOut,
    stopped: () => stopped,
    ...rest,
  });
  for (const target of targets) {
    // Successes come back unchecked: the envelope builder validates each answer once, its metadata complete.
    const adapter: AiSdkOptions = {
      provider: target.provider.id,
      traceId,
      model: target.model,
      validate: false,
    };
    for (let retry = 0; retry <= reliability.retries; retry++) {
      if (signal.aborted) break;
      attempts++;
      const span = options.tracer?.startAttempt(target, attempts);
      const input: AttemptInput<M> = {
        target,
        signal,
        headers: span?.headers ?? traceHeaders(traceId, options.traceFlags),
        adapter,
      };
      try {
        const value = await options.call(input);
        return outcome({ result: { value, target, input } });
      } catch (error) {
        if (signal.aborted) break;
        last = attemptFailure(error, adapter);
        span?.fail(last);
        const asked = retryAfterMs(error);
        lastAsked = asked;
        if (!isRetryable(last) || retry === reliability.retries) break;
        if (asked !== undefined && asked > reliability.maxRetryAfterMs) break;
        const backoff = reliability.retryBaseMs * 2 ** retry * (0.5 + Math.random() / 2);
        const delay = asked ?? backoff;
        if (Date.now() - startedAt + delay >= reliability.timeoutMs) break;
        await sleep(delay, signal);
      }
    }
    if (signal.aborted || last === undefined || last.success || NO_FALLBACK.has(last.error.code)) break;
    if (target !== targets[targets.length - 1])
      fallbackFrom.push({ target: target.label, code: last.error.code });
  }
  if (timedOut) {
    finish();
    const provider = targets[Math.min(fallbackFrom.length, targets.length - 1)]?.provider.id ?? 'system';
    return outcome({
      failure: assembleFailure(
        provider,
        'PROVIDER_TIMEOUT',
        `No answer within the route's deadline of ${reliability.timeoutMs} ms.`,
        { timeout_ms: reliability.timeoutMs },
        { trace_id: traceId },
      ),
    });
  }
  if (stopped) {
    finish();
    return outcome({ failure: stoppedFailure(traceId) });
  }
  if (signal.aborted) {
    finish();
    return outcome({
      failure: assembleFailure(
        'system',
        'REQUEST_TIMEOUT',
        'The client closed the request before the answer.',
        {},
        { trace_id: traceId },
      ),
    });
  }
  finish();
  if (last !== undefined && !last.success && lastAsked !== undefined && ASKS_TO_WAIT.has(last.error.code)) {
    // The gateway's own retries gave up: the client hears what the provider asked for, in seconds.
    const details = { ...last.error.details, retry_after_s: Math.ceil(lastAsked / 1000) };
    last = { ...last, error: { ...last.error, details } };
  }
  return outcome({
    failure:
      last ?? assembleFailure('system', 'INTERNAL_ERROR', 'No target was tried.', {}, { trace_id: traceId }),
  });
}
