import { PACKAGED_TYPES } from '../ai-sdk/packaged-types.js';
import type { ProviderType } from '../config/config.js';
import { anthropicMessagesWire } from './anthropic-messages.js';
import { geminiWire } from './gemini-wire.js';
import { compatibleChatWire, mistralChatWire, openAiChatWire, openRouterChatWire } from './openai-chat.js';
import { openAiResponsesWire } from './openai-responses-wire.js';
import type { WireFormat } from './wire-format.js';

/**
 * Which provider types the gateway speaks to natively, and in which wire format (docs/design.md, "Native wire
 * formats"). A type without an entry goes through the AI SDK. Adding a native format is a local change: write
 * the {@link WireFormat}, then name it here for the types that speak it.
 */

/** How a configured provider is reached natively: its wire format, its default API root and how its key is sent. */
export interface WireRoute {
  /** The wire format its text requests are built and read in. */
  readonly wire: WireFormat;
  /** The API root when the configuration and the environment give none; `undefined` when one is required. */
  readonly defaultBaseURL: string | undefined;
  /** How the key is sent: `authorization: Bearer <key>`, Anthropic's `x-api-key` or Gemini's `x-goog-api-key`. */
  readonly auth: 'bearer' | 'x-api-key' | 'x-goog-api-key';
  /** True when a provider without a key is called without the header (Ollama asks for none). */
  readonly keyOptional?: boolean;
}

/** The facts of a configured provider that choose its route. */
export interface WireChoice {
  /** The configured provider id (`openrouter` is read in OpenRouter's dialect of OpenAI Chat). */
  readonly id: string;
  /** The provider type. */
  readonly type: ProviderType;
  /** The OpenAI API a provider of type `openai` is configured with (`chat` when unset). */
  readonly api?: 'chat' | 'responses' | undefined;
}

/** The route of one provider type, given the rest of its configuration; `undefined` for the AI SDK. */
type RouteOf = (choice: WireChoice) => WireRoute | undefined;

/** A route of the compatible Chat Completions family at `defaultBaseURL`. */
function compatible(defaultBaseURL: string | undefined, wire: WireFormat = compatibleChatWire): RouteOf {
  const route: WireRoute = { wire, defaultBaseURL, auth: 'bearer' };
  return () => route;
}

const OPENAI_CHAT: WireRoute = {
  wire: openAiChatWire,
  defaultBaseURL: 'https://api.openai.com/v1',
  auth: 'bearer',
};
const OPENAI_RESPONSES: WireRoute = {
  wire: openAiResponsesWire,
  defaultBaseURL: 'https://api.openai.com/v1',
  auth: 'bearer',
};
const GEMINI: WireRoute = {
  wire: geminiWire,
  defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta',
  auth: 'x-goog-api-key',
};
const OPENROUTER: WireRoute = { wire: openRouterChatWire, defaultBaseURL: undefined, auth: 'bearer' };
const OPENAI_COMPATIBLE: WireRoute = { wire: compatibleChatWire, defaultBaseURL: undefined, auth: 'bearer' };
// Built and read natively; the few requests its builder declines keep the AI SDK path (anthropic-request.ts).
const ANTHROPIC: WireRoute = {
  wire: anthropicMessagesWire,
  defaultBaseURL: 'https://api.anthropic.com/v1',
  auth: 'x-api-key',
};

/**
 * The native routes by provider type; the API roots are the providers' documented ones (the same their AI SDK
 * packages default to). Types left out go through the AI SDK, for the reasons docs/design.md gives.
 */
const NATIVE: { readonly [T in ProviderType]?: RouteOf } = {
  openai: (choice) => (choice.api === 'responses' ? OPENAI_RESPONSES : OPENAI_CHAT),
  // The Gemini API with a key; Vertex AI (its own type, with Google Cloud credentials) stays with the AI SDK.
  google: () => GEMINI,
  'openai-compatible': (choice) => (choice.id === 'openrouter' ? OPENROUTER : OPENAI_COMPATIBLE),
  groq: compatible('https://api.groq.com/openai/v1'),
  deepseek: compatible('https://api.deepseek.com'),
  togetherai: compatible('https://api.together.xyz/v1'),
  fireworks: compatible('https://api.fireworks.ai/inference/v1'),
  xai: compatible('https://api.x.ai/v1'),
  cerebras: compatible('https://api.cerebras.ai/v1'),
  mistral: compatible('https://api.mistral.ai/v1', mistralChatWire),
  anthropic: () => ANTHROPIC,
  ollama: () => ({
    wire: compatibleChatWire,
    defaultBaseURL: PACKAGED_TYPES.ollama.defaultBaseURL,
    auth: 'bearer',
    keyOptional: true,
  }),
};

/** The native route of a configured provider, or `undefined` when it goes through the AI SDK. */
export function wireRouteOf(choice: WireChoice): WireRoute | undefined {
  return NATIVE[choice.type]?.(choice);
}
