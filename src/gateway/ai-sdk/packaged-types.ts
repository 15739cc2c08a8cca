/**
 * The provider types the gateway reaches through a dedicated `@ai-sdk/*` package beyond the first five (see
 * docs/gateway.md, "Provider types"): what each offers, the variables its SDK documents, and what it does not
 * support. Pure data, so that checking a configuration loads no SDK.
 */

import type { Modality } from '../basics/route-table.js';
import type { VideoRun } from './model-types.js';

/** What the gateway knows about one packaged provider type. */
export interface PackagedType {
  /** The variable holding the key (the SDK's own name). */
  keyEnv: string;
  /** The variable holding a base URL that replaces the SDK's default. */
  baseEnv: string;
  /** The base URL used when neither the configuration nor `baseEnv` gives one. */
  defaultBaseURL?: string;
  /** What the gateway offers through it. */
  modalities: readonly Modality[];
  /** How its video models run, when it offers videos. */
  videoRun?: VideoRun;
  /**
   * The sets of variables that configure the provider from the environment without a configuration file: it is
   * on when every variable of one set is set. By default `keyEnv` alone; some providers accept other credentials
   * (AWS access keys, a Vertex project), and Ollama needs no key at all. The start-up hint and `--help` list
   * these same sets (docs/gateway.md, "Provider types").
   */
  enabledBy?: readonly (readonly string[])[];
}

/**
 * Video models that finish in one call, polling under the provider options key `key` (the packages of these types
 * give their models `doGenerate` only, no job to poll: docs/gateway.md, "Endpoints").
 */
const oneCall = (key: string): VideoRun => ({
  kind: 'call',
  pollOptions: (pollMs) => ({ [key]: { pollIntervalMs: pollMs } }),
});

/** The packaged provider types, in the order docs/gateway.md lists them. */
export const PACKAGED_TYPES = {
  azure: {
    keyEnv: 'AZURE_API_KEY',
    baseEnv: 'AZURE_BASE_URL',
    modalities: ['text', 'images', 'speech', 'transcriptions'],
    // The SDK builds its URL from the resource name when no base URL is given.
    enabledBy: [
      ['AZURE_API_KEY', 'AZURE_RESOURCE_NAME'],
      ['AZURE_API_KEY', 'AZURE_BASE_URL'],
    ],
  },
  'amazon-bedrock': {
    keyEnv: 'AWS_BEARER_TOKEN_BEDROCK',
    baseEnv: 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
    modalities: ['text', 'images', 'embeddings'],
    enabledBy: [['AWS_BEARER_TOKEN_BEDROCK'], ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']],
  },
  'google-vertex': {
    keyEnv: 'GOOGLE_VERTEX_API_KEY',
    baseEnv: 'GOOGLE_VERTEX_BASE_URL',
    modalities: ['text', 'images', 'videos'],
    videoRun: oneCall('vertex'),
    enabledBy: [['GOOGLE_VERTEX_API_KEY'], ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_APPLICATION_CREDENTIALS']],
  },
  mistral: { keyEnv: 'MISTRAL_API_KEY', baseEnv: 'MISTRAL_BASE_URL', modalities: ['text', 'embeddings'] },
  groq: { keyEnv: 'GROQ_API_KEY', baseEnv: 'GROQ_BASE_URL', modalities: ['text', 'transcriptions'] },
  xai: {
    keyEnv: 'XAI_API_KEY',
    baseEnv: 'XAI_BASE_URL',
    modalities: ['text', 'images', 'videos'],
    videoRun: oneCall('xai'),
  },
  deepseek: { keyEnv: 'DEEPSEEK_API_KEY', baseEnv: 'DEEPSEEK_BASE_URL', modalities: ['text'] },
  cohere: { keyEnv: 'COHERE_API_KEY', baseEnv: 'COHERE_BASE_URL', modalities: ['text', 'embeddings'] },
  togetherai: { keyEnv: 'TOGETHER_API_KEY', baseEnv: 'TOGETHER_BASE_URL', modalities: ['text', 'images'] },
  fireworks: { keyEnv: 'FIREWORKS_API_KEY', baseEnv: 'FIREWORKS_BASE_URL', modalities: ['text', 'images'] },
  cerebras: { keyEnv: 'CEREBRAS_API_KEY', baseEnv: 'CEREBRAS_BASE_URL', modalities: ['text'] },
  perplexity: { keyEnv: 'PERPLEXITY_API_KEY', baseEnv: 'PERPLEXITY_BASE_URL', modalities: ['text'] },
  ollama: {
    // Ollama asks for no key; a set base URL is what turns it on without a configuration file.
    keyEnv: 'OLLAMA_API_KEY',
    baseEnv: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    modalities: ['text'],
    enabledBy: [['OLLAMA_BASE_URL']],
  },
  elevenlabs: {
    keyEnv: 'ELEVENLABS_API_KEY',
    baseEnv: 'ELEVENLABS_BASE_URL',
    defaultBaseURL: 'https://api.elevenlabs.io',
    modalities: ['speech', 'transcriptions'],
  },
  deepgram: {
    keyEnv: 'DEEPGRAM_API_KEY',
    baseEnv: 'DEEPGRAM_BASE_URL',
    defaultBaseURL: 'https://api.deepgram.com',
    modalities: ['transcriptions', 'speech'],
  },
  fal: {
    keyEnv: 'FAL_API_KEY',
    baseEnv: 'FAL_BASE_URL',
    modalities: ['images', 'videos', 'speech', 'transcriptions'],
    videoRun: oneCall('fal'),
  },
  luma: { keyEnv: 'LUMA_API_KEY', baseEnv: 'LUMA_BASE_URL', modalities: ['images'] },
} as const satisfies Record<string, PackagedType>;

/** One of the packaged provider types. */
export type PackagedTypeName = keyof typeof PACKAGED_TYPES;

/** The packaged type names, in a stable order. */
export const PACKAGED_TYPE_NAMES = Object.keys(PACKAGED_TYPES) as PackagedTypeName[];

/** True when `type` is one of {@link PACKAGED_TYPES}. */
export function isPackagedType(type: string): type is PackagedTypeName {
  return Object.hasOwn(PACKAGED_TYPES, type);
}

/** The modalities of each packaged type, for `MODALITIES_OF`. */
export const PACKAGED_MODALITIES = Object.fromEntries(
  PACKAGED_TYPE_NAMES.map((type) => [type, PACKAGED_TYPES[type].modalities as readonly Modality[]]),
) as Record<PackagedTypeName, readonly Modality[]>;
