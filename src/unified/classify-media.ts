import type { MediaItem } from './types.js';

/** Which modality array a media item belongs in. */
export type MediaKind = 'images' | 'files' | 'videos';

/** Media types of common output extensions, used to classify URLs and fill in `media_type`. */
const EXTENSION_MEDIA_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  pcm: 'audio/pcm',
  pdf: 'application/pdf',
  json: 'application/json',
  txt: 'text/plain',
  zip: 'application/zip',
  glb: 'model/gltf-binary',
} as const;

/** Non-standard media type spellings some SDKs and servers emit, and their registered forms. */
const MEDIA_TYPE_ALIASES: Readonly<Record<string, string>> = {
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'image/jpg': 'image/jpeg',
};

/** A media type in its registered form: lowercase, without parameters, aliases such as `audio/mp3` resolved. */
export function canonicalMediaType(mediaType: string): string {
  const bare = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE_ALIASES[bare] ?? bare;
}

/** The media type a file name or URL path suggests by its extension, if it is a known one. */
export function mediaTypeFromName(nameOrUrl: string): string | undefined {
  let path = nameOrUrl;
  try {
    path = new URL(nameOrUrl).pathname;
  } catch {
    // Not a URL: a bare file name.
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension !== undefined && Object.hasOwn(EXTENSION_MEDIA_TYPES, extension)
    ? EXTENSION_MEDIA_TYPES[extension as keyof typeof EXTENSION_MEDIA_TYPES]
    : undefined;
}

/**
 * Classify a media item into `images`, `videos` or `files` by its media type, else by its URL's extension;
 * anything else (audio, documents, unknown) is a file.
 */
export function classifyMedia(item: MediaItem): MediaKind {
  const mediaType =
    item.media_type ??
    (item.url === undefined ? undefined : mediaTypeFromName(item.url)) ??
    (item.name === undefined ? undefined : mediaTypeFromName(item.name));
  if (mediaType?.startsWith('image/')) return 'images';
  if (mediaType?.startsWith('video/')) return 'videos';
  return 'files';
}

/** A media item for a URL: a `data:` URL becomes base64 data with its media type, others keep the URL. */
export function mediaItemFromUrl(url: string): MediaItem {
  const dataUrl = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (dataUrl?.[1] !== undefined && dataUrl[2] !== undefined)
    return { data: dataUrl[2], media_type: dataUrl[1] };
  const mediaType = mediaTypeFromName(url);
  return mediaType === undefined ? { url } : { url, media_type: mediaType };
}

/** The noun a media item is counted under in {@link describeMedia}, singular and plural. */
function mediaNoun(item: MediaItem): readonly [string, string] {
  const kind = classifyMedia(item);
  if (kind === 'images') return ['image', 'images'];
  if (kind === 'videos') return ['video', 'videos'];
  const mediaType =
    item.media_type ??
    (item.url === undefined ? undefined : mediaTypeFromName(item.url)) ??
    (item.name === undefined ? undefined : mediaTypeFromName(item.name));
  return mediaType?.toLowerCase().startsWith('audio/') ? ['audio clip', 'audio clips'] : ['file', 'files'];
}

/**
 * The short description that stands as `content` when an answer holds media and no text (the unified output
 * asks for one): what was produced and how many, for example `Generated 2 images and 1 audio clip.`
 * @example describeMedia([{ url: 'https://x/a.png' }]) // 'Generated 1 image.'
 */
export function describeMedia(items: readonly MediaItem[]): string {
  const counts = new Map<string, { count: number; nouns: readonly [string, string] }>();
  for (const item of items) {
    const nouns = mediaNoun(item);
    const entry = counts.get(nouns[0]) ?? { count: 0, nouns };
    entry.count += 1;
    counts.set(nouns[0], entry);
  }
  const parts = [...counts.values()].map(
    ({ count, nouns }) => `${count} ${count === 1 ? nouns[0] : nouns[1]}`,
  );
  if (parts.length === 0) return 'Generated nothing.';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Generated ${list}.`;
}

/** Sort media items into the three modality arrays, keeping their order. */
export function sortMedia(items: readonly MediaItem[]): Record<MediaKind, MediaItem[]> {
  const sorted: Record<MediaKind, MediaItem[]> = { images: [], files: [], videos: [] };
  for (const item of items) sorted[classifyMedia(item)].push(item);
  return sorted;
}
