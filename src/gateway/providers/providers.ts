import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createReplicate } from '@ai-sdk/replicate';
import { omitUndefined } from '../../contract/findings.js';
import type { ModelMakers, VideoRun } from '../ai-sdk/model-types.js';
import {
  isPackagedType,
  PACKAGED_MODALITIES,
  PACKAGED_TYPES,
  type PackagedType,
} from '../ai-sdk/packaged-types.js';
import { type Modality, ROUTE_NAMES } from '../basics/route-table.js';
import {
  KNOWN_COMPATIBLE,
  keyEnvOf,
  PROVIDER_ENV,
  type ProviderSettings,
  type ProviderType,
  providerTypeOf,
} from '../config/config.js';
import { createDemoModels, type DemoOptions, isDemoVideoOperation } from '../demo/create-demo-models.js';
import { createPackagedModels } from './packaged-providers.js';

export type { Modality } from '../basics/route-table.js';

/** Makes the models of one configured provider, per modality; a missing entry means "not offered". */
export interface ProviderModels extends ModelMakers {
  /** The configured id, which is the envelope's `provider`. */
  readonly id: string;
  /** Which AI SDK provider package serves it. */
  readonly type: ProviderType;
  /** The base URL in use, for `GET /v1/models` (never a key). */
  readonly baseURL: string | undefined;
  /** How its video models run; set whenever `videos` is. */
  readonly videoRun?: VideoRun;
  /**
   * Anthropic's token count of a Messages request (`POST /v1/messages/count_tokens`), with this provider's own
   * key; set for `anthropic` providers only (docs/gateway.md, "Anthropic clients").
   */
  readonly countTokens?: (body: unknown, signal: AbortSignal) => Promise<Response>;
}

/** Anthropic's API root when a provider sets no base URL (the AI SDK's default too). */
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/** Anthropic's API version the token count is asked with (the AI SDK's own). */
const ANTHROPIC_VERSION = '2023-06-01';

/** What each provider type offers, for the docs and `GET /v1/models`. */
export const MODALITIES_OF: Readonly<Record<ProviderType, readonly Modality[]>> = {
  openai: ['text', 'images', 'speech', 'transcriptions', 'embeddings'],
  anthropic: ['text'],
  google: ['text', 'images', 'speech', 'transcriptions', 'videos', 'embeddings'],
  replicate: ['images', 'videos'],
  'openai-compatible': ['text', 'images', 'embeddings'],
  // The demo answers every route that calls providers.
  demo: ROUTE_NAMES,
  ...PACKAGED_MODALITIES,
};

/** Model instances kept per provider and modality; more distinct model ids than this are built per request. */
const MODELS_KEPT = 256;

/** Characters of model ids kept per provider and modality, all ids together (64 Ki). */
const MODEL_ID_CHARS_KEPT = 64 * 1024;

/**
 * `make`, remembering what it built: an AI SDK model instance is a stateless description of where and how to
 * call, so one per model id serves every request. Model ids come from requests, so only the first
 * `MODELS_KEPT` are kept, and only while their ids together stay within `MODEL_ID_CHARS_KEPT` characters,
 * which bounds the memory in bytes whatever clients send (requests also bound a model id's length).
 */
function kept<M>(make: ((modelId: string) => M) | undefined): ((modelId: string) => M) | undefined {
  if (make === undefined) return undefined;
  const made = new Map<string, M>();
  let chars = 0;
  return (modelId) => {
    let model = made.get(modelId);
    if (model === undefined) {
      model = make(modelId);
      if (made.size < MODELS_KEPT && chars + modelId.length <= MODEL_ID_CHARS_KEPT) {
        made.set(modelId, model);
        chars += modelId.length;
      }
    }
    return model;
  };
}

/** A Gemini operation (`@ai-sdk/google`): its name, `models/<model>/operations/<id>`, and nothing that climbs. */
function isGeminiOperation(operation: unknown): boolean {
  const name = (operation as { operationName?: unknown } | null)?.operationName;
  return (
    typeof name === 'string' &&
    /^(?:models\/[A-Za-z0-9._-]+\/)?operations\/[A-Za-z0-9._-]+$/.test(name) &&
    !name.split('/').includes('..')
  );
}

/** A Replicate prediction (`@ai-sdk/replicate`): its status URL, which the SDK checks belongs to its base URL. */
function isReplicateOperation(operation: unknown): boolean {
  const url = (operation as { getUrl?: unknown } | null)?.getUrl;
  if (typeof url !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The AI SDK provider of one configured provider, each model instance built once per model id (see
 * `buildProviderModels`).
 */
export function createProviderModels(
  id: string,
  settings: ProviderSettings,
  env: Readonly<Record<string, string | undefined>>,
  fetch?: typeof globalThis.fetch,
  demo: DemoOptions = {},
): ProviderModels {
  const built = buildProviderModels(id, settings, env, fetch, demo);
  // One member per modality (the compiler asks for a new one); the ones a provider does not offer are left out.
  const makers = {
    text: kept(built.text),
    images: kept(built.images),
    speech: kept(built.speech),
    transcriptions: kept(built.transcriptions),
    videos: kept(built.videos),
    embeddings: kept(built.embeddings),
  } satisfies Record<Modality, unknown>;
  return {
    id: built.id,
    type: built.type,
    baseURL: built.baseURL,
    ...omitUndefined({
      videoRun: built.videoRun,
      countTokens: built.countTokens,
    }),
    ...omitUndefined(makers),
  };
}

/**
 * Build the AI SDK provider of one configured provider. The key comes from the settings or the environment at
 * build time and stays inside the SDK's provider object: nothing the gateway logs or answers can reach it.
 */
function buildProviderModels(
  id: string,
  settings: ProviderSettings,
  env: Readonly<Record<string, string | undefined>>,
  fetch: typeof globalThis.fetch | undefined,
  demo: DemoOptions,
): ProviderModels {
  const type = providerTypeOf(id, settings);
  const keyEnv = keyEnvOf(id, settings);
  const apiKey = settings.apiKey ?? (keyEnv === undefined ? undefined : env[keyEnv]);
  if (type === 'demo') {
    return {
      id,
      type,
      baseURL: undefined,
      ...createDemoModels(demo),
      videoRun: { kind: 'job', isOperation: isDemoVideoOperation },
    };
  }
  const baseEnv = type === 'openai-compatible' ? KNOWN_COMPATIBLE[id]?.baseEnv : PROVIDER_ENV[type].baseEnv;
  const baseURL =
    settings.baseURL ??
    (baseEnv === undefined ? undefined : env[baseEnv] || undefined) ??
    (type === 'openai-compatible' ? KNOWN_COMPATIBLE[id]?.baseURL : undefined) ??
    (isPackagedType(type) ? (PACKAGED_TYPES[type] as PackagedType).defaultBaseURL : undefined);
  const common = {
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(settings.headers === undefined ? {} : { headers: settings.headers }),
    // The gateway's guarded fetch (bounds, no redirects across origins; docs/gateway.md).
    ...(fetch === undefined ? {} : { fetch }),
  };
  // A missing key is sent as an empty one: the provider then answers 401, which becomes AUTHENTICATION_ERROR,
  // instead of the SDK throwing LoadAPIKeyError with the variable's name on every call.
  const key = apiKey ?? '';
  if (isPackagedType(type)) {
    // The packaged types are a table (packaged-providers.ts): one factory per `@ai-sdk/*` package, loaded on demand.
    const { videoRun } = PACKAGED_TYPES[type] as PackagedType;
    return {
      id,
      type,
      baseURL,
      ...createPackagedModels(type, { id, key, baseURL, settings, common, env }),
      ...(videoRun === undefined ? {} : { videoRun }),
    };
  }
  switch (type) {
    case 'openai': {
      const openai = createOpenAI({ ...common, apiKey: key, name: id });
      return {
        id,
        type,
        baseURL,
        text: (model) => (settings.api === 'responses' ? openai.responses(model) : openai.chat(model)),
        images: (model) => openai.image(model),
        speech: (model) => openai.speech(model),
        transcriptions: (model) => openai.transcription(model),
        embeddings: (model) => openai.embeddingModel(model),
      };
    }
    case 'anthropic': {
      const anthropic = createAnthropic({ ...common, apiKey: key });
      const send = fetch ?? globalThis.fetch;
      const countTokens = (body: unknown, signal: AbortSignal) =>
        send(`${(baseURL ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '')}/messages/count_tokens`, {
          method: 'POST',
          headers: {
            ...settings.headers,
            'content-type': 'application/json',
            'anthropic-version': ANTHROPIC_VERSION,
            'x-api-key': key,
          },
          body: JSON.stringify(body),
          signal,
        });
      return { id, type, baseURL, text: (model) => anthropic(model), countTokens };
    }
    case 'google': {
      const google = createGoogleGenerativeAI({ ...common, apiKey: key });
      return {
        id,
        type,
        baseURL,
        text: (model) => google(model),
        images: (model) => google.image(model),
        speech: (model) => google.speech(model),
        transcriptions: (model) => google.transcription(model),
        videos: (model) => google.video(model),
        embeddings: (model) => google.embeddingModel(model),
        videoRun: { kind: 'job', isOperation: isGeminiOperation },
      };
    }
    case 'replicate': {
      const replicate = createReplicate({ ...common, apiToken: key });
      return {
        id,
        type,
        baseURL,
        images: (model) => replicate.image(model),
        videos: (model) => replicate.video(model),
        videoRun: { kind: 'job', isOperation: isReplicateOperation },
      };
    }
    case 'openai-compatible': {
      const compatible = createOpenAICompatible({
        ...common,
        baseURL: baseURL ?? '',
        name: id,
        apiKey: key,
        includeUsage: true,
      });
      return {
        id,
        type,
        baseURL,
        text: (model) => compatible.chatModel(model),
        images: (model) => compatible.imageModel(model),
        embeddings: (model) => compatible.embeddingModel(model),
      };
    }
  }
}
