import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { fromBase64, toBase64 } from '../base64.js';
import { canonicalMediaType, mediaItemFromUrl } from '../classify-media.js';
import { headerValue } from '../header-value.js';
import { readBody } from '../read-body.js';
import type { MediaItem } from '../types.js';
import type { FormatSpec, StreamAssembly } from './format-spec.js';
import { chatFormat, sniffAudioType } from './openai-compatible.js';
import { openAiFailure } from './openai-failure.js';
import { openAiUsage } from './openai-usage.js';
import {
  expectArray,
  expectObject,
  type FailureOutcome,
  type Json,
  type Outcome,
  optionalLabel,
  optionalString,
  ShapeError,
  StreamCutError,
} from './provider-outcome.js';

const OPENAI_REQUEST_ID = ['x-request-id'] as const;

/** `openai.chat`: OpenAI Chat Completions. */
export const openAiChat: FormatSpec = {
  ...chatFormat('openai', OPENAI_REQUEST_ID),
  aiSdkProviders: ['openai.chat'],
};

/** Width and height of a `WIDTHxHEIGHT` size string. */
function dimensions(size: unknown): { width?: number; height?: number } {
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  return match === null ? {} : { width: Number(match[1]), height: Number(match[2]) };
}

/** Parse an Images API body (generations, edits, variations). */
function parseImages(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (isJsonObject(root.error) && root.data === undefined) return openAiFailure(root, status);
  const format = typeof root.output_format === 'string' ? root.output_format : 'png';
  const size = dimensions(root.size);
  const media = expectArray(root.data, '`data`').map((entry): MediaItem => {
    const image = expectObject(entry, 'An image');
    const revised = optionalString(image.revised_prompt, '`revised_prompt`');
    const common = omitUndefined({ ...size, revised_prompt: revised });
    if (typeof image.b64_json === 'string')
      return { data: image.b64_json, media_type: `image/${format}`, ...common };
    // The Images API only makes images: a URL without a telling extension is still one.
    if (typeof image.url === 'string')
      return { media_type: `image/${format}`, ...mediaItemFromUrl(image.url), ...common };
    throw new ShapeError('An image has neither `b64_json` nor `url`.');
  });
  if (media.length === 0) throw new ShapeError('`data` holds no image.');
  return {
    kind: 'success',
    // The envelope assembly describes media-only answers (`Generated 2 images.`).
    content: '',
    usage: openAiUsage(root.usage),
    media,
    metadata: omitUndefined({
      created: root.created,
      quality: root.quality,
      background: root.background,
      partial_image_count: root.partial_image_count,
    }),
  };
}

const AUDIO_EXTENSIONS: Readonly<Record<string, string>> = {
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/opus': 'opus',
  'audio/ogg': 'ogg',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'audio/pcm': 'pcm',
};

/**
 * Audio folded from a speech stream (`stream_format: "sse"`), with the usage its `speech.audio.done` event
 * reported. Only {@link assembleSpeechStream} makes one, so no JSON body can pass for it.
 */
class StreamedSpeech {
  constructor(
    readonly bytes: Uint8Array,
    readonly usage: unknown,
  ) {}
}

/** Parse a speech body: the audio bytes, typed by the `content-type` header (or, streamed, by their signature). */
function parseSpeech(body: unknown, status: number, contentType: string | undefined): Outcome {
  if (body instanceof StreamedSpeech) {
    const outcome = parseSpeech(body.bytes, status, sniffAudioType(toBase64(body.bytes.subarray(0, 12))));
    return outcome.kind === 'success' ? { ...outcome, usage: openAiUsage(body.usage) } : outcome;
  }
  const mediaType = canonicalMediaType(contentType ?? '') || 'audio/mpeg';
  if (typeof body === 'string' || mediaType === 'application/json') {
    // A JSON body with a 2xx status is an error in disguise at best; it is never audio.
    const read = readBody(typeof body === 'string' ? body : (body as Uint8Array));
    if (read.ok && isJsonObject(read.value) && isJsonObject(read.value.error))
      return openAiFailure(read.value, status);
    throw new ShapeError('The speech body is not audio.');
  }
  if (!(body instanceof Uint8Array)) throw new ShapeError('The speech body is not bytes.');
  if (body.length === 0) throw new ShapeError('The speech body is empty.');
  const extension = AUDIO_EXTENSIONS[mediaType];
  const file: MediaItem = { data: toBase64(body), media_type: mediaType };
  if (extension !== undefined) file.name = `speech.${extension}`;
  return {
    kind: 'success',
    content: `Generated speech audio (${mediaType}, ${body.length} bytes).`,
    media: [file],
    metadata: { audio_bytes: body.length },
  };
}

/** Parse a transcription or translation JSON body (`json` and `verbose_json` response formats). */
function parseTranscription(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (isJsonObject(root.error) && root.text === undefined) return openAiFailure(root, status);
  if (typeof root.text !== 'string') throw new ShapeError('The transcription has no `text`.');
  const usage = isJsonObject(root.usage) ? root.usage : undefined;
  const seconds = usage?.type === 'duration' ? usage.seconds : undefined;
  return {
    kind: 'success',
    content: root.text,
    usage: openAiUsage(usage),
    metadata: omitUndefined({
      language: optionalString(root.language, '`language`'),
      audio_duration_s: typeof root.duration === 'number' ? root.duration : undefined,
      billed_audio_seconds: typeof seconds === 'number' ? seconds : undefined,
      word_count: Array.isArray(root.words) ? root.words.length : undefined,
      segment_count: Array.isArray(root.segments) ? root.segments.length : undefined,
    }),
  };
}

/**
 * Fold an image stream (`stream: true` on generations and edits) into the equivalent Images API body: each
 * `image_generation.completed` / `image_edit.completed` event holds one final image with the request's size,
 * quality, format and usage; the `…partial_image` previews before it are counted, not kept; an `error` event
 * ends the stream as a failure.
 */
function assembleImageStream(events: readonly unknown[]): StreamAssembly {
  const data: Json[] = [];
  let partials = 0;
  let last: Json | undefined;
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    const failure = imageStreamError(item);
    if (failure !== undefined) return failure;
    const type = typeof item.type === 'string' ? item.type : '';
    if (type.endsWith('.partial_image')) partials += 1;
    if (type.endsWith('.completed')) {
      if (typeof item.b64_json !== 'string') throw new ShapeError(`\`${type}\` has no \`b64_json\`.`);
      data.push({ b64_json: item.b64_json });
      last = item;
    }
  }
  if (last === undefined) throw new StreamCutError('The stream ended before an image was completed.');
  return {
    kind: 'body',
    body: omitUndefined({
      created: last.created_at,
      data,
      size: last.size,
      quality: last.quality,
      background: last.background,
      output_format: last.output_format,
      usage: last.usage,
      partial_image_count: partials,
    }),
  };
}

/** The failure of an image stream's `error` event (its error inside `error` or at its top level). */
function imageStreamError(event: unknown): FailureOutcome | undefined {
  if (
    !isJsonObject(event) ||
    (event.type !== 'error' && (event.type !== undefined || !isJsonObject(event.error)))
  )
    return undefined;
  return openAiFailure({ error: isJsonObject(event.error) ? event.error : event }, 200);
}

/** `openai.images`: the Images API (generations, edits, variations), whole or streamed. */
export const openAiImages: FormatSpec = {
  provider: 'openai',
  aiSdkProviders: ['openai.image', '*.image'],
  requestIdHeaders: OPENAI_REQUEST_ID,
  parseSuccess: (body, context) => parseImages(body, context.status),
  parseError: (body, status, text) => openAiFailure(body, status, text),
  assembleStream: assembleImageStream,
  parseStreamError: imageStreamError,
};

/** The failure of an `error` event of an audio stream, or `undefined` for another event. */
function audioStreamError(item: Json): StreamAssembly | undefined {
  if (item.type !== 'error' && !(item.type === undefined && isJsonObject(item.error))) return undefined;
  return openAiFailure({ error: isJsonObject(item.error) ? item.error : item }, 200);
}

/**
 * Fold a speech stream (`stream_format: "sse"`): `speech.audio.delta` events each carry a base64 piece of the
 * audio, `speech.audio.done` ends it with the usage.
 */
function assembleSpeechStream(events: readonly unknown[]): StreamAssembly {
  const pieces: Uint8Array[] = [];
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    const failed = audioStreamError(item);
    if (failed !== undefined) return failed;
    if (item.type === 'speech.audio.delta') {
      const piece = typeof item.audio === 'string' ? fromBase64(item.audio) : undefined;
      if (piece === undefined) throw new ShapeError('A `speech.audio.delta` event has no base64 `audio`.');
      pieces.push(piece);
    }
    if (item.type === 'speech.audio.done') {
      const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
      let offset = 0;
      for (const piece of pieces) {
        bytes.set(piece, offset);
        offset += piece.length;
      }
      return { kind: 'body', body: new StreamedSpeech(bytes, item.usage) };
    }
  }
  throw new StreamCutError('The stream ended before `speech.audio.done`.');
}

/**
 * Fold a transcription stream (`stream: true` with the gpt-4o transcription models): `transcript.text.delta`
 * events carry pieces of the text, `transcript.text.done` the whole text and the usage.
 */
function assembleTranscriptionStream(events: readonly unknown[]): StreamAssembly {
  let text = '';
  for (const event of events) {
    const item = expectObject(event, 'A stream event');
    const failed = audioStreamError(item);
    if (failed !== undefined) return failed;
    if (item.type === 'transcript.text.delta' && typeof item.delta === 'string') text += item.delta;
    if (item.type === 'transcript.text.done') {
      return {
        kind: 'body',
        body: omitUndefined({ text: typeof item.text === 'string' ? item.text : text, usage: item.usage }),
      };
    }
  }
  throw new StreamCutError('The stream ended before `transcript.text.done`.');
}

/** `openai.speech`: `/v1/audio/speech`, whose successful body is audio bytes, or its SSE stream. */
export const openAiSpeech: FormatSpec = {
  provider: 'openai',
  aiSdkProviders: ['openai.speech', '*.speech'],
  requestIdHeaders: OPENAI_REQUEST_ID,
  binaryBody: true,
  parseSuccess: (body, context) =>
    parseSpeech(body, context.status, headerValue(context.headers, 'content-type')),
  parseError: (body, status, text) => openAiFailure(body, status, text),
  assembleStream: assembleSpeechStream,
};

/** `openai.transcription`: `/v1/audio/transcriptions` and translations, JSON or plain text, or its SSE stream. */
export const openAiTranscription: FormatSpec = {
  provider: 'openai',
  aiSdkProviders: ['openai.transcription', '*.transcription'],
  requestIdHeaders: OPENAI_REQUEST_ID,
  parseSuccess: (body, context) => parseTranscription(body, context.status),
  parseError: (body, status, text) => openAiFailure(body, status, text),
  // The text, srt and vtt response formats answer with plain text.
  parseText: (text) => ({ kind: 'success', content: text, metadata: { response_format: 'text' } }),
  assembleStream: assembleTranscriptionStream,
};

/** Parse a video job object of the Videos API. */
function parseVideo(body: unknown, status: number): Outcome {
  const root = expectObject(body, 'The body');
  if (isJsonObject(root.error) && root.status === undefined) return openAiFailure(root, status);
  const id = optionalString(root.id, '`id`');
  const state = optionalString(root.status, '`status`');
  const metadata = omitUndefined({
    model: optionalLabel(root.model, '`model`'),
    video_id: id,
    provider_status: state,
    progress: typeof root.progress === 'number' ? root.progress : undefined,
    expires_at: root.expires_at ?? undefined,
  });
  if (state === 'failed') {
    const failure = openAiFailure(
      { error: isJsonObject(root.error) ? root.error : { message: 'The video job failed.' } },
      status,
    );
    return { ...failure, metadata: { ...metadata, finish_reason: 'error' } };
  }
  if (state === 'queued' || state === 'in_progress') {
    return {
      kind: 'success',
      content: `Video job ${state.replace('_', ' ')}.`,
      metadata: { ...metadata, job_status: 'pending' },
    };
  }
  if (state !== 'completed' || id === undefined)
    throw new ShapeError('The body is not a video job with a known status.');
  const seconds = Number(root.seconds);
  // The Videos API serves the finished MP4 from /videos/{id}/content (authenticated); the job has no other URL.
  const video: MediaItem = {
    url: `https://api.openai.com/v1/videos/${encodeURIComponent(id)}/content`,
    media_type: 'video/mp4',
    ...dimensions(root.size),
  };
  if (Number.isFinite(seconds) && seconds >= 0 && root.seconds !== undefined) video.duration_s = seconds;
  return {
    kind: 'success',
    content: '',
    media: [video],
    metadata: { ...metadata, job_status: 'completed', finish_reason: 'stop' },
  };
}

/** `openai.videos`: a video job of the Videos API (create or retrieve). */
export const openAiVideos: FormatSpec = {
  provider: 'openai',
  requestIdHeaders: OPENAI_REQUEST_ID,
  parseSuccess: (body, context) => parseVideo(body, context.status),
  parseError: (body, status, text) => openAiFailure(body, status, text),
};
