import { describeMedia, sortMedia } from './classify-media.js';
import type { ReportedUsage } from './providers/provider-outcome.js';
import type { UnifiedErrorCode } from './status-for-code.js';
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
 * {@link describeMedia}). Strict about what verdict emits: when
 * the parts do not make a valid envelope, the result is an `INVALID_PROVIDER_RESPONSE` failure instead.
 */
export function assembleSuccess(
  provider: string,
  content: string,
  usage: ReportedUsage | undefined,
  media: readonly MediaItem[],
  metadata: Record<string, unknown>,
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
  const checked = validateUnifiedOutput(success);
  if (checked.ok) return success;
  const { usage_reported: _reported, usage_details: _details, ...rest } = full;
  return assembleFailure(
    provider,
    'INVALID_PROVIDER_RESPONSE',
    'The provider response leads to an invalid envelope.',
    { violations: checked.violations },
    rest,
  );
}
