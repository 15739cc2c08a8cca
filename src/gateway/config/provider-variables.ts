import { PACKAGED_TYPE_NAMES, PACKAGED_TYPES, type PackagedTypeName } from '../ai-sdk/packaged-types.js';

/**
 * The environment variables that configure each provider type (its key and base URL, as its SDK reads them), and
 * the sets of them that turn a provider on without a configuration file. Pure data with no schema library, so
 * that the console can name the very variables the gateway reads (docs/gateway.md, "Provider types").
 */

/** The kinds of provider the gateway talks to, each through its Vercel AI SDK provider package. */
export const PROVIDER_TYPES = [
  'openai',
  'anthropic',
  'google',
  'replicate',
  'openai-compatible',
  // The built-in offline provider (`verdict gateway --demo`): generated answers, no key, no network.
  'demo',
] as const;

/** Every provider type a configuration may name: {@link PROVIDER_TYPES} and the packaged ones (`mistral`, `azure`…). */
export const ALL_PROVIDER_TYPES: readonly ProviderType[] = [...PROVIDER_TYPES, ...PACKAGED_TYPE_NAMES];

/** One of {@link PROVIDER_TYPES} or of the packaged types (docs/gateway.md, "Provider types"). */
export type ProviderType = (typeof PROVIDER_TYPES)[number] | PackagedTypeName;

/** OpenAI-compatible services known by id: their default base URL and key variable. */
export const KNOWN_COMPATIBLE: Readonly<
  Record<string, { baseURL: string; keyEnv: string; baseEnv: string }>
> = {
  openrouter: {
    baseURL: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    baseEnv: 'OPENROUTER_BASE_URL',
  },
};

/** The key and base-URL variables of each provider type, as their SDKs read them. */
export const PROVIDER_ENV: Readonly<
  Record<
    Exclude<ProviderType, 'openai-compatible' | 'demo'>,
    {
      keyEnv: string;
      baseEnv: string;
      enabledBy?: readonly (readonly string[])[];
    }
  >
> = {
  openai: { keyEnv: 'OPENAI_API_KEY', baseEnv: 'OPENAI_BASE_URL' },
  anthropic: { keyEnv: 'ANTHROPIC_API_KEY', baseEnv: 'ANTHROPIC_BASE_URL' },
  google: { keyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY', baseEnv: 'GOOGLE_GENERATIVE_AI_BASE_URL' },
  replicate: { keyEnv: 'REPLICATE_API_TOKEN', baseEnv: 'REPLICATE_BASE_URL' },
  ...PACKAGED_TYPES,
};

/** The sets of variables that configure a provider from the environment (see `PackagedType.enabledBy`). */
export function enablingSets(names: {
  keyEnv: string;
  enabledBy?: readonly (readonly string[])[];
}): readonly (readonly string[])[] {
  return names.enabledBy ?? [[names.keyEnv]];
}

/** True when every variable of one of `sets` is set and not blank. */
export function isEnabled(
  sets: readonly (readonly string[])[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return sets.some((names) => names.every((name) => (env[name] ?? '').trim() !== ''));
}

/** A provider the gateway can configure from the environment alone, and the variables that do it. */
export interface ProviderVariables {
  /** The provider id (and type). */
  provider: string;
  /** Sets of variables: setting every variable of one set configures the provider. */
  variables: string[][];
}

/**
 * The variables that configure each provider from the environment alone, by provider id: the very sets
 * `providersFromEnv` checks, so the start-up hint and `--help` cannot name a variable that configures nothing.
 */
export function providerVariables(): ProviderVariables[] {
  return Object.entries({ ...PROVIDER_ENV, ...KNOWN_COMPATIBLE }).map(([provider, names]) => ({
    provider,
    variables: enablingSets(names).map((set) => [...set]),
  }));
}

/** One provider's variables for people: `A`, `A + B` when both are needed, alternatives joined by `or`. */
export function describeProviderVariables(variables: readonly (readonly string[])[]): string {
  return variables.map((set) => set.join(' + ')).join(' or ');
}
