import type { ModelMakers } from '../ai-sdk/model-types.js';
import { PACKAGED_TYPES, type PackagedTypeName } from '../ai-sdk/packaged-types.js';
import type { Modality } from '../basics/route-table.js';
import type { ProviderSettings } from '../config/config.js';

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
export type PackagedModels = ModelMakers;

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

/**
 * The package of each type, loaded the first time a provider of that type is configured: a gateway loads only
 * the packages its providers use, and a package that is not installed fails only the calls of that type.
 */
const LOADERS = {
  azure: () => import('@ai-sdk/azure'),
  'amazon-bedrock': () => import('@ai-sdk/amazon-bedrock'),
  'google-vertex': () => import('@ai-sdk/google-vertex'),
  mistral: () => import('@ai-sdk/mistral'),
  groq: () => import('@ai-sdk/groq'),
  xai: () => import('@ai-sdk/xai'),
  deepseek: () => import('@ai-sdk/deepseek'),
  cohere: () => import('@ai-sdk/cohere'),
  togetherai: () => import('@ai-sdk/togetherai'),
  fireworks: () => import('@ai-sdk/fireworks'),
  cerebras: () => import('@ai-sdk/cerebras'),
  perplexity: () => import('@ai-sdk/perplexity'),
  ollama: () => import('@ai-sdk/openai-compatible'),
  elevenlabs: () => import('@ai-sdk/elevenlabs'),
  deepgram: () => import('@ai-sdk/deepgram'),
  fal: () => import('@ai-sdk/fal'),
  luma: () => import('@ai-sdk/luma'),
} as const satisfies Record<PackagedTypeName, () => Promise<unknown>>;

/** The loaded package of a type. */
type Package<T extends PackagedTypeName> = Awaited<ReturnType<(typeof LOADERS)[T]>>;

/** A key, or `undefined` when none is set (for SDKs that choose another credential when it is absent). */
const keyOrNone = (key: string) => (key === '' ? undefined : key);

/**
 * The factory of each packaged provider type: its `@ai-sdk/*` package, configured from the gateway's settings and
 * environment only (never from `process.env` behind the gateway's back), per modality.
 */
const FACTORIES: { [T in PackagedTypeName]: (sdk: Package<T>, input: PackagedInput) => PackagedModels } = {
  azure: ({ createAzure }, { key, settings, common, env }) => {
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
  'amazon-bedrock': ({ createAmazonBedrock }, { key, common, env }) => {
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
    return {
      text: (model) => bedrock(model),
      images: (model) => bedrock.image(model),
      embeddings: (model) => bedrock.embeddingModel(model),
    };
  },
  'google-vertex': ({ createVertex }, { key, common, env }) => {
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
  mistral: ({ createMistral }, { key, common }) => {
    const mistral = createMistral({ ...common, apiKey: key });
    return { text: (model) => mistral(model), embeddings: (model) => mistral.embeddingModel(model) };
  },
  groq: ({ createGroq }, { key, common }) => {
    const groq = createGroq({ ...common, apiKey: key });
    return { text: (model) => groq(model), transcriptions: (model) => groq.transcription(model) };
  },
  xai: ({ createXai }, { key, common }) => {
    const xai = createXai({ ...common, apiKey: key });
    return {
      text: (model) => xai(model),
      images: (model) => xai.image(model),
      videos: (model) => xai.video(model),
    };
  },
  deepseek: ({ createDeepSeek }, { key, common }) => {
    const deepseek = createDeepSeek({ ...common, apiKey: key });
    return { text: (model) => deepseek(model) };
  },
  cohere: ({ createCohere }, { key, common }) => {
    const cohere = createCohere({ ...common, apiKey: key });
    return { text: (model) => cohere(model), embeddings: (model) => cohere.embeddingModel(model) };
  },
  togetherai: ({ createTogetherAI }, { key, common }) => {
    const together = createTogetherAI({ ...common, apiKey: key });
    return { text: (model) => together(model), images: (model) => together.image(model) };
  },
  fireworks: ({ createFireworks }, { key, common }) => {
    const fireworks = createFireworks({ ...common, apiKey: key });
    return { text: (model) => fireworks(model), images: (model) => fireworks.image(model) };
  },
  cerebras: ({ createCerebras }, { key, common }) => {
    const cerebras = createCerebras({ ...common, apiKey: key });
    return { text: (model) => cerebras(model) };
  },
  perplexity: ({ createPerplexity }, { key, common }) => {
    const perplexity = createPerplexity({ ...common, apiKey: key });
    return { text: (model) => perplexity(model) };
  },
  ollama: ({ createOpenAICompatible }, { id, key, baseURL, common }) => {
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
  elevenlabs: ({ createElevenLabs }, { key, baseURL, common }) => {
    const fetch = rebasedFetch([[PACKAGED_TYPES.elevenlabs.defaultBaseURL, '']], baseURL, common.fetch);
    const elevenlabs = createElevenLabs({ ...withoutBase(common), apiKey: key, ...(fetch ? { fetch } : {}) });
    return {
      speech: (model) => elevenlabs.speech(model),
      transcriptions: (model) => elevenlabs.transcription(model),
    };
  },
  deepgram: ({ createDeepgram }, { key, baseURL, common }) => {
    const fetch = rebasedFetch([[PACKAGED_TYPES.deepgram.defaultBaseURL, '']], baseURL, common.fetch);
    const deepgram = createDeepgram({ ...withoutBase(common), apiKey: key, ...(fetch ? { fetch } : {}) });
    return {
      transcriptions: (model) => deepgram.transcription(model),
      speech: (model) => deepgram.speech(model),
    };
  },
  fal: ({ createFal }, { key, baseURL, common }) => {
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
  luma: ({ createLuma }, { key, common }) => {
    const luma = createLuma({ ...common, apiKey: key });
    return { images: (model) => luma.image(model) };
  },
};

/** The members of a model that are known before its package is loaded. */
const IDENTITY = new Set<PropertyKey>(['specificationVersion', 'provider', 'modelId']);

/** Members that a caller may read (not call) before the model's first call; V3 lets them be promises or functions. */
const DEFERRABLE = new Set<PropertyKey>(['supportedUrls', 'maxImagesPerCall', 'maxVideosPerCall']);

/**
 * A model whose package is still loading: a V3 model object whose identity is known now and whose every call
 * waits for the package, then goes to the real model. Only the calls a gateway makes right after it started
 * see one; once the package is loaded, providers hand out the real models.
 */
function deferredModel(made: Promise<object>, provider: string, modelId: string): object {
  let real: Record<PropertyKey, unknown> | undefined;
  const ready = made.then((model) => {
    real = model as Record<PropertyKey, unknown>;
    return real;
  });
  const identity: Record<PropertyKey, unknown> = { specificationVersion: 'v3', provider, modelId };
  return new Proxy(identity, {
    get(_target, key) {
      if (real !== undefined) {
        const value = real[key];
        return typeof value === 'function' ? value.bind(real) : value;
      }
      if (IDENTITY.has(key)) return identity[key];
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (key === 'supportedUrls') return ready.then((model) => model.supportedUrls);
      if (DEFERRABLE.has(key)) {
        // `maxImagesPerCall` and `maxVideosPerCall` may be a number or a function of the call; a function serves both.
        return async (options: unknown) => {
          const model = await ready;
          const value = model[key];
          return typeof value === 'function' ? value.call(model, options) : value;
        };
      }
      return async (...args: unknown[]) => {
        const model = await ready;
        const method = model[key];
        if (typeof method !== 'function')
          throw new TypeError(`The ${provider} model has no method ${String(key)}.`);
        return method.apply(model, args);
      };
    },
  });
}

/** The packages loading or loaded, by type (each is imported once per process). */
const loading = new Map<PackagedTypeName, Promise<unknown>>();

/** The package of a type, loading it on first use; a package that is not installed says how to install it. */
function loadPackage<T extends PackagedTypeName>(type: T): Promise<Package<T>> {
  let pending = loading.get(type);
  if (pending === undefined) {
    const name = type === 'ollama' ? '@ai-sdk/openai-compatible' : `@ai-sdk/${type}`;
    pending = LOADERS[type]().catch((error: unknown) => {
      throw new Error(
        `The ${type} provider type needs the package ${name}, which could not be loaded (${String(error)}); install it next to verdict: npm install ${name}.`,
      );
    });
    // The failure reaches the calls of this type; the import itself must not be an unhandled rejection.
    pending.catch(() => {});
    loading.set(type, pending);
  }
  return pending as Promise<Package<T>>;
}

/**
 * The model makers of one packaged provider (see docs/gateway.md, "Provider types"): its package starts loading
 * now; a model asked for before it is loaded is a deferred one, later ones are the SDK's own.
 */
export function createPackagedModels(type: PackagedTypeName, input: PackagedInput): PackagedModels {
  let built: PackagedModels | undefined;
  const building = loadPackage(type).then((sdk) => {
    built = (FACTORIES[type] as (sdk: unknown, input: PackagedInput) => PackagedModels)(sdk, input);
    return built;
  });
  building.catch(() => {});
  const makers: PackagedModels = {};
  for (const modality of PACKAGED_TYPES[type].modalities as readonly Modality[]) {
    const make = (modelId: string): unknown => {
      const real = built?.[modality];
      if (real !== undefined) return real(modelId);
      const made = building.then((models) => {
        const maker = models[modality];
        if (maker === undefined) throw new Error(`The ${type} provider offers no ${modality} models.`);
        return maker(modelId) as object;
      });
      return deferredModel(made, type, modelId);
    };
    (makers as Record<Modality, unknown>)[modality] = make;
  }
  return makers;
}
