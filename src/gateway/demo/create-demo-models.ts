import type { EmbeddingModel, ImageModel, LanguageModel, SpeechModel, TranscriptionModel } from 'ai';
import { fromBase64 } from '../../unified/base64.js';
import type { VideoModel } from '../providers.js';
import {
  DEMO_IMAGE_PNG,
  DEMO_SPEECH_MP3,
  DEMO_TEXT,
  DEMO_TOOL_CALL,
  DEMO_TRANSCRIPT,
  DEMO_VIDEO,
} from './recordings.js';

/*
 * The demo provider's models are AI SDK model objects (specification v4), so a demo request takes the same path
 * through the gateway as any provider's: `generateText`, `streamText`, `generateImage`… call them, and the
 * `verdict/unified/ai-sdk` adapter turns their results into envelopes. They answer from recordings, offline.
 */

type V4<M> = Extract<M, { specificationVersion: 'v4' }>;
type TextModelV4 = V4<LanguageModel>;
type TextCallOptions = Parameters<TextModelV4['doGenerate']>[0];
type TextResult = Awaited<ReturnType<TextModelV4['doGenerate']>>;
type TextStreamPart =
  Awaited<ReturnType<TextModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Tool = NonNullable<TextCallOptions['tools']>[number];
type JsonSchema = {
  type?: unknown;
  properties?: unknown;
  required?: unknown;
  enum?: unknown;
  const?: unknown;
};

/** The envelope's provider for the demo's answers. */
const PROVIDER = 'demo';

/** The deepest schema level the demo fills when it makes up a tool call's input. */
const MAX_SCHEMA_DEPTH = 8;

function responseOf(modelId: string) {
  return { timestamp: new Date(), modelId, headers: {} as Record<string, string> };
}

function usageOf(inputTokens: number, outputTokens: number): TextResult['usage'] {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** A value the schema accepts, for a tool input the demo makes up: the recorded one where its names fit. */
function sampleOf(schema: unknown, name: string | undefined, depth: number): unknown {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as JsonSchema;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const recorded = DEMO_TOOL_CALL.input as Record<string, unknown>;
  switch (type) {
    case 'string':
      return name !== undefined && typeof recorded[name] === 'string' ? recorded[name] : 'demo';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    default: {
      if (depth >= MAX_SCHEMA_DEPTH) return {};
      const properties = (
        typeof s.properties === 'object' && s.properties !== null ? s.properties : {}
      ) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? s.required.filter((key) => typeof key === 'string') : [];
      return Object.fromEntries(required.map((key) => [key, sampleOf(properties[key], key, depth + 1)]));
    }
  }
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
  return JSON.stringify(example ?? sampleOf(tool.inputSchema, undefined, 0));
}

function createTextModel(modelId: string): TextModelV4 {
  const answer = (options: TextCallOptions) => {
    options.abortSignal?.throwIfAborted();
    const tool = toolToCall(options);
    return tool === undefined
      ? { kind: 'text' as const }
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
        content: [{ type: 'text', text: DEMO_TEXT.text }],
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
        for (const word of DEMO_TEXT.text.match(/\S+\s*/g) ?? []) {
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
        pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          const part = parts[next++];
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

function createImageModel(modelId: string): V4<ImageModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    maxImagesPerCall: MAX_IMAGES,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      const count = Math.min(Math.max(options.n, 1), MAX_IMAGES);
      return {
        images: Array.from({ length: count }, () => DEMO_IMAGE_PNG),
        warnings: [],
        response: responseOf(modelId),
      };
    },
  };
}

function createSpeechModel(modelId: string): V4<SpeechModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      const other = options.outputFormat !== undefined && options.outputFormat !== 'mp3';
      return {
        audio: fromBase64(DEMO_SPEECH_MP3) ?? new Uint8Array(),
        warnings: other
          ? [{ type: 'unsupported', feature: 'outputFormat', details: 'The demo answers MP3 only.' }]
          : [],
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
 * it answers the finished video. The operation holds all the demo needs, so any gateway instance can poll it.
 */
function createVideoModel(modelId: string): V4<VideoModel> {
  return {
    specificationVersion: 'v4',
    provider: PROVIDER,
    modelId,
    maxVideosPerCall: 1,
    async doStart(options) {
      options.abortSignal?.throwIfAborted();
      return { operation: { demo_job: modelId }, warnings: [], response: responseOf(modelId) };
    },
    async doStatus(options) {
      options.abortSignal?.throwIfAborted();
      return {
        status: 'completed',
        videos: [{ type: 'url', url: DEMO_VIDEO.url, mediaType: DEMO_VIDEO.mediaType }],
        warnings: [],
        response: responseOf(modelId),
      };
    },
  } as V4<VideoModel>;
}

/** A demo video job's operation: it names its model only and is answered from recorded data, with no request. */
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

/** The demo provider's model makers, one per modality; any model id is accepted and named in the answer. */
export const DEMO_MODELS = {
  text: (modelId: string) => createTextModel(modelId),
  images: (modelId: string) => createImageModel(modelId),
  speech: (modelId: string) => createSpeechModel(modelId),
  transcriptions: (modelId: string) => createTranscriptionModel(modelId),
  videos: (modelId: string) => createVideoModel(modelId),
  embeddings: (modelId: string) => createEmbeddingModel(modelId),
} as const;
