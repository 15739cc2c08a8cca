import { type AiSdkOptions, fromAiSdkError } from '../../unified/ai-sdk.js';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedErrorCode } from '../../unified/error-taxonomy.js';
import { traceIdOr } from '../../unified/trace-id-from.js';
import type { UnifiedFailure } from '../../unified/types.js';

/**
 * What the gateway's provider fetch throws when a provider answer breaks one of its rules (a bound passed, a
 * redirect, a stream cut short): the failure's code, a sentence and details naming the rule. The AI SDK wraps
 * it (`APICallError` with it as `cause`), so it is found again by {@link findUpstreamFault}.
 */
export class UpstreamFault extends Error {
  override readonly name = 'VerdictUpstreamFault';

  constructor(
    /** The taxonomy code of the failure. */
    readonly failureCode: UnifiedErrorCode,
    message: string,
    /** Details naming the rule and its setting (`max_response_bytes: 67108864`). */
    readonly details: Record<string, unknown>,
    /** Whether another attempt at the same target may succeed. */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** The fault behind an error: the error itself, one of its causes, or the last error of a retry. */
export function findUpstreamFault(error: unknown): UpstreamFault | undefined {
  let current = error;
  // AI SDK errors nest a few levels at most (RetryError → APICallError → cause); the bound stops a cycle.
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    if (current instanceof UpstreamFault) return current;
    const next = current as { cause?: unknown; lastError?: unknown };
    current = next.cause ?? next.lastError;
  }
  return undefined;
}

/**
 * The failure envelope of a failed attempt: the gateway's own fault when the provider fetch raised one, else
 * what `verdict/unified/ai-sdk` makes of the AI SDK's error.
 */
export function attemptFailure(error: unknown, adapter: AiSdkOptions): UnifiedFailure {
  // A native attempt's failure is already the normalizer's envelope of the provider's answer.
  const envelope = (error as { envelope?: unknown } | null)?.envelope;
  if (error instanceof Error && error.name === 'VerdictWireFailure' && envelope !== undefined) {
    const failure = envelope as UnifiedFailure;
    const modelId = adapter.model?.modelId;
    if (typeof modelId !== 'string' || failure.metadata.model !== undefined) return failure;
    return { ...failure, metadata: { ...failure.metadata, model: modelId } };
  }
  const fault = findUpstreamFault(error) ?? downloadFault(error);
  if (fault === undefined) return fromAiSdkError(error, adapter);
  const modelId = adapter.model?.modelId;
  return assembleFailure(
    adapter.provider ?? 'system',
    fault.failureCode,
    fault.message,
    { ...fault.details, is_retryable: fault.retryable },
    {
      trace_id: traceIdOr(adapter.traceId),
      ...(typeof modelId === 'string' ? { model: modelId } : {}),
    },
  );
}

/**
 * The AI SDK's refusal of a file a provider's answer names (`AI_DownloadError`: a private address, a scheme it
 * does not fetch, a failed download) is the provider's fault, not the gateway's: an invalid answer, not retried.
 */
function downloadFault(error: unknown): UpstreamFault | undefined {
  if (!(error instanceof Error) || error.name !== 'AI_DownloadError') return undefined;
  return new UpstreamFault(
    'INVALID_PROVIDER_RESPONSE',
    `The provider's answer names a file the gateway does not download: ${error.message}`,
    { download_refused: 'download_error' },
    false,
  );
}
