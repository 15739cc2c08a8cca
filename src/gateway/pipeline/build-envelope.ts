import { invalidProviderResponse } from '../../unified/assemble-output.js';
import { internalError } from '../../unified/to-http-response.js';
import type { UnifiedOutput } from '../../unified/types.js';
import { validateUnifiedOutput } from '../../unified/validate-unified-output.js';
import { type Redactor, redactEnvelope } from '../basics/redact-secrets.js';
import type { PriceBook } from '../spend/price-book.js';
import { priceEnvelope } from '../spend/price-call.js';
import type { Target } from './call-with-fallbacks.js';

/**
 * The one builder of the gateway's answers (docs/design.md, "The gateway's request path"): every envelope the
 * gateway serves or streams is made here from a draft — an adapter's envelope or the gateway's own — and the
 * facts of the call, redacted, then validated once. Nothing changes an envelope after it was built.
 */

/** Facts of a provider call its envelope's metadata carries. */
export interface CallFacts {
  /** `performance.now()` when the request's work began: `metadata.latency_ms` counts from it. */
  readonly startedAt: number;
  /** Provider requests made, over every target (`metadata.attempts`). */
  readonly attempts: number;
  /** Targets that failed before the last one, with their code (`metadata.fallback_from`, when any). */
  readonly fallbackFrom: readonly { target: string; code: string }[];
  /** The target that answered (`metadata.target`), when one did. */
  readonly target?: Target | undefined;
  /** The prices of the answer's cost (`metadata.cost`); without them the answer carries none. */
  readonly prices?: PriceBook | undefined;
}

/** A copy of `draft` with `members` added to its metadata; the draft itself is left as it was. */
export function withMetadata(
  draft: UnifiedOutput,
  members: Readonly<Record<string, unknown>>,
): UnifiedOutput {
  return { ...draft, metadata: { ...draft.metadata, ...members } };
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

/** The draft with the call's facts: attempts, the target that answered, fallbacks, latency, cost. */
function withCallFacts(draft: UnifiedOutput, call: CallFacts): UnifiedOutput {
  const { target } = call;
  const cost =
    target === undefined || call.prices === undefined
      ? undefined
      : priceEnvelope(draft, target.modelId, call.prices, new Date());
  const metadata = {
    ...draft.metadata,
    ...(cost === undefined ? {} : { cost }),
    latency_ms: Math.round(performance.now() - call.startedAt),
    attempts: call.attempts,
    ...(target === undefined ? {} : { target: target.label }),
    // A recorded answer must never pass for a provider's: the demo's envelopes say so (docs/gateway.md).
    ...(target?.provider.type === 'demo' ? { demo: true } : {}),
    ...(call.fallbackFrom.length > 0 ? { fallback_from: call.fallbackFrom } : {}),
  };
  if (draft.success) return { ...draft, metadata };
  // The upstream URL (the adapter keeps it without its query) says where the gateway's providers live, which is
  // the operator's business, not the client's: the log line has the target instead.
  const { url: _url, ...details } = draft.error.details;
  return {
    ...draft,
    error: { ...draft.error, message: withoutAddress(draft.error.message), details },
    metadata,
  };
}

/**
 * Build the envelope to answer: the draft with the call's facts (when it came from a provider call), without
 * secrets, validated once — the adapters hand the gateway their successes unchecked (`validate: false`), so
 * this is the only check. A provider's success that does not validate is answered as the adapters would have:
 * an `INVALID_PROVIDER_RESPONSE` naming its violations. Any other envelope that does not validate is the
 * gateway's own defect, answered as an `INTERNAL_ERROR`; nothing invalid leaves the gateway.
 */
export function buildEnvelope(
  draft: UnifiedOutput,
  call: CallFacts | undefined,
  redactor: Redactor | undefined,
): UnifiedOutput {
  const complete = call === undefined ? draft : withCallFacts(draft, call);
  const safe = redactor === undefined ? complete : redactEnvelope(complete, redactor);
  const checked = validateUnifiedOutput(safe);
  if (checked.valid) return checked.value;
  if (!safe.success || call?.target === undefined) return internalError(safe, checked.violations);
  const failure = invalidProviderResponse(safe, checked.violations);
  return validateUnifiedOutput(failure).valid ? failure : internalError(safe, checked.violations);
}
