import { formatFinding } from '../contract/findings.js';
import { VerdictError } from '../errors.js';
import type { UnifiedErrorCode } from './error-taxonomy.js';
import { createTraceId } from './trace-id-from.js';
import type { MediaItem, UnifiedFailure, UnifiedMetadata, UnifiedSuccess, UnifiedUsage } from './types.js';
import { validateUnifiedOutput } from './validate-unified-output.js';

/** What {@link createUnifiedSuccess} needs; everything but `content` and `provider` has a default. */
export interface UnifiedSuccessInput {
  /** The primary human-readable output. */
  content: string;
  /** Normalized lowercase provider id. */
  provider: string;
  /** Token counts; when absent they are zeros and `metadata.usage_reported` is `false`. */
  usage?: UnifiedUsage | undefined;
  /** Metadata; a trace id is generated when `trace_id` is absent. */
  metadata?: UnifiedMetadata | undefined;
  /** Produced images. */
  images?: MediaItem[] | undefined;
  /** Produced files. */
  files?: MediaItem[] | undefined;
  /** Produced videos. */
  videos?: MediaItem[] | undefined;
}

/** What {@link createUnifiedFailure} needs; `provider` defaults to `system` and `details` to `{}`. */
export interface UnifiedFailureInput {
  /** A taxonomy code. */
  code: UnifiedErrorCode;
  /** A non-empty sentence for people. */
  message: string;
  /** Machine-readable facts. */
  details?: Record<string, unknown> | undefined;
  /** The provider the failure came from, else `system`. */
  provider?: string | undefined;
  /** Metadata; a trace id is generated when `trace_id` is absent. */
  metadata?: UnifiedMetadata | undefined;
}

function ensureValid<T>(envelope: T): T {
  const result = validateUnifiedOutput(envelope);
  if (!result.valid) {
    const list = result.violations.map(formatFinding).join('; ');
    throw new VerdictError('invalid_builder_input', `The envelope would not be valid: ${list}.`);
  }
  return envelope;
}

/**
 * Build a success envelope with every member present; throws a `VerdictError` when the input cannot make a valid one.
 * @example createUnifiedSuccess({ content: 'Hello', provider: 'openai', usage: { input_tokens: 3, output_tokens: 1 } })
 */
export function createUnifiedSuccess(input: UnifiedSuccessInput): UnifiedSuccess {
  const metadata = { ...input.metadata, trace_id: input.metadata?.trace_id ?? createTraceId() };
  if (input.usage === undefined) metadata.usage_reported = false;
  return ensureValid<UnifiedSuccess>({
    success: true,
    content: input.content,
    provider: input.provider,
    usage: input.usage ?? { input_tokens: 0, output_tokens: 0 },
    metadata,
    images: input.images ?? [],
    files: input.files ?? [],
    videos: input.videos ?? [],
  });
}

/** Build a failure envelope; throws a `VerdictError` when the input cannot make a valid one. */
export function createUnifiedFailure(input: UnifiedFailureInput): UnifiedFailure {
  return ensureValid<UnifiedFailure>({
    success: false,
    error: { code: input.code, message: input.message, details: input.details ?? {} },
    provider: input.provider ?? 'system',
    metadata: { ...input.metadata, trace_id: input.metadata?.trace_id ?? createTraceId() },
  });
}
