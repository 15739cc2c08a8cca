import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { fail, ok } from '../../contract/builders.js';
import {
  type AssetHandler,
  checkGatewayConfig,
  createGateway,
  type GatewayConfig,
  providersFromEnv,
} from '../../gateway/index.js';
import type { GatewayStore } from '../../gateway/store/index.js';
import { readJson } from '../../json/index.js';
import { parseArguments } from '../../producer/parse-arguments.js';
import { readInput } from '../../producer/read-input.js';
import { EXIT, emitResult, reportUsageError, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';

const USAGE = [
  'Usage: verdict gateway [--host HOST] [--port PORT] [--config FILE] [--check-config] [--console DIR]',
  '                       [--log-content] [--store DIR|URL] [--store-fail-open]',
  '       verdict gateway keys create|list|show|update|revoke …',
  '       verdict gateway migrate [--store DIR|URL]',
  '',
  'Serve the unified AI output as an HTTP service: POST /v1/text, /v1/images, /v1/speech, /v1/transcriptions,',
  '/v1/videos; GET /v1/models, /healthz, /metrics, /openapi.json. Every answer is a unified envelope.',
  'Without --config, one route per provider whose key variable is set (OPENAI_API_KEY, ANTHROPIC_API_KEY,',
  'GOOGLE_GENERATIVE_AI_API_KEY, REPLICATE_API_TOKEN, OPENROUTER_API_KEY, GROQ_API_KEY), honouring their',
  '*_BASE_URL variables. Gateway keys: VERDICT_GATEWAY_KEYS (comma-separated).',
  '',
  'Options:',
  '  --host HOST       Address to bind (default 127.0.0.1).',
  '  --port PORT       Port (default 8787; 0 picks a free one). The address served is printed on stderr.',
  '  --config FILE     A JSON configuration file (docs/gateway.md), checked strictly.',
  '  --check-config    Check the configuration, print what it configures, and exit.',
  '  --console DIR     Serve the static files of DIR at / (default: the web console built into verdict).',
  '  --log-content     Log prompts and outputs (off by default).',
  '  --store DIR|URL   Keys with limits and a usage record in a PGlite directory or PostgreSQL (postgres://…);',
  '                    default VERDICT_STORE_URL, else none (no state). VERDICT_ADMIN_KEY reads /v1/usage.',
  '  --store-fail-open While the store is down, admit stored keys without limits (default: refuse them).',
  '  -h, --help        Show this help.',
  '',
  'Logs: one JSON line per request on stderr. SIGTERM or SIGINT stops gracefully.',
  'Exit status: 0 after a graceful stop, 1 when the address cannot be served, 2 usage or configuration errors.',
  '',
].join('\n');

function usageFailure(
  io: CommandIo,
  json: boolean,
  message: string,
  details: Record<string, unknown> = {},
): number {
  const result = fail(`Invalid arguments for verdict gateway: ${message}`, {
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
  const duplicates = read.duplicates.map((duplicate) => ({
    path: `${duplicate.path}/${duplicate.key}`,
    message: `Member "${duplicate.key}" appears more than once.`,
  }));
  const checked = checkGatewayConfig(read.value);
  if (!checked.ok || duplicates.length > 0) {
    return { ok: false, problems: [...duplicates, ...(checked.ok ? [] : checked.problems)] };
  }
  return checked;
}

/** Static files of a directory as the gateway's console handler; what is not there is left to the gateway. */
function staticAssets(root: string): AssetHandler {
  const assets = new Hono();
  assets.use('*', serveStatic({ root }));
  return async (request) => {
    const response = await assets.fetch(request);
    return response.status === 404 ? undefined : response;
  };
}

/**
 * The web console that `npm run build` puts in dist/console (docs/console.md). This module runs from
 * dist/cli/commands when built and from src/cli/commands in tests; from either, this path is dist/console.
 */
const BUILT_CONSOLE = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

/** The console handler: the directory given, else the built console when it is there, else none. */
function consoleOption(dir: string | undefined): { console?: AssetHandler } {
  if (dir !== undefined) return { console: staticAssets(dir) };
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
  const parsed = parseArguments(argv, {
    host: { type: 'string', description: 'Address to bind.', default: '127.0.0.1' },
    port: { type: 'integer', description: 'Port.', default: 8787, min: 0, max: 65_535 },
    config: { type: 'string', description: 'Configuration file.', valueName: 'FILE' },
    'check-config': { type: 'boolean', description: 'Check the configuration and exit.' },
    console: { type: 'string', description: 'Directory of the web console.', valueName: 'DIR' },
    'log-content': { type: 'boolean', description: 'Log prompts and outputs.' },
    store: { type: 'string', description: 'PGlite directory or postgres:// URL.', valueName: 'DIR|URL' },
    'store-fail-open': {
      type: 'boolean',
      description: 'Admit stored keys unchecked while the store is down.',
    },
  });
  if (parsed.help) {
    io.stdout.write(USAGE);
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
    'log-content'?: boolean;
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
  const providers = Object.keys(config.providers ?? providersFromEnv(io.env));
  const aliases = Object.keys(config.aliases ?? {});
  if (options['check-config']) {
    const summary = `The configuration is valid: ${providers.length} provider(s)${providers.length > 0 ? ` (${providers.join(', ')})` : ''}, ${aliases.length} alias(es).`;
    emitResult(withMeta(ok(summary, { providers, aliases }), 'gateway', 0), io, parsed.json);
    return EXIT.success;
  }
  // AI SDK warnings go to the console as free text; the gateway's stderr carries JSON log lines only.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const opened = await openGatewayStore(options.store, io, parsed.json);
  if (typeof opened === 'number') return opened;
  const store = opened?.store;
  const gateway = createGateway({
    ...config,
    ...(store === undefined ? {} : { store, storeFailOpen: options['store-fail-open'] === true }),
    ...(options['log-content'] ? { logContent: true } : {}),
    env: io.env,
    log: (line) => io.stderr.write(`${line}\n`),
    ...consoleOption(consoleDir),
  });
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((listening, failed) => {
      const started = serve({ fetch: gateway.fetch, hostname: options.host, port: options.port }, () =>
        listening(started),
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
  const address = server.address();
  const shown =
    address !== null && typeof address === 'object'
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  io.stderr.write(
    `verdict gateway: serving on ${shown} (${providers.length > 0 ? providers.join(', ') : 'no provider configured'})${store === undefined ? '' : `, store ${store.location}`}\n`,
  );
  await waitForAbort(io.signal);
  // Graceful stop: refuse new work, stop accepting connections, let requests in flight finish within the grace
  // period, then close what is left.
  const grace = config.shutdownGraceMs ?? 10_000;
  io.stderr.write(
    `verdict gateway: stopping (waiting up to ${grace} ms for ${gateway.inFlight()} request(s))\n`,
  );
  gateway.close();
  // Answers given from now on say `connection: close`, so keep-alive connections end after their answer and
  // `server.close` completes once the last one is written.
  const closed = new Promise<void>((done) => server.close(() => done()));
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  const timer = new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), grace).unref());
  // Once no request is in flight, a connection still open (a client that went away without closing, an idle
  // keep-alive socket) gets one more second for its last bytes, then it is closed.
  const flushed = gateway
    .idle()
    .then(() => new Promise<'idle'>((done) => setTimeout(() => done('idle'), 1000).unref()));
  const outcome = await Promise.race([closed.then(() => 'closed' as const), flushed, timer]);
  if (outcome !== 'closed' && 'closeAllConnections' in server) server.closeAllConnections();
  await closed;
  if (store !== undefined) {
    const dropped = await gateway.flush(Math.max(1000, grace));
    if (dropped > 0) io.stderr.write(`verdict gateway: ${dropped} usage record(s) could not be written\n`);
    await store.close().catch(() => undefined);
  }
  io.stderr.write(`verdict gateway: stopped${outcome === 'timeout' ? ' (grace period over)' : ''}\n`);
  return EXIT.success;
}
