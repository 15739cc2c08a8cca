import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { fail, ok } from '../../contract/builders.js';
import { isVerdictError } from '../../errors.js';
import { createProviderFetch } from '../../gateway/ai-sdk/provider-fetch.js';
import { describeMissingKeys } from '../../gateway/config/config.js';
import { duplicateProblems } from '../../gateway/config/config-problem.js';
import {
  type AssetHandler,
  checkCredentials,
  checkGatewayConfig,
  createGateway,
  describeProviderVariables,
  type GatewayConfig,
  type ProviderSettings,
  providersFromEnv,
  providerVariables,
} from '../../gateway/index.js';
import type { GatewayStore } from '../../gateway/store/index.js';
import {
  boundConnections,
  DEFAULT_SERVE_BOUNDS,
  type ServeBounds,
  serverOptionsOf,
} from '../../http/bound-server.js';
import { readJson } from '../../json/index.js';
import { parseArguments } from '../../producer/parse-arguments.js';
import { readInput } from '../../producer/read-input.js';
import { type HelpDefinition, renderHelp } from '../../producer/render-help.js';
import { EXIT, emitResult, reportUsageError, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';
import { statusForCode } from '../../unified/error-taxonomy.js';
import { toHttpResponse } from '../../unified/to-http-response.js';
import { traceIdFrom } from '../../unified/trace-id-from.js';
import { consoleFiles } from './console-files.js';

/**
 * `verdict gateway`, declared like every command: its options are parsed from here and its `--help` is
 * generated from here (docs/cli.md shows it). A new option is one entry of `options`.
 */
export const GATEWAY_COMMAND = {
  name: 'gateway',
  description: [
    'Serve the unified AI output as an HTTP service: POST /v1/text, /v1/images, /v1/speech, /v1/transcriptions,',
    '/v1/videos; GET /v1/models, /healthz, /metrics, /openapi.json. Every answer is a unified envelope. OpenAI and',
    'Anthropic clients work unchanged with base URL <gateway>/openai/v1 or <gateway>/anthropic, for any provider.',
    'Without --config, one route per provider whose variables are set (its key, for most), honouring their',
    '*_BASE_URL variables:',
    ...wrapWords(providerVariables().map(({ variables }) => describeProviderVariables(variables))),
    'Gateway keys: VERDICT_GATEWAY_KEYS (comma-separated). With --store, keys with limits and a usage record;',
    '`verdict gateway keys create|list|show|update|revoke` and `verdict gateway migrate` manage the store.',
  ].join('\n'),
  options: {
    host: { type: 'string', description: 'Address to bind.', default: '127.0.0.1', valueName: 'HOST' },
    port: {
      type: 'integer',
      description: 'Port to bind; 0 picks a free one (the address is printed on stderr).',
      default: 8787,
      min: 0,
      max: 65_535,
      valueName: 'PORT',
    },
    config: {
      type: 'string',
      description: 'A JSON configuration file (docs/gateway.md), checked strictly.',
      valueName: 'FILE',
    },
    'check-config': {
      type: 'boolean',
      description: 'Check the configuration, print what it configures, and exit.',
    },
    console: {
      type: 'string',
      description:
        'Serve the static files of DIR at / (default: the web console built into verdict): regular files inside DIR only, no dotfiles, no symlinks that lead out of DIR.',
      valueName: 'DIR',
    },
    'console-dotfiles': {
      type: 'boolean',
      description: 'Also serve files and folders of the console directory whose name starts with a dot.',
    },
    'console-symlinks': {
      type: 'boolean',
      description: 'Also follow symlinks that lead out of the console directory.',
    },
    'log-content': { type: 'boolean', description: 'Log prompts and outputs (off by default).' },
    'otel-endpoint': {
      type: 'string',
      description:
        'Export OpenTelemetry traces and metrics over OTLP/HTTP to this collector (default OTEL_EXPORTER_OTLP_ENDPOINT, else off).',
      valueName: 'URL',
    },
    cache: {
      type: 'boolean',
      description:
        "Answer repeated text and embeddings requests from a response cache (the config file's cache settings, else a 5-minute TTL); shared through --store.",
    },
    demo: {
      type: 'boolean',
      description:
        'Add the offline demo provider: small generated answers for every route (demo:fail fails), no account needed.',
    },
    store: {
      type: 'string',
      description:
        'Keys with limits and a usage record in a PGlite directory or PostgreSQL (postgres://…); default VERDICT_STORE_URL, else none (no state). VERDICT_ADMIN_KEY reads /v1/usage.',
      valueName: 'DIR|URL',
    },
    'store-fail-open': {
      type: 'boolean',
      description: 'While the store is down, admit stored keys without limits (default: refuse them).',
    },
  },
  errorCodes: {
    invalid_arguments:
      'The command line or the configuration file is wrong; every problem is listed (exit 2).',
    serve_failed: 'The address cannot be served (in use, not permitted); details.code names why (exit 1).',
    missing_dependency: 'A package the gateway needs is not installed; the message names it (exit 1).',
  },
  runtimeCodes: [],
  notes: [
    'Logs: one JSON line per request on stderr. SIGTERM or SIGINT stops gracefully: /healthz answers 503 while\nrequests in flight finish within shutdownGraceMs; then each unfinished one gets a final failure (docs/gateway.md).',
  ],
  exitStatus:
    'Exit status: 0 after a graceful stop, 1 when the address cannot be served, 2 usage or configuration errors.',
} as const satisfies HelpDefinition;

/** Words joined with commas into lines of at most 110 characters, each indented by two spaces. */
function wrapWords(words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [index, word] of words.entries()) {
    const piece = `${word}${index === words.length - 1 ? '.' : ','}`;
    if (line !== '' && line.length + piece.length + 1 > 108) {
      lines.push(`  ${line}`);
      line = '';
    }
    line = line === '' ? piece : `${line} ${piece}`;
  }
  if (line !== '') lines.push(`  ${line}`);
  return lines;
}

/**
 * What to do when no provider is configured: the variables that turn each provider on (the sets the
 * configuration itself checks, so a new provider type is listed as soon as it exists), the config file, and the
 * demo.
 */
function firstRunAdvice(): string {
  const providers = providerVariables();
  const width = Math.max(...providers.map(({ provider }) => provider.length));
  return [
    'verdict gateway: no provider is configured, so every model request fails until one is. To call a provider,',
    'set its variables (its key, for most) and start again:',
    ...providers.map(
      ({ provider, variables }) => `  ${provider.padEnd(width)}  ${describeProviderVariables(variables)}`,
    ),
    'Or describe providers in a JSON file anywhere you like (say ./verdict-gateway.json; docs/gateway.md lists',
    'its members) and start with --config ./verdict-gateway.json.',
    'To try the gateway and its console without any account: verdict gateway --demo',
    '',
  ].join('\n');
}

function usageFailure(
  io: CommandIo,
  json: boolean,
  message: string,
  details: Record<string, unknown> = {},
): number {
  const result = fail(`Invalid arguments for gateway: ${message}`, {
    error: message,
    error_code: 'invalid_arguments',
    details: { usage: 'Run verdict gateway --help for the options.', ...details },
  });
  // Reported as every command reports a usage error: the document with --json, else a line on stderr.
  return reportUsageError(withMeta(result, 'gateway', 0), io, json, 'verdict gateway');
}

/** Read and check a config file; every problem is listed. */
async function loadConfig(
  path: string,
  io: CommandIo,
): Promise<
  { ok: true; config: GatewayConfig } | { ok: false; problems: { path: string; message: string }[] }
> {
  const input = await readInput(path, io);
  if (!input.ok) return { ok: false, problems: [{ path: '', message: input.error.message }] };
  const read = readJson(input.bytes);
  if (!read.ok) {
    const where =
      read.error.line === undefined ? '' : ` (line ${read.error.line}, column ${read.error.column ?? 1})`;
    return {
      ok: false,
      problems: [{ path: '', message: `${path} is not JSON: ${read.error.message}${where}` }],
    };
  }
  const duplicates = duplicateProblems(read.duplicates);
  const checked = checkGatewayConfig(read.value);
  if (!checked.ok || duplicates.length > 0) {
    return { ok: false, problems: [...duplicates, ...(checked.ok ? [] : checked.problems)] };
  }
  return checked;
}

/**
 * Static files of a directory as the gateway's console handler; what is not there, or not a regular file
 * inside the directory (see {@link consoleFiles}), is left to the gateway.
 */
function staticAssets(root: string, allow: { dotfiles?: boolean; symlinks?: boolean } = {}): AssetHandler {
  const assets = new Hono();
  assets.use('*', serveStatic({ root }));
  const servable = consoleFiles(root, allow);
  return async (request) => {
    if (!(await servable(new URL(request.url).pathname))) return undefined;
    const response = await assets.fetch(request);
    return response.status === 404 ? undefined : response;
  };
}

/** Milliseconds between two words the demo streams when started from the command line: about reading speed. */
const DEMO_READING_PACE_MS = 60;

/**
 * The web console that `npm run build` puts in dist/console (docs/console.md). This module runs from
 * dist/cli/commands when built and from src/cli/commands in tests; from either, this path is dist/console.
 */
const BUILT_CONSOLE = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

/** The console handler: the directory given, else the built console when it is there, else none. */
function consoleOption(
  dir: string | undefined,
  allow: { dotfiles?: boolean; symlinks?: boolean },
): { console?: AssetHandler } {
  if (dir !== undefined) return { console: staticAssets(dir, allow) };
  return existsSync(`${BUILT_CONSOLE}index.html`) ? { console: staticAssets(BUILT_CONSOLE) } : {};
}

/**
 * The store `--store` or `VERDICT_STORE_URL` names, opened and migrated; `undefined` without one (the gateway
 * then keeps no state); an exit status when it cannot be opened.
 */
async function openGatewayStore(
  option: string | undefined,
  io: CommandIo,
  json: boolean,
): Promise<{ store: GatewayStore } | undefined | number> {
  const given = option ?? io.env.VERDICT_STORE_URL;
  if (given === undefined || given === '') return undefined;
  const { storeLocation } = await import('./gateway-store.js');
  const { openStore, migrateStore, redactStoreUrl } = await import('../../gateway/store/index.js');
  const location = storeLocation(given, io);
  let store: GatewayStore | undefined;
  try {
    store = await openStore(location, {
      onError: (error) =>
        io.stderr.write(
          `${JSON.stringify({ time: new Date().toISOString(), event: 'store_connection_error', error: error.message })}\n`,
        ),
    });
    await migrateStore(store);
    return { store };
  } catch (error) {
    await store?.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    const result = fail(`verdict gateway could not open the store ${redactStoreUrl(location)}: ${reason}`, {
      error: reason,
      error_code: 'store_unreachable',
      details: { store: redactStoreUrl(location) },
    });
    emitResult(withMeta(result, 'gateway', 0), io, json);
    return EXIT.failure;
  }
}

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (signal === undefined) return;
    if (signal.aborted) done();
    signal.addEventListener('abort', () => done(), { once: true });
  });
}

/** `verdict gateway`: serves the gateway until SIGTERM or SIGINT, then stops gracefully. */
export async function runGateway(argv: readonly string[], io: CommandIo): Promise<number> {
  // `verdict gateway keys …` and `verdict gateway migrate` manage the store (docs/gateway.md, "Teams").
  const first = argv.find((word) => word !== '--json');
  if (first === 'keys' || first === 'migrate') {
    return (await import('./gateway-store.js')).runGatewayStoreCommand(argv, io);
  }
  const parsed = parseArguments(argv, GATEWAY_COMMAND.options);
  if (parsed.help) {
    io.stdout.write(renderHelp(GATEWAY_COMMAND, 'verdict gateway'));
    return EXIT.success;
  }
  if (!parsed.ok) return usageFailure(io, parsed.json, parsed.message);
  if (parsed.positionals.length > 0) {
    return usageFailure(io, parsed.json, `Unexpected argument ${JSON.stringify(parsed.positionals[0])}.`);
  }
  const options = parsed.options as {
    host: string;
    port: number;
    config?: string;
    'check-config'?: boolean;
    console?: string;
    'console-dotfiles'?: boolean;
    'console-symlinks'?: boolean;
    'log-content'?: boolean;
    'otel-endpoint'?: string;
    cache?: boolean;
    demo?: boolean;
    store?: string;
    'store-fail-open'?: boolean;
  };
  // An empty host would make Node listen on every interface: binding beyond loopback must be asked for by name.
  if (options.host.trim() === '') {
    return usageFailure(io, parsed.json, '--host is empty; give an address such as 127.0.0.1 or 0.0.0.0.');
  }
  let config: GatewayConfig = {};
  if (options.config !== undefined) {
    const loaded = await loadConfig(options.config, io);
    if (!loaded.ok) {
      if (!parsed.json) {
        for (const problem of loaded.problems) {
          io.stderr.write(
            `verdict gateway: ${options.config}${problem.path === '' ? '' : ` ${problem.path}`}: ${problem.message}\n`,
          );
        }
      }
      return usageFailure(
        io,
        parsed.json,
        `The configuration ${options.config} has ${loaded.problems.length} problem(s).`,
        {
          problems: loaded.problems,
        },
      );
    }
    config = loaded.config;
  }
  const consoleDir = options.console === undefined ? undefined : resolve(io.cwd, options.console);
  if (consoleDir !== undefined) {
    const found = await stat(consoleDir).catch(() => undefined);
    if (!found?.isDirectory()) {
      return usageFailure(
        io,
        parsed.json,
        `--console ${options.console} ${found === undefined ? 'does not exist' : 'is not a directory'}.`,
      );
    }
  }
  const configured: Record<string, ProviderSettings> = {
    ...(config.providers ?? providersFromEnv(io.env)),
  };
  if (options.demo) {
    if (configured.demo !== undefined && configured.demo.type !== 'demo') {
      return usageFailure(
        io,
        parsed.json,
        'The configuration names a provider "demo" already; --demo adds one by that name. Rename yours.',
      );
    }
    configured.demo = { type: 'demo' };
  }
  config = { ...config, providers: configured };
  const providers = Object.keys(configured);
  const aliases = Object.keys(config.aliases ?? {});
  // A provider without its key would send an empty one and fail on every request: a configuration error now,
  // naming the variable, rather than a 401 from the provider later.
  const missing = checkCredentials(configured, io.env);
  if (missing.length > 0) {
    if (!parsed.json) {
      for (const problem of missing) io.stderr.write(`verdict gateway: ${problem.message}\n`);
    }
    return usageFailure(io, parsed.json, describeMissingKeys(missing), { problems: missing });
  }
  if (options['check-config'] && providers.length === 0) {
    if (!parsed.json) io.stderr.write(firstRunAdvice());
    return usageFailure(
      io,
      parsed.json,
      'No provider is configured: set a provider key variable, give --config FILE, or add --demo.',
      { provider_variables: providerVariables() },
    );
  }
  const consoleHandler = consoleOption(consoleDir, {
    dotfiles: options['console-dotfiles'] === true,
    symlinks: options['console-symlinks'] === true,
  });
  // --check-config opens no store: it checks the configuration only.
  const opened = options['check-config'] ? undefined : await openGatewayStore(options.store, io, parsed.json);
  if (typeof opened === 'number') return opened;
  const store = opened?.store;
  // Built before --check-config answers, so that it checks what only the gateway checks (key lengths).
  let gateway: ReturnType<typeof createGateway>;
  const log = (line: string) => io.stderr.write(`${line}\n`);
  // People watch the demo in the console: its words arrive at a reading pace unless the file sets one.
  const demoPaceMs = options.demo ? (config.demoPaceMs ?? DEMO_READING_PACE_MS) : config.demoPaceMs;
  const providerFetch = createProviderFetch({
    allowDownloadAddresses: config.upstream?.allowDownloadAddresses,
    reuseConnections: config.upstream?.reuseConnections,
  });
  try {
    gateway = createGateway({
      ...config,
      fetch: providerFetch.fetch,
      host: options.host,
      ...(store === undefined ? {} : { store, storeFailOpen: options['store-fail-open'] === true }),
      ...(options['log-content'] ? { logContent: true } : {}),
      ...(options['otel-endpoint'] === undefined
        ? {}
        : { otel: { ...config.otel, endpoint: options['otel-endpoint'] } }),
      ...(demoPaceMs === undefined ? {} : { demoPaceMs }),
      ...(options.cache ? { cache: { ...config.cache, enabled: true } } : {}),
      env: io.env,
      log,
      ...consoleHandler,
    });
  } catch (error) {
    // A gateway key too short (from the environment too) is a configuration error like any other.
    await store?.close().catch(() => undefined);
    if (!isVerdictError(error)) throw error;
    return usageFailure(io, parsed.json, error.message);
  }
  if (options['check-config']) {
    const summary = `The configuration is valid: ${providers.length} provider(s)${providers.length > 0 ? ` (${providers.join(', ')})` : ''}, ${aliases.length} alias(es).`;
    const pace = demoPaceMs === undefined ? {} : { demo_pace_ms: demoPaceMs };
    emitResult(withMeta(ok(summary, { providers, aliases, ...pace }), 'gateway', 0), io, parsed.json);
    return EXIT.success;
  }
  // The OpenTelemetry export, when configured, is loaded before the first request, so that every one is traced.
  await gateway.ready();
  // AI SDK warnings go to the console as free text; the gateway's stderr carries JSON log lines only.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const bounds: ServeBounds = {
    headersTimeoutMs: config.headersTimeoutMs ?? DEFAULT_SERVE_BOUNDS.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs ?? DEFAULT_SERVE_BOUNDS.bodyTimeoutMs,
    keepAliveMs: DEFAULT_SERVE_BOUNDS.keepAliveMs,
    maxConnections: config.maxConnections ?? DEFAULT_SERVE_BOUNDS.maxConnections,
  };
  let server: Server;
  try {
    // verdict gateway serves HTTP/1.1 only, so the server is Node's http.Server.
    server = await new Promise<Server>((listening, failed) => {
      const started = serve(
        {
          fetch: gateway.fetch,
          hostname: options.host,
          port: options.port,
          // Node's defaults wait 300 s for a request; these bounds are the gateway's (docs/gateway.md). The body
          // is bounded by the gateway itself (an envelope answers it); Node's own limit is the backstop.
          serverOptions: serverOptionsOf(bounds),
        },
        () => listening(started as Server),
      );
      started.once('error', failed);
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const result = fail(`verdict gateway could not serve on ${options.host}:${options.port}: ${reason}`, {
      error: reason,
      error_code: 'serve_failed',
      details: { code: (error as { code?: unknown } | null)?.code ?? null },
    });
    emitResult(withMeta(result, 'gateway', 0), io, parsed.json);
    await store?.close().catch(() => undefined);
    return EXIT.failure;
  }
  boundConnections(server, bounds);
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) =>
    answerClientError(error, socket, log),
  );
  const address = server.address();
  const shown =
    address !== null && typeof address === 'object'
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  const consoleNote = consoleHandler.console === undefined ? '' : `; console at ${shown}/`;
  io.stderr.write(
    `verdict gateway: serving on ${shown} (${providers.length > 0 ? providers.join(', ') : 'no provider configured'})${store === undefined ? '' : `, store ${store.location}`}${consoleNote}\n`,
  );
  if (providers.length === 0) io.stderr.write(firstRunAdvice());
  await waitForAbort(io.signal);
  // Graceful stop (docs/gateway.md, "Shutdown"): the listener stays open through the grace period, answering
  // /healthz 503 and new provider requests 503, while requests in flight finish; when it ends, each unfinished
  // request is answered with a failure (a stream gets its final event) and logged; then the server closes.
  const grace = config.shutdownGraceMs ?? 10_000;
  io.stderr.write(
    `verdict gateway: stopping (waiting up to ${grace} ms for ${gateway.inFlight()} request(s))\n`,
  );
  gateway.close();
  const after = (ms: number) =>
    new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), ms).unref());
  const outcome = await Promise.race([gateway.idle().then(() => 'idle' as const), after(grace)]);
  if (outcome === 'timeout') {
    gateway.abortInFlight();
    // Their final answers are written now; one that cannot be written (its client is gone) is not waited for.
    await Promise.race([gateway.idle(), after(2000)]);
  }
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  // A connection still open (a client that went away without closing) gets one more second for its last bytes.
  if ((await Promise.race([closed.then(() => 'closed' as const), after(1000)])) !== 'closed') {
    server.closeAllConnections();
  }
  await closed;
  // Usage records still queued are written, and the spans and metrics held are exported.
  const dropped = await gateway.flush(Math.max(1000, grace));
  if (store !== undefined) {
    if (dropped > 0) io.stderr.write(`verdict gateway: ${dropped} usage record(s) could not be written\n`);
    await store.close().catch(() => undefined);
  }
  await providerFetch.close();
  io.stderr.write(`verdict gateway: stopped${outcome === 'timeout' ? ' (grace period over)' : ''}\n`);
  return EXIT.success;
}

/**
 * Node reports a request it could not read (headers too slow or too large, not HTTP) as a client error; the
 * answer is still an envelope (`REQUEST_TIMEOUT`, `PAYLOAD_TOO_LARGE`, `VALIDATION_ERROR`), with a log line.
 */
function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
  log: (line: string) => void,
): void {
  const traceId = traceIdFrom(new Headers());
  const [code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? (['REQUEST_TIMEOUT', 'The request did not arrive in time.'] as const)
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? (['PAYLOAD_TOO_LARGE', 'The request headers are too large.'] as const)
        : (['VALIDATION_ERROR', 'The request is not valid HTTP.'] as const);
  const closedByClient = error.code === 'ECONNRESET' || !socket.writable;
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!closedByClient && pending?.headersSent !== true) {
    const response = toHttpResponse(
      {
        success: false,
        error: { code, message, details: { reason: error.code ?? 'client_error' } },
        provider: 'system',
        metadata: { trace_id: traceId },
      },
      { headers: { connection: 'close' } },
    );
    void response.text().then((body) => {
      const head = [`HTTP/1.1 ${response.status} ${response.statusText || code}`];
      response.headers.forEach((value, name) => {
        head.push(`${name}: ${value}`);
      });
      head.push(`content-length: ${Buffer.byteLength(body)}`);
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    });
  } else {
    // The client is gone (or its answer started already): a request it had in flight logs itself.
    socket.destroy();
    return;
  }
  log(
    JSON.stringify({
      time: new Date().toISOString(),
      trace_id: traceId,
      route: 'other',
      status: statusForCode(code),
      code,
    }),
  );
}
