import type { ProviderType } from '../config.js';
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
  /** How the key is sent: `authorization: Bearer <key>` or Anthropic's `x-api-key`. */
  readonly auth: 'bearer' | 'x-api-key';
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

/** The native routes by provider type. */
const NATIVE: { readonly [T in ProviderType]?: RouteOf } = {};

/** The native route of a configured provider, or `undefined` when it goes through the AI SDK. */
export function wireRouteOf(choice: WireChoice): WireRoute | undefined {
  return NATIVE[choice.type]?.(choice);
}
