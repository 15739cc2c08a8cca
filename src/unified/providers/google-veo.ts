import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { MediaItem } from '../types.js';
import type { FormatSpec } from './format-spec.js';
import { GOOGLE_REQUEST_ID_HEADERS, googleFailure } from './google.js';
import {
  contentFiltered,
  expectObject,
  type Json,
  type Outcome,
  optionalString,
  ShapeError,
} from './provider-outcome.js';

/** google.rpc `Code` numbers and their names: a failed operation's `error.code` is one of these, not an HTTP status. */
const RPC_CODE_NAMES: Readonly<Record<number, string>> = {
  1: 'CANCELLED',
  2: 'UNKNOWN',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  10: 'ABORTED',
  11: 'OUT_OF_RANGE',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  15: 'DATA_LOSS',
  16: 'UNAUTHENTICATED',
};

/** The videos of a finished operation: Gemini API `generatedSamples[].video.uri`, Vertex AI `videos[]`. */
function videosOf(result: Json): MediaItem[] {
  const media: MediaItem[] = [];
  const samples = Array.isArray(result.generatedSamples) ? result.generatedSamples : [];
  for (const sample of samples) {
    const video = isJsonObject(sample) && isJsonObject(sample.video) ? sample.video : undefined;
    if (video === undefined) continue;
    const mediaType = optionalString(video.mimeType, '`video.mimeType`') ?? 'video/mp4';
    if (typeof video.uri === 'string') media.push({ url: video.uri, media_type: mediaType });
    else if (typeof video.videoBytes === 'string')
      media.push({ data: video.videoBytes, media_type: mediaType });
  }
  const videos = Array.isArray(result.videos) ? result.videos : [];
  for (const video of videos) {
    if (!isJsonObject(video)) continue;
    const mediaType = optionalString(video.mimeType, '`mimeType`') ?? 'video/mp4';
    if (typeof video.gcsUri === 'string') media.push({ url: video.gcsUri, media_type: mediaType });
    else if (typeof video.bytesBase64Encoded === 'string')
      media.push({ data: video.bytesBase64Encoded, media_type: mediaType });
  }
  return media;
}

/**
 * Parse a Veo long-running operation (the answer of `:predictLongRunning` and of each poll): pending while not
 * `done`, a failure when it ended with `error`, the videos when it ended with `response`.
 */
function parseOperation(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  const name = optionalString(root.name, '`name`');
  if (name === undefined) {
    if (isJsonObject(root.error)) return googleFailure(root, status);
    throw new ShapeError('The body is not a long-running operation (it has no `name`).');
  }
  const progress = isJsonObject(root.metadata) ? root.metadata.progressPercent : undefined;
  const metadata = omitUndefined({
    operation_name: name,
    // Operation names embed the model: `models/veo-3.0-generate-001/operations/…`.
    model: /(?:^|\/)models\/([^/]+)\//.exec(name)?.[1],
    progress: typeof progress === 'number' ? progress : undefined,
  });
  if (isJsonObject(root.error)) {
    const code = root.error.code;
    const rpcName = typeof code === 'number' ? RPC_CODE_NAMES[code] : undefined;
    const failure = googleFailure(
      { error: { ...root.error, status: root.error.status ?? rpcName ?? 'UNKNOWN' } },
      status,
    );
    return { ...failure, metadata: { ...metadata, job_status: 'failed', finish_reason: 'error' } };
  }
  if (root.done !== true) {
    return {
      kind: 'success',
      content: 'Video generation in progress.',
      metadata: { ...metadata, job_status: 'pending' },
    };
  }
  const response = expectObject(root.response, 'The `response` of a finished operation');
  const result = isJsonObject(response.generateVideoResponse) ? response.generateVideoResponse : response;
  const media = videosOf(result);
  const reasons = Array.isArray(result.raiMediaFilteredReasons)
    ? result.raiMediaFilteredReasons.filter((reason): reason is string => typeof reason === 'string')
    : [];
  const filteredCount = typeof result.raiMediaFilteredCount === 'number' ? result.raiMediaFilteredCount : 0;
  if (media.length === 0) {
    if (filteredCount > 0 || reasons.length > 0) {
      const details = omitUndefined({
        rai_media_filtered_count: filteredCount,
        rai_media_filtered_reasons: reasons,
      });
      const message = reasons.length > 0 ? reasons.join(' ') : 'The generated videos were filtered.';
      return contentFiltered(message, details, { ...metadata, job_status: 'completed' });
    }
    throw new ShapeError('The finished operation holds no video.');
  }
  return {
    kind: 'success',
    // Media-only: the envelope assembly describes it (`Generated 1 video.`).
    content: '',
    media,
    metadata: omitUndefined({
      ...metadata,
      job_status: 'completed',
      finish_reason: 'stop',
      rai_media_filtered_count: filteredCount > 0 ? filteredCount : undefined,
    }),
  };
}

/** `google.veo`: a Veo video-generation operation (Gemini API or Vertex AI), created or polled. */
export const googleVeo: FormatSpec = {
  provider: 'google',
  aiSdkProviders: ['google.vertex.video'],
  requestIdHeaders: GOOGLE_REQUEST_ID_HEADERS,
  parseSuccess: (body, context) => parseOperation(body, context.status),
  parseError: (body, status, text) => googleFailure(body, status, text),
};
