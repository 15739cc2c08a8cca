import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAzure } from '@ai-sdk/azure';
import { createCerebras } from '@ai-sdk/cerebras';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepgram } from '@ai-sdk/deepgram';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createElevenLabs } from '@ai-sdk/elevenlabs';
import { createFal } from '@ai-sdk/fal';
import { createFireworks } from '@ai-sdk/fireworks';
import { createVertex } from '@ai-sdk/google-vertex';
import { createGroq } from '@ai-sdk/groq';
import { createLuma } from '@ai-sdk/luma';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createTogetherAI } from '@ai-sdk/togetherai';
import { createXai } from '@ai-sdk/xai';
import type { ImageModel, LanguageModel, SpeechModel, TranscriptionModel } from 'ai';
import type { ProviderSettings } from './config.js';
import { PACKAGED_TYPES, type PackagedTypeName } from './packaged-types.js';

/** A video model, as `experimental_generateVideo` takes it (the same type as in `providers.ts`). */
type VideoModel = Parameters<typeof import('ai').experimental_generateVideo>[0]['model'];

/** What a factory gets: the provider's id, key, base URL and settings, the options every SDK takes, the env. */
export interface PackagedInput {
  /** The configured id. */
  id: string;
  /** The key ('' when none is set: the provider then answers 401). */
  key: string;
  /** The base URL from the configuration or the type's variable, when one is set. */
  baseURL: string | undefined;
  /** The configuration of the provider. */
  settings: ProviderSettings;
  /** The options every AI SDK provider takes: base URL, headers (and whatever the gateway adds, such as fetch). */
  common: { baseURL?: string; headers?: Record<string, string>; fetch?: typeof fetch };
  /** The environment the gateway was started with. */
  env: Readonly<Record<string, string | undefined>>;
}

/** The model makers one packaged provider offers, per modality. */
export interface PackagedModels {
  text?: (modelId: string) => LanguageModel;
  images?: (modelId: string) => ImageModel;
  speech?: (modelId: string) => SpeechModel;
  transcriptions?: (modelId: string) => TranscriptionModel;
  videos?: (modelId: string) => VideoModel;
}

/**
 * A fetch that sends requests for an origin of `routes` to the configured base URL (plus the route's path)
 * instead: for the SDKs that take no base URL (ElevenLabs, Deepgram) or ignore it (fal), so that they too can be
 * pointed at a proxy or a local replay server.
 */
function rebasedFetch(
  routes: readonly (readonly [from: string, path: string])[],
  to: string | undefined,
  inner: typeof fetch | undefined,
): typeof fetch | undefined {
  if (to === undefined) return inner;
  const target = to.replace(/\/+$/, '');
  const send = inner ?? globalThis.fetch;
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const route = routes.find(([from]) => url === from || url.startsWith(`${from}/`));
    return send(route === undefined ? input : target + route[1] + url.slice(route[0].length), init);
  }) as typeof fetch;
}

/** `common` without its base URL, for the SDKs that take none. */
function withoutBase(common: PackagedInput['common']): Omit<PackagedInput['common'], 'baseURL'> {
  const { baseURL: _baseURL, ...rest } = common;
  return rest;
}

/** A key, or `undefined` when none is set (for SDKs that choose another credential when it is absent). */
const keyOrNone = (key: string) => (key === '' ? undefined : key);

/**
 * The factory of each packaged provider type: its `@ai-sdk/*` package, configured from the gateway's settings and
 * environment only (never from `process.env` behind the gateway's back), per modality.
 */
export const PACKAGED_FACTORIES: Readonly<
  Record<PackagedTypeName, (input: PackagedInput) => PackagedModels>
> = {
  azure: ({ key, settings, common, env }) => {
    const azure = createAzure({
      ...common,
      apiKey: key,
      ...(env.AZURE_RESOURCE_NAME ? { resourceName: env.AZURE_RESOURCE_NAME } : {}),
      ...(env.AZURE_API_VERSION ? { apiVersion: env.AZURE_API_VERSION } : {}),
    });
    return {
      text: (model) => (settings.api === 'responses' ? azure.responses(model) : azure.chat(model)),
      images: (model) => azure.image(model),
      speech: (model) => azure.speech(model),
      transcriptions: (model) => azure.transcription(model),
    };
  },
  'amazon-bedrock': ({ key, common, env }) => {
    // A Bedrock API key (bearer token) when set; else SigV4 with the standard AWS variables.
    const credentials =
      key !== ''
        ? { apiKey: key }
        : {
            accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          };
    const bedrock = createAmazonBedrock({
      ...common,
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      ...credentials,
    });
    return { text: (model) => bedrock(model), images: (model) => bedrock.image(model) };
  },
  'google-vertex': ({ key, common, env }) => {
    // An express-mode API key when set; else a service account through the standard Google variables.
    const vertex = createVertex({
      ...common,
      ...(key !== ''
        ? { apiKey: key }
        : {
            ...(env.GOOGLE_VERTEX_PROJECT ? { project: env.GOOGLE_VERTEX_PROJECT } : {}),
            location: env.GOOGLE_VERTEX_LOCATION || 'us-central1',
            ...(env.GOOGLE_APPLICATION_CREDENTIALS
              ? { googleAuthOptions: { keyFilename: env.GOOGLE_APPLICATION_CREDENTIALS } }
              : {}),
          }),
    });
    return {
      text: (model) => vertex(model),
      images: (model) => vertex.image(model),
      videos: (model) => vertex.video(model),
    };
  },
  mistral: ({ key, common }) => {
    const mistral = createMistral({ ...common, apiKey: key });
    return { text: (model) => mistral(model) };
  },
  groq: ({ key, common }) => {
    const groq = createGroq({ ...common, apiKey: key });
    return { text: (model) => groq(model), transcriptions: (model) => groq.transcription(model) };
  },
  xai: ({ key, common }) => {
    const xai = createXai({ ...common, apiKey: key });
    return {
      text: (model) => xai(model),
      images: (model) => xai.image(model),
      videos: (model) => xai.video(model),
    };
  },
  deepseek: ({ key, common }) => {
    const deepseek = createDeepSeek({ ...common, apiKey: key });
    return { text: (model) => deepseek(model) };
  },
  cohere: ({ key, common }) => {
    const cohere = createCohere({ ...common, apiKey: key });
    return { text: (model) => cohere(model) };
  },
  togetherai: ({ key, common }) => {
    const together = createTogetherAI({ ...common, apiKey: key });
    return { text: (model) => together(model), images: (model) => together.image(model) };
  },
  fireworks: ({ key, common }) => {
    const fireworks = createFireworks({ ...common, apiKey: key });
    return { text: (model) => fireworks(model), images: (model) => fireworks.image(model) };
  },
  cerebras: ({ key, common }) => {
    const cerebras = createCerebras({ ...common, apiKey: key });
    return { text: (model) => cerebras(model) };
  },
  perplexity: ({ key, common }) => {
    const perplexity = createPerplexity({ ...common, apiKey: key });
    return { text: (model) => perplexity(model) };
  },
  ollama: ({ id, key, baseURL, common }) => {
    // Ollama's OpenAI-compatible endpoint: no key unless a proxy in front of it asks for one.
    const ollama = createOpenAICompatible({
      ...common,
      baseURL: baseURL ?? PACKAGED_TYPES.ollama.defaultBaseURL,
      name: id,
      ...(keyOrNone(key) === undefined ? {} : { apiKey: key }),
      includeUsage: true,
    });
    return { text: (model) => ollama.chatModel(model) };
  },
  elevenlabs: ({ key, baseURL, common }) => {
    const fetch = rebasedFetch([[PACKAGED_TYPES.elevenlabs.defaultBaseURL, '']], baseURL, common.fetch);
    const elevenlabs = createElevenLabs({ ...withoutBase(common), apiKey: key, ...(fetch ? { fetch } : {}) });
    return {
      speech: (model) => elevenlabs.speech(model),
      transcriptions: (model) => elevenlabs.transcription(model),
    };
  },
  deepgram: ({ key, baseURL, common }) => {
    const fetch = rebasedFetch([[PACKAGED_TYPES.deepgram.defaultBaseURL, '']], baseURL, common.fetch);
    const deepgram = createDeepgram({ ...withoutBase(common), apiKey: key, ...(fetch ? { fetch } : {}) });
    return {
      transcriptions: (model) => deepgram.transcription(model),
      speech: (model) => deepgram.speech(model),
    };
  },
  fal: ({ key, baseURL, common }) => {
    // fal's SDK calls fal.run and queue.fal.run by absolute URL whatever its base URL: a configured base URL gets
    // both, the queue under `/queue`.
    const fetch = rebasedFetch(
      [
        ['https://queue.fal.run', '/queue'],
        ['https://fal.run', ''],
      ],
      baseURL,
      common.fetch,
    );
    const fal = createFal({ ...withoutBase(common), apiKey: key, ...(fetch ? { fetch } : {}) });
    return {
      images: (model) => fal.image(model),
      videos: (model) => fal.video(model),
      speech: (model) => fal.speech(model),
      transcriptions: (model) => fal.transcription(model),
    };
  },
  luma: ({ key, common }) => {
    const luma = createLuma({ ...common, apiKey: key });
    return { images: (model) => luma.image(model) };
  },
};
