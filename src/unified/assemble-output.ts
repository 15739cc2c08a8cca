import { describeMedia, sortMedia } from './classify-media.js';
import type { UnifiedErrorCode } from './error-taxonomy.js';
import type { ReportedUsage } from './providers/provider-outcome.js';
import type { MediaItem, UnifiedFailure, UnifiedOutput, UnifiedSuccess } from './types.js';
import { validateUnifiedOutput } from './validate-unified-output.js';

/** A failure envelope from its parts; `metadata` must hold the trace id. */
export function assembleFailure(
  provider: string,
  code: UnifiedErrorCode,
  message: string,
  details: Record<string, unknown>,
  metadata: Record<string, unknown>,
): UnifiedFailure {
  return {
    success: false,
    error: { code, message: message.trim() === '' ? 'The call failed.' : message, details },
    provider,
    metadata: metadata as UnifiedFailure['metadata'],
  };
}

/**
 * A success envelope from what a provider reported: usage (zeros and `usage_reported: false` when absent, the
 * breakdown in `usage_details`), media sorted into the modality arrays. An answer that holds media but no text
 * gets a short description of the media as its content, the same rule for every format (see
 * {@link describeMedia}). Strict about what verdict emits: when the parts do not make a valid envelope, the
 * result is an `INVALID_PROVIDER_RESPONSE` failure instead. With `validate: false` the envelope is returned
 * unchecked, for a caller that adds its own metadata and then checks it once with {@link checkProviderSuccess}.
 */
export function assembleSuccess(
  provider: string,
  content: string,
  usage: ReportedUsage | undefined,
  media: readonly MediaItem[],
  metadata: Record<string, unknown>,
  validate = true,
): UnifiedOutput {
  const full: Record<string, unknown> = { ...metadata, usage_reported: usage !== undefined };
  if (usage !== undefined && Object.keys(usage.details).length > 0) full.usage_details = usage.details;
  const success = {
    success: true,
    content: content.trim() === '' && media.length > 0 ? describeMedia(media) : content,
    provider,
    usage: { input_tokens: usage?.input ?? 0, output_tokens: usage?.output ?? 0 },
    metadata: full,
    ...sortMedia(media),
  } as UnifiedSuccess;
  return validate ? checkProviderSuccess(success) : success;
}

/** A provider's success envelope, validated: itself when valid, else {@link invalidProviderResponse}. */
export function checkProviderSuccess(success: UnifiedSuccess): UnifiedOutput {
  const checked = validateUnifiedOutput(success);
  return checked.valid ? checked.value : invalidProviderResponse(success, checked.violations);
}

/**
 * The failure that replaces a provider's success envelope that does not validate: `INVALID_PROVIDER_RESPONSE`
 * naming the violations, the metadata kept without the usage facts of the answer it replaces.
 */
export function invalidProviderResponse(success: UnifiedSuccess, violations: unknown[]): UnifiedFailure {
  const { usage_reported: _reported, usage_details: _details, ...rest } = success.metadata;
  return assembleFailure(
    success.provider,
    'INVALID_PROVIDER_RESPONSE',
    'The provider response leads to an invalid envelope.',
    { violations },
    rest,
  );
}
