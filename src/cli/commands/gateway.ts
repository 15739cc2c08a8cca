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
import { readJson } from '../../json/index.js';
import { parseArguments } from '../../producer/parse-arguments.js';
import { readInput } from '../../producer/read-input.js';
import { type HelpDefinition, renderHelp } from '../../producer/render-help.js';
import { EXIT, emitResult, reportUsageError, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';

/**
 * `verdict gateway`, declared like every command: its options are parsed from here and its `--help` is
 * generated from here (docs/cli.md shows it). A new option is one entry of `options`.
 */
export const GATEWAY_COMMAND = {
  name: 'gateway',
  description: [
    'Serve the unified AI output as an HTTP service: POST /v1/text, /v1/images, /v1/speech, /v1/transcriptions,',
    '/v1/videos; GET /v1/models, /healthz, /metrics, /openapi.json. Every answer is a unified envelope.',
    'Without --config, one route per provider whose key variable is set (OPENAI_API_KEY, ANTHROPIC_API_KEY,',
    'GOOGLE_GENERATIVE_AI_API_KEY, REPLICATE_API_TOKEN, OPENROUTER_API_KEY, GROQ_API_KEY), honouring their',
    '*_BASE_URL variables. Gateway keys: VERDICT_GATEWAY_KEYS (comma-separated).',
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
      description: 'Serve the static files of DIR at / (default: the web console built into verdict).',
      valueName: 'DIR',
    },
    'log-content': { type: 'boolean', description: 'Log prompts and outputs (off by default).' },
  },
  errorCodes: {
    invalid_arguments:
      'The command line or the configuration file is wrong; every problem is listed (exit 2).',
    serve_failed: 'The address cannot be served (in use, not permitted); details.code names why (exit 1).',
    missing_dependency: 'A package the gateway needs is not installed; the message names it (exit 1).',
  },
  runtimeCodes: [],
  notes: ['Logs: one JSON line per request on stderr. SIGTERM or SIGINT stops gracefully.'],
  exitStatus:
    'Exit status: 0 after a graceful stop, 1 when the address cannot be served, 2 usage or configuration errors.',
} as const satisfies HelpDefinition;

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

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (signal === undefined) return;
    if (signal.aborted) done();
    signal.addEventListener('abort', () => done(), { once: true });
  });
}

/** `verdict gateway`: serves the gateway until SIGTERM or SIGINT, then stops gracefully. */
export async function runGateway(argv: readonly string[], io: CommandIo): Promise<number> {
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
    'log-content'?: boolean;
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
  const gateway = createGateway({
    ...config,
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
    return EXIT.failure;
  }
  const address = server.address();
  const shown =
    address !== null && typeof address === 'object'
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  io.stderr.write(
    `verdict gateway: serving on ${shown} (${providers.length > 0 ? providers.join(', ') : 'no provider configured'})\n`,
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
  io.stderr.write(`verdict gateway: stopped${outcome === 'timeout' ? ' (grace period over)' : ''}\n`);
  return EXIT.success;
}
