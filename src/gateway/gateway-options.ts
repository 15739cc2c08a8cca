import { VerdictError } from '../errors.js';
import {
  checkCredentials,
  describeMissingKeys,
  type GatewayConfig,
  keyEnvOf,
  type ProviderSettings,
  providersFromEnv,
} from './config/config.js';
import { problemsOf } from './config/config-problem.js';
import { checkPrices, pricesSchema } from './config/price-settings.js';
import type { GatewayTelemetry } from './middleware/load-telemetry.js';
import type { GatewayStore } from './store/open-store.js';

// What `createGateway` takes, and what it reads from it before anything is built: the provider settings, the
// gateway keys and the secrets to keep out of answers and logs. A wrong option throws here, at start-up.

/** Answers a request for a static asset (the console), or `undefined` to let the gateway answer. */
export type AssetHandler = (request: Request) => Response | undefined | Promise<Response | undefined>;

/** Everything `createGateway` takes: the configuration plus what only code can give. */
export interface GatewayOptions extends GatewayConfig {
  /** Environment for provider keys and base URLs (`process.env` by the CLI); default: none. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Receives one JSON log line per request; default: none (the CLI writes them to stderr). */
  log?: ((line: string) => void) | undefined;
  /**
   * Static assets such as the web console: asked first for every `GET`/`HEAD` outside `/v1/`, `/healthz`,
   * `/metrics` and `/openapi.json`; what it does not answer becomes a `NOT_FOUND` envelope.
   */
  console?: AssetHandler | undefined;
  /**
   * The `fetch` provider calls go through, under the gateway's bounds (docs/gateway.md, "Bounds"); default: one
   * on a pool of the gateway's own (`createProviderFetch`, a connection per request), which answers as the global `fetch` does
   * for about 0.6× its CPU per plain call.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * An open, migrated store (`openStore`, `migrateStore`): keys with limits, usage records and `/v1/usage`
   * (docs/gateway.md, "Teams"). Without one the gateway keeps no state.
   */
  store?: GatewayStore | undefined;
  /** The admin key for `/v1/usage`; default: `VERDICT_ADMIN_KEY` from `env`. */
  adminKey?: string | undefined;
  /** Admit stored keys without limits while the store is unreachable (default: refuse them). */
  storeFailOpen?: boolean | undefined;
  /**
   * The address it is served on (`verdict gateway --host`). Without gateway keys, on a loopback address (and
   * when not given), `Host` and `Origin` must name this machine (docs/gateway.md, "Security").
   */
  host?: string | undefined;
  /** The clock of limit windows and usage records (tests); default: the system clock. */
  storeClock?: (() => Date) | undefined;
  /**
   * OpenTelemetry already loaded (`loadTelemetry`), so that the first request is traced; default: loaded in the
   * background when `otel` or the OTEL_* variables of `env` name an endpoint, else nothing is loaded.
   */
  telemetry?: GatewayTelemetry | undefined;
  /** The response cache's clock in milliseconds since the epoch (tests); default: `Date.now`. */
  cacheClock?: (() => number) | undefined;
}

/** Shortest gateway key accepted, from any source (configuration, options, `VERDICT_GATEWAY_KEYS`). */
export const MIN_GATEWAY_KEY_LENGTH = 16;

/** The providers of the options: the given ones, else one per provider key set in `env`. */
export function providerSettingsOf(options: GatewayOptions): Record<string, ProviderSettings> {
  return options.providers ?? providersFromEnv(options.env ?? {});
}

/**
 * Refuse providers without their credentials, as `verdict gateway` does at start-up (docs/gateway.md,
 * "Credentials"): a provider whose key variable is missing from `env` would send an empty key on every request.
 * Throws a `VerdictError` naming each variable; providers that need no key, or that have their SDK's own
 * credential chain set, pass.
 */
export function checkProviderKeys(options: GatewayOptions): void {
  const missing = checkCredentials(providerSettingsOf(options), options.env ?? {});
  if (missing.length === 0) return;
  throw new VerdictError('invalid_argument', describeMissingKeys(missing));
}

/**
 * Refuse prices the gateway cannot price calls with (docs/gateway.md, "Prices"), as a configuration file's
 * check does: a wrong shape, tiers out of order, a cache price without the input price it refines.
 */
export function checkPriceOptions(options: GatewayOptions): void {
  if (options.prices === undefined) return;
  const parsed = pricesSchema.safeParse(options.prices);
  const problems = parsed.success
    ? checkPrices(options.prices)
    : problemsOf(parsed.error.issues).map((problem) => ({ ...problem, path: `/prices${problem.path}` }));
  if (problems.length === 0) return;
  throw new VerdictError(
    'invalid_argument',
    `The prices cannot be used: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join(' ')}`,
  );
}

/** The secrets of a configuration: provider keys (given or from the environment), credential headers, gateway keys. */
export function secretsOf(options: GatewayOptions, keys: readonly string[]): string[] {
  const env = options.env ?? {};
  const settings = providerSettingsOf(options);
  const secrets: (string | undefined)[] = [...keys];
  for (const [id, provider] of Object.entries(settings)) {
    const keyEnv = keyEnvOf(id, provider);
    secrets.push(provider.apiKey, keyEnv === undefined ? undefined : env[keyEnv]);
    for (const [name, value] of Object.entries(provider.headers ?? {})) {
      if (/auth|key|token|secret|cookie/i.test(name)) secrets.push(value.replace(/^Bearer\s+/i, ''), value);
    }
  }
  return secrets.filter((secret): secret is string => secret !== undefined);
}

/**
 * The admin key from the options, else `VERDICT_ADMIN_KEY` (empty means none). It reads every team's usage, so it
 * is held to the gateway keys' minimum length: a shorter one is refused at start-up, whether or not a store is
 * used (docs/gateway.md, "Teams").
 */
export function adminKeyOf(options: GatewayOptions): string | undefined {
  const fromOptions = options.adminKey !== undefined;
  const key = fromOptions ? options.adminKey : options.env?.VERDICT_ADMIN_KEY;
  if (key === undefined || key === '') return undefined;
  if (key.length < MIN_GATEWAY_KEY_LENGTH) {
    throw new VerdictError(
      'invalid_argument',
      `The admin key${fromOptions ? '' : ' in VERDICT_ADMIN_KEY'} must be at least ${MIN_GATEWAY_KEY_LENGTH} characters, as gateway keys are; it has ${key.length}.`,
    );
  }
  return key;
}

/** The gateway keys from the options and their environment variable, each at least 16 characters. */
export function gatewayKeysOf(options: GatewayOptions): string[] {
  const variable = options.keysEnv ?? 'VERDICT_GATEWAY_KEYS';
  const fromEnv = (options.env?.[variable] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const short = [...(options.keys ?? []), ...fromEnv].filter((key) => key.length < MIN_GATEWAY_KEY_LENGTH);
  if (short.length > 0) {
    throw new VerdictError(
      'invalid_argument',
      `Gateway keys must be at least ${MIN_GATEWAY_KEY_LENGTH} characters; ${short.length} key(s)${fromEnv.some((key) => short.includes(key)) ? ` in ${variable}` : ''} are shorter.`,
    );
  }
  return [...(options.keys ?? []), ...fromEnv];
}
