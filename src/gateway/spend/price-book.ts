import type { Provider } from '@pydantic/genai-prices';
import type { ProviderType } from '../config/config.js';
import { type ModelPrices, overrideProvider } from '../config/price-settings.js';

/**
 * Where a call's price comes from (docs/gateway.md, "Prices"): the pinned table of `@pydantic/genai-prices`,
 * bundled with the package and never fetched at run time, and the operator's own prices from the gateway's
 * configuration, which win over the table.
 */

/** The version of the bundled price table; a test keeps it equal to the installed package's. */
export const PRICE_TABLE_VERSION = '0.1.8';

/** What the gateway prices calls with: the operator's prices and the type of each configured provider. */
export interface PriceBook {
  /** Operator prices by `provider:model`, tried before the table. */
  readonly overrides: ReadonlyMap<string, Provider>;
  /** The type of each configured provider, by id: it says which of the table's providers to look in. */
  readonly providerTypes: ReadonlyMap<string, ProviderType>;
}

/** A price book over the configuration's prices and providers. */
export function createPriceBook(
  prices: Readonly<Record<string, ModelPrices>> | undefined,
  providerTypes: ReadonlyMap<string, ProviderType>,
): PriceBook {
  const overrides = new Map<string, Provider>();
  for (const [label, modelPrices] of Object.entries(prices ?? {}))
    overrides.set(label, overrideProvider(label, modelPrices));
  return { overrides, providerTypes };
}

/**
 * The price table's provider for a provider type, or an openai-compatible provider's id (`openrouter`). A
 * self-hosted server (`ollama`, another openai-compatible one) has none: its prices come from the configuration.
 */
export const TABLE_PROVIDERS: Readonly<Partial<Record<string, string>>> = {
  openai: 'openai',
  azure: 'azure',
  anthropic: 'anthropic',
  google: 'google',
  'google-vertex': 'google',
  'amazon-bedrock': 'aws',
  mistral: 'mistral',
  groq: 'groq',
  xai: 'x-ai',
  deepseek: 'deepseek',
  cohere: 'cohere',
  togetherai: 'together',
  fireworks: 'fireworks',
  cerebras: 'cerebras',
  perplexity: 'perplexity',
  openrouter: 'openrouter',
};
