import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import type { MediaItem } from '../types.js';
import type { FormatSpec } from './format-spec.js';
import { GOOGLE_REQUEST_ID_HEADERS, googleFailure } from './google.js';
import {
  contentFiltered,
  expectArray,
  expectObject,
  type Outcome,
  optionalString,
  ShapeError,
} from './provider-outcome.js';

/** Parse an Imagen `:predict` body: `predictions` of base64 images (or Cloud Storage URIs) and filtered slots. */
function parseImagen(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (isJsonObject(root.error)) return googleFailure(root, status);
  if (root.predictions === undefined) {
    // Imagen answers `{}` when every image was filtered and the request did not ask for includeRaiReason: the
    // body alone cannot tell that from a broken answer.
    throw new ShapeError(
      'The body holds no `predictions` (Imagen answers {} when every image was filtered; request includeRaiReason to be told).',
    );
  }
  const media: MediaItem[] = [];
  const filtered: string[] = [];
  for (const entry of expectArray(root.predictions, '`predictions`')) {
    const prediction = expectObject(entry, 'A prediction');
    const mediaType = optionalString(prediction.mimeType, '`mimeType`') ?? 'image/png';
    // Imagen returns the enhanced prompt it actually used in `prompt`.
    const revised = optionalString(prediction.prompt, '`prompt`');
    if (typeof prediction.bytesBase64Encoded === 'string') {
      media.push(
        omitUndefined({
          data: prediction.bytesBase64Encoded,
          media_type: mediaType,
          revised_prompt: revised,
        }) as MediaItem,
      );
    } else if (typeof prediction.gcsUri === 'string') {
      media.push(
        omitUndefined({
          url: prediction.gcsUri,
          media_type: mediaType,
          revised_prompt: revised,
        }) as MediaItem,
      );
    } else if (typeof prediction.raiFilteredReason === 'string') {
      filtered.push(prediction.raiFilteredReason);
    }
    // Anything else (the positive prompt's safety attributes) is not an image.
  }
  if (media.length === 0) {
    if (filtered.length > 0)
      return contentFiltered(filtered.join(' '), { rai_filtered_reasons: filtered }, {});
    throw new ShapeError('`predictions` holds no image.');
  }
  return {
    kind: 'success',
    // Media-only: the envelope assembly describes it (`Generated 2 images.`).
    content: '',
    media,
    metadata: omitUndefined({
      filtered_count: filtered.length > 0 ? filtered.length : undefined,
      rai_filtered_reasons: filtered.length > 0 ? filtered : undefined,
    }),
  };
}

/** `google.imagen`: Imagen image generation through `:predict` (Gemini API and Vertex AI). */
export const googleImagen: FormatSpec = {
  provider: 'google',
  aiSdkProviders: ['google.vertex.image'],
  requestIdHeaders: GOOGLE_REQUEST_ID_HEADERS,
  parseSuccess: (body, context) => parseImagen(body, context.status),
  parseError: (body, status, text) => googleFailure(body, status, text),
};
