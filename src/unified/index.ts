/**
 * verdict/unified: one envelope for every AI provider and modality (see docs/unified.md), its error taxonomy, trace ids,
 * HTTP helpers and the provider normalizers. No `node:` imports and no dependency on the `ai` package.
 */

export { checkHttpCoherence, type HttpCoherence } from './check-http-coherence.js';
export { canonicalMediaType, classifyMedia, type MediaKind, mediaTypeFromName } from './classify-media.js';
export {
  createEventStreamParser,
  type EventStreamParser,
  type EventStreamStep,
} from './create-event-stream-parser.js';
export {
  createUnifiedFailure,
  createUnifiedSuccess,
  type UnifiedFailureInput,
  type UnifiedSuccessInput,
} from './create-unified-output.js';
export {
  codeForProviderStatus,
  isUnifiedErrorCode,
  STATUS_OF_UNLISTED_CODE,
  statusForCode,
  UNIFIED_ERROR_CODES,
  type UnifiedErrorCode,
} from './error-taxonomy.js';
export { fromHttpResponse } from './from-http-response.js';
export type { HeadersLike } from './header-value.js';
export {
  BINARY_STREAM_FORMATS,
  formatOfAiSdkProvider,
  isProviderId,
  isUnifiedFormat,
  type NormalizeContext,
  type NormalizeLimitInput,
  type NormalizeResponseInput,
  type NormalizeStreamInput,
  normalizeLimitExceeded,
  normalizeParsedStream,
  normalizeResponse,
  normalizeStream,
  STREAM_FORMATS,
  UNIFIED_FORMATS,
  type UnifiedFormat,
} from './normalize-response.js';
export { type EventStreamParse, parseEventStream } from './parse-event-stream.js';
export { type HeaderLines, readHeaderLines } from './read-header-lines.js';
export {
  createStreamMeter,
  STREAM_LIMITS,
  type StreamLimitExceeded,
  type StreamLimitName,
  type StreamLimits,
  type StreamMeter,
} from './stream-limits.js';
export type { HeadersInitLike } from './to-http-response.js';
export { toHttpResponse } from './to-http-response.js';
export { createTraceId, parseTraceparent, traceIdFrom } from './trace-id-from.js';
export {
  FINISH_REASONS,
  type FinishReason,
  type MediaItem,
  type UnifiedCost,
  type UnifiedError,
  type UnifiedFailure,
  type UnifiedFailureMetadata,
  type UnifiedMetadata,
  type UnifiedOutput,
  type UnifiedSuccess,
  type UnifiedUsage,
} from './types.js';
export { UNIFIED_OUTPUT_SCHEMA, UNIFIED_OUTPUT_SCHEMA_URL } from './unified-output-schema.js';
export { type UnifiedValidation, validateUnifiedOutput } from './validate-unified-output.js';
export { type UnifiedTextValidation, validateUnifiedText } from './validate-unified-text.js';
export {
  UNIFIED_VIOLATION_CODES,
  type UnifiedViolation,
  type UnifiedViolationCode,
} from './violation-codes.js';
