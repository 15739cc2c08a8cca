import { keyEnvOf, type ProviderSettings } from '../config/config.js';
import type { ProviderModels } from '../providers/providers.js';
import { createNativeTransport, type NativeTransport } from './call-native.js';
import { wireRouteOf } from './wire-formats.js';

/**
 * The native transport of a configured provider whose type has a native route (docs/design.md, "Native wire
 * formats"), with the same base URL, key and headers as its AI SDK provider; `undefined` otherwise, or when it has
 * no base URL to call. The key is read here, as the provider's AI SDK package reads it, and stays in the
 * transport's closure.
 */
export function createNativeTransportOf(
  provider: ProviderModels,
  settings: ProviderSettings,
  env: Readonly<Record<string, string | undefined>>,
  fetch: typeof globalThis.fetch,
): NativeTransport | undefined {
  if (provider.text === undefined) return undefined;
  const route = wireRouteOf({ id: provider.id, type: provider.type, api: settings.api });
  const baseURL = provider.baseURL ?? route?.defaultBaseURL;
  if (route === undefined || baseURL === undefined) return undefined;
  const keyEnv = keyEnvOf(provider.id, settings);
  const key = settings.apiKey ?? (keyEnv === undefined ? undefined : env[keyEnv]) ?? '';
  return createNativeTransport(route, { baseURL, key, headers: settings.headers, fetch });
}
