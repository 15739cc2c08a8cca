import {
  APICallError,
  type EmbeddingModel,
  type ImageModel,
  type LanguageModel,
  type SpeechModel,
  type TranscriptionModel,
} from 'ai';
import type { VideoModel } from '../ai-sdk/model-types.js';
import { DEMO_VIDEO_WEBM } from './demo-video.js';
import { encodePng, type Rgb } from './encode-png.js';
import { encodeWav, toLittleEndian } from './encode-wav.js';
import { DEMO_TEXT, DEMO_TOOL_CALL, DEMO_TRANSCRIPT } from './recordings.js';
import { sampleJson } from './sample-json.js';

/*
 * The demo provider's models are AI SDK model objects (specification v4), so a demo request takes the same path
 * through the gateway as any provider's: `generateText`, `streamText`, `generateImage`… call them, and the
 * `verdict/unified/ai-sdk` adapter turns their results into envelopes. They answer offline: text from
 * recordings, media generated here (a PNG, a WAV chord) or shipped (a two-second WebM), objects made up from the
 * schema asked for, and the model `fail` fails on purpose. docs/gateway.md ("The demo provider") has the table.
 */

type V4<M> = Extract<M, { specificationVersion: 'v4' }>;
type TextModelV4 = V4<LanguageModel>;
type TextCallOptions = Parameters<TextModelV4['doGenerate']>[0];
type TextResult = Awaited<ReturnType<TextModelV4['doGenerate']>>;
type TextStreamPart =
  Awaited<ReturnType<TextModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Tool = NonNullable<TextCallOptions['tools']>[number];

/** The envelope's provider for the demo's answers. */
const PROVIDER = 'demo';

/** The model id that fails every call, so the console can show a failure envelope. */
export const FAILING_DEMO_MODEL = 'fail';

/** How the demo provider behaves. */
export interface DemoOptions {
  /** Milliseconds between two streamed text deltas: 0 in tests, a reading pace from the command line. */
  paceMs?: number | undefined;
}

/** The error of the failing model: a provider's 503 that says not to retry, so it is answered at once. */
function failOnPurpose(modelId: string): never {
  throw new APICallError({
    message: `The demo model "${modelId}" fails on purpose, to show what a failure looks like.`,
    url: 'demo:',
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: false,
  });
}

/** Resolves after `ms` milliseconds, or rejects when the signal aborts first. */
function paceFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A 32-bit FNV-1a hash: the same words give the same colours and notes, run after run. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function responseOf(modelId: string) {
  return { timestamp: new Date(), modelId, headers: {} as Record<string, string> };
}

function usageOf(inputTokens: number, outputTokens: number): TextResult['usage'] {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/**
 * The tool the demo calls, if any: none when no function tool is offered, when the tool choice is `none`, or
 * when the conversation ends with a tool's result (the model then answers in text, as a real one would).
 */
function toolToCall(options: TextCallOptions): Extract<Tool, { type: 'function' }> | undefined {
  const tools = (options.tools ?? []).filter(
    (tool): tool is Extract<Tool, { type: 'function' }> => tool.type === 'function',
  );
  const choice = options.toolChoice;
  if (tools.length === 0 || choice?.type === 'none') return undefined;
  if (options.prompt[options.prompt.length - 1]?.role === 'tool') return undefined;
  if (choice?.type === 'tool') return tools.find((tool) => tool.name === choice.toolName);
  return tools[0];
}

/** The tool call's input: the tool's first example when it gives one, else one made up from its schema. */
function toolInputOf(tool: Extract<Tool, { type: 'function' }>): string {
  const example = tool.inputExamples?.[0]?.input;
  return JSON.stringify(example ?? sampleJson(tool.inputSchema, DEMO_TOOL_CALL.input));
}

/** The answer's text: the recorded greeting, or JSON when the call asks for it (an object of its schema). */
function textOf(options: TextCallOptions): string {
  const format = options.responseFormat;
  if (format?.type !== 'json') return DEMO_TEXT.text;
  return JSON.stringify(
    format.schema === undefined ? { message: DEMO_TEXT.text } : sampleJson(format.schema),
  );
}

function createTextModel(modelId: string, paceMs: number): TextModelV4 {
  const answer = (options: TextCallOptions) => {
    options.abortSignal?.throwIfAborted();
    if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
    const tool = toolToCall(options);
    return tool === undefined
      ? { kind: 'text' as const, text: textOf(options) }
      : { kind: 'tool' as const, toolName: tool.name, input: toolInputOf(tool) };
  };
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const planned = answer(options);
      const response = { ...responseOf(modelId), id: 'demo-text' };
      if (planned.kind === 'tool') {
        return {
          content: [
            { type: 'tool-call', toolCallId: 'call_demo', toolName: planned.toolName, input: planned.input },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usageOf(DEMO_TOOL_CALL.inputTokens, DEMO_TOOL_CALL.outputTokens),
          warnings: [],
          response,
        };
      }
      return {
        content: [{ type: 'text', text: planned.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usageOf(DEMO_TEXT.inputTokens, DEMO_TEXT.outputTokens),
        warnings: [],
        response,
      };
    },
    async doStream(options) {
      const planned = answer(options);
      const parts: TextStreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'demo-text', modelId, timestamp: new Date() },
      ];
      if (planned.kind === 'tool') {
        parts.push(
          { type: 'tool-input-start', id: 'call_demo', toolName: planned.toolName },
          { type: 'tool-input-delta', id: 'call_demo', delta: planned.input },
          { type: 'tool-input-end', id: 'call_demo' },
          { type: 'tool-call', toolCallId: 'call_demo', toolName: planned.toolName, input: planned.input },
          {
            type: 'finish',
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: usageOf(DEMO_TOOL_CALL.inputTokens, DEMO_TOOL_CALL.outputTokens),
          },
        );
      } else {
        parts.push({ type: 'text-start', id: 'text-0' });
        // One delta per word, as a provider streams: the console shows the text arriving.
        for (const word of planned.text.match(/\S+\s*/g) ?? []) {
          parts.push({ type: 'text-delta', id: 'text-0', delta: word });
        }
        parts.push(
          { type: 'text-end', id: 'text-0' },
          {
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: usageOf(DEMO_TEXT.inputTokens, DEMO_TEXT.outputTokens),
          },
        );
      }
      const signal = options.abortSignal;
      let next = 0;
      const stream = new ReadableStream<TextStreamPart>({
        async pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          const part = parts[next++];
          // At a reading pace between deltas when one is set (the command line's --demo); at once in tests.
          if (paceMs > 0 && part?.type === 'text-delta' && next > 4) {
            try {
              await paceFor(paceMs, signal);
            } catch (reason) {
              controller.error(reason);
              return;
            }
          }
          if (part === undefined) controller.close();
          else controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

/** Images the demo answers at most per call, like a provider's own limit. */
const MAX_IMAGES = 10;

/** The image's side when neither a size nor an aspect ratio is asked for, and the longest side it draws. */
const DEFAULT_SIDE = 512;
const MAX_SIDE = 2048;

/** The pixels one call may draw in all (n × width × height): drawing is CPU time of the gateway's own process. */
const MAX_PIXELS_PER_CALL = 2048 * 2048;

/** The pixel size of a demo image: the size asked for, else the aspect ratio on a 768-pixel long side. */
function imageSizeOf(size: string | undefined, aspectRatio: string | undefined): [number, number] {
  const clamp = (side: number) => Math.min(Math.max(Math.round(side), 16), MAX_SIDE);
  const [w, h] = (size ?? '').split('x').map(Number);
  if (w !== undefined && h !== undefined && w > 0 && h > 0) return [clamp(w), clamp(h)];
  const [rw, rh] = (aspectRatio ?? '').split(':').map(Number);
  if (rw !== undefined && rh !== undefined && rw > 0 && rh > 0) {
    return rw >= rh ? [clamp(768), clamp((768 * rh) / rw)] : [clamp((768 * rw) / rh), clamp(768)];
  }
  return [DEFAULT_SIDE, DEFAULT_SIDE];
}

/** A colour from eight bits of a hash, on a wheel of saturated hues. */
function colourOf(hash: number, lightness: number): Rgb {
  const hue = ((hash & 0xff) / 256) * 6;
  const channel = (offset: number) => {
    const k = (hue + offset) % 6;
    return Math.round(255 * lightness * (1 - 0.7 * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [channel(5), channel(3), channel(1)];
}

/**
 * A picture drawn from the prompt: a sky that fades between two colours over a sea of a third, and a sun, their
 * colours and the sun's place taken from a hash of the model, prompt, seed and image number.
 */
function drawImage(width: number, height: number, key: string): Uint8Array {
  const hash = hashOf(key);
  const top = colourOf(hash, 0.55);
  const bottom = colourOf(hash >>> 8, 1);
  const sea = colourOf(hash >>> 16, 0.45);
  const sun: Rgb = [255, 236, 170];
  const horizon = Math.round(height * 0.68);
  const cx = width * (0.25 + ((hash >>> 24) / 255) * 0.5);
  const cy = horizon - height * 0.12;
  const radius = Math.min(width, height) * 0.14;
  const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
    Math.round(a[0] + (b[0] - a[0]) * t),
    Math.round(a[1] + (b[1] - a[1]) * t),
    Math.round(a[2] + (b[2] - a[2]) * t),
  ];
  return encodePng(width, height, (x, y) => {
    if (y >= horizon) {
      // The sea darkens towards the bottom, with the sun's reflection in a column under it.
      const depth = (y - horizon) / Math.max(1, height - horizon);
      const water = mix(sea, [0, 0, 0], depth * 0.5);
      const glint = Math.abs(x - cx) < radius * (1 - depth) && (y - horizon) % 6 < 2;
      return glint ? mix(water, sun, 0.6) : water;
    }
    const sky = mix(top, bottom, y / horizon);
    const distance = Math.hypot(x - cx, y - cy);
    if (distance < radius) return sun;
    return distance < radius * 1.6 ? mix(sun, sky, (distance - radius) / (radius * 0.6)) : sky;
  });
}

function createImageModel(modelId: string): V4<ImageModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    maxImagesPerCall: MAX_IMAGES,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
      const count = Math.min(Math.max(options.n, 1), MAX_IMAGES);
      const [width, height] = imageSizeOf(options.size, options.aspectRatio);
      if (count * width * height > MAX_PIXELS_PER_CALL) {
        throw new APICallError({
          message: `The demo draws at most ${MAX_PIXELS_PER_CALL} pixels per call; ${count} × ${width}×${height} is more: ask for fewer or smaller images.`,
          url: 'demo:',
          requestBodyValues: { n: count, size: `${width}x${height}` },
          statusCode: 400,
          isRetryable: false,
        });
      }
      return {
        images: Array.from({ length: count }, (_, index) =>
          drawImage(width, height, `${modelId}\n${options.prompt ?? ''}\n${options.seed ?? 0}\n${index}`),
        ),
        warnings: [],
        response: responseOf(modelId),
      };
    },
  };
}

/** The demo's audio: 24 kHz mono, 16-bit. */
const SAMPLE_RATE = 24_000;

/** Speech formats the demo can answer: a WAV file, or the same samples raw (`pcm`). */
const SPEECH_FORMATS = ['wav', 'pcm'] as const;

/**
 * A chord of three notes, faded in and out, as long as the text would take to say (1 to 3 seconds); its root
 * note comes from the model and voice, so two demo voices sound apart.
 */
function synthesizeChord(text: string, modelId: string, voice: string | undefined): Int16Array {
  const seconds = Math.min(3, Math.max(1, text.trim().split(/\s+/).length * 0.3));
  const root = 196 * 2 ** ((hashOf(`${modelId}\n${voice ?? ''}`) % 12) / 12);
  const notes = [root, root * 2 ** (4 / 12), root * 2 ** (7 / 12)];
  const samples = new Int16Array(Math.round(seconds * SAMPLE_RATE));
  const fade = SAMPLE_RATE * 0.05;
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    const envelope = Math.min(1, i / fade, (samples.length - i) / fade);
    const value = notes.reduce((sum, note) => sum + Math.sin(2 * Math.PI * note * t), 0) / notes.length;
    samples[i] = Math.round(value * envelope * 0.6 * 32767);
  }
  return samples;
}

function createSpeechModel(modelId: string): V4<SpeechModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
      const format = options.outputFormat ?? 'wav';
      if (!(SPEECH_FORMATS as readonly string[]).includes(format)) {
        // Encoding MP3 and the other compressed formats would take a codec the package does not carry.
        throw new APICallError({
          message: `The demo speaks ${SPEECH_FORMATS.join(' or ')} only, not ${format}: ask for "format": "wav", or leave format out.`,
          url: 'demo:',
          requestBodyValues: { format },
          statusCode: 400,
          isRetryable: false,
        });
      }
      const samples = synthesizeChord(options.text, modelId, options.voice);
      return {
        audio: format === 'pcm' ? toLittleEndian(samples) : encodeWav(samples, SAMPLE_RATE),
        warnings: [],
        response: responseOf(modelId),
      };
    },
  };
}

function createTranscriptionModel(modelId: string): V4<TranscriptionModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
      return {
        text: DEMO_TRANSCRIPT.text,
        segments: DEMO_TRANSCRIPT.segments.map((segment) => ({ ...segment })),
        language: DEMO_TRANSCRIPT.language,
        durationInSeconds: DEMO_TRANSCRIPT.durationInSeconds,
        warnings: [],
        response: responseOf(modelId),
      };
    },
  };
}

/**
 * A video model that works as a job, as real ones do: starting answers an operation, and every status check of
 * it answers the finished video, the shipped two-second WebM. The operation holds all the demo needs, so any
 * gateway instance can poll it.
 */
function createVideoModel(modelId: string): V4<VideoModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    maxVideosPerCall: 1,
    async doStart(options) {
      options.abortSignal?.throwIfAborted();
      if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
      return { operation: { demo_job: modelId }, warnings: [], response: responseOf(modelId) };
    },
    async doStatus(options) {
      options.abortSignal?.throwIfAborted();
      return {
        status: 'completed',
        videos: [{ type: 'base64', data: DEMO_VIDEO_WEBM.data, mediaType: DEMO_VIDEO_WEBM.mediaType }],
        warnings: [],
        response: responseOf(modelId),
      };
    },
  } as V4<VideoModel>;
}

/** A demo video job's operation: it names its model only and is answered from shipped data, with no request. */
export function isDemoVideoOperation(operation: unknown): boolean {
  return typeof (operation as { demo_job?: unknown } | null)?.demo_job === 'string';
}

/** Dimensions of a demo embedding. */
const DEMO_DIMENSIONS = 8;

/**
 * A demo embedding model: a unit vector per text made from its characters, so the same text always gets the same
 * vector and different texts differ; one token counted per four characters, as a rough provider would count.
 */
function createEmbeddingModel(modelId: string): V4<EmbeddingModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed(options) {
      options.abortSignal?.throwIfAborted();
      if (modelId === FAILING_DEMO_MODEL) failOnPurpose(modelId);
      const embeddings = options.values.map((value) => {
        const vector = new Array<number>(DEMO_DIMENSIONS).fill(0);
        for (let index = 0; index < value.length; index++) {
          vector[index % DEMO_DIMENSIONS] = (vector[index % DEMO_DIMENSIONS] ?? 0) + value.charCodeAt(index);
        }
        const length = Math.hypot(...vector) || 1;
        return vector.map((component) => Math.round((component / length) * 1e6) / 1e6);
      });
      const tokens = options.values.reduce((sum, value) => sum + Math.ceil(value.length / 4), 0);
      return { embeddings, usage: { tokens }, warnings: [], response: { headers: {} } };
    },
  };
}

/**
 * The model ids `GET /v1/models` lists for the demo, per modality: two that answer (so the console can compare
 * two routes) and the one that fails. Any other id works as well.
 */
export const DEMO_CATALOG = {
  text: ['chat', 'chat-mini', FAILING_DEMO_MODEL],
  images: ['image', 'image-sketch', FAILING_DEMO_MODEL],
  speech: ['tts', 'tts-bright', FAILING_DEMO_MODEL],
  transcriptions: ['stt', 'stt-fast', FAILING_DEMO_MODEL],
  videos: ['video', 'video-short', FAILING_DEMO_MODEL],
  embeddings: ['embed', 'embed-small', FAILING_DEMO_MODEL],
} as const;

/** The demo provider's model makers, one per modality; any model id is accepted and named in the answer. */
export function createDemoModels(options: DemoOptions = {}) {
  const paceMs = options.paceMs ?? 0;
  return {
    text: (modelId: string) => createTextModel(modelId, paceMs),
    images: (modelId: string) => createImageModel(modelId),
    speech: (modelId: string) => createSpeechModel(modelId),
    transcriptions: (modelId: string) => createTranscriptionModel(modelId),
    videos: (modelId: string) => createVideoModel(modelId),
    embeddings: (modelId: string) => createEmbeddingModel(modelId),
  } as const;
}
