import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { REFERENCE_COMMANDS } from '../../commands/index.js';
import { fail } from '../../contract/builders.js';
import { readErrorFromThrown } from '../../contract/findings.js';
import { isLoopbackHost } from '../../http/check-host.js';
import { createVerdictServerFactory } from '../../mcp/server/create-verdict-server.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../../mcp/server/register-contract-tool.js';
import { type HttpServeOptions, serveMcp } from '../../mcp/server/serve.js';
import { parseArguments } from '../../producer/parse-arguments.js';
import { type HelpDefinition, renderHelp } from '../../producer/render-help.js';
import { EXIT, emitResult, reportUsageError, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';
import { VERSION } from '../version.js';

/** The environment variable that holds the bearer token of `verdict mcp serve --http`. */
export const TOKEN_ENV = 'VERDICT_MCP_TOKEN';

/** Parses `HOST:PORT`, `:PORT`, `PORT` or `[IPv6]:PORT`; host 127.0.0.1 when omitted. */
export function parseHttpAddress(value: string): { host: string; port: number } | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]*):)?([0-9]{1,5})$/.exec(value);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  const host = (match[1] ?? '').replace(/^\[|\]$/g, '');
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/**
 * `verdict mcp serve`, declared like every command: its options are parsed from here and its `--help` is
 * generated from here. A new option is one entry of `options`.
 */
export const MCP_SERVE_COMMAND = {
  name: 'mcp serve',
  description: [
    'Serve the reference commands, validate_result and validate_mcp_result as MCP tools that return',
    'QZX Result Contract v1 results. Speaks MCP 2026-07-28 and the 2025 revisions. Without --http it serves',
    'stdio, where stdout carries only the protocol; logs go to stderr.',
  ].join('\n'),
  options: {
    http: {
      type: 'string',
      description: 'Serve Streamable HTTP on http://HOST:PORT/mcp instead of stdio.',
      valueName: 'HOST:PORT',
    },
    'token-file': {
      type: 'string',
      description: 'Read the bearer token from PATH (surrounding whitespace is ignored).',
      valueName: 'PATH',
    },
    'allowed-host': {
      type: 'string',
      description: 'Also accept HOST in the Host and Origin headers.',
      valueName: 'HOST',
      multiple: true,
    },
    'allow-unauthenticated': {
      type: 'boolean',
      description: 'Serve HTTP without a bearer token (any program that can reach it may call every tool).',
    },
    'max-result-bytes': {
      type: 'integer',
      description: `Largest serialized tool result (default ${DEFAULT_MAX_RESULT_BYTES}); readFile reads at most BYTES.`,
      valueName: 'BYTES',
      min: 1024,
    },
  },
  errorCodes: {
    invalid_arguments: 'The command line is wrong, or the token is unusable (exit 2).',
    serve_failed: 'The address cannot be served (in use, not permitted); details.code names why (exit 1).',
    missing_dependency: 'A package the MCP server needs is not installed; the message names it (exit 1).',
  },
  runtimeCodes: [],
  notes: [
    [
      '--http HOST:PORT: HOST defaults to 127.0.0.1 (--http 8080 or --http :8080); port 0 picks a free one.',
      `Bearer token: from --token-file, else ${TOKEN_ENV}; when neither is set on a loopback address, a random`,
      'token is made and printed on stderr. Every HTTP request must send "Authorization: Bearer <token>" (else',
      '401). Binding beyond loopback needs a token, or --allow-unauthenticated.',
      'Host checks: loopback names and the bound address are always accepted in the Host and Origin headers,',
      'and each --allowed-host too; any other Host is refused (403).',
      'A tool result larger than --max-result-bytes becomes a result_too_large failure.',
    ].join('\n'),
  ],
  exitStatus:
    'Exit status: 0 when serving ends, 1 when the address cannot be served (serve_failed), 2 usage error.',
} as const satisfies HelpDefinition;

const OPTIONS = MCP_SERVE_COMMAND.options;

/** How to serve, or the usage problem that stops it. */
type ServePlan =
  | { ok: true; http: HttpServeOptions | undefined; generated: boolean }
  | { ok: false; problem: string };

/** A token is printable ASCII without spaces, as an `Authorization: Bearer` header carries it. */
function checkToken(token: string, from: string): string | undefined {
  if (token.length < 16) return `the bearer token from ${from} is shorter than 16 characters.`;
  if (!/^[\x21-\x7e]+$/.test(token)) {
    return `the bearer token from ${from} must be printable ASCII without spaces.`;
  }
  return undefined;
}

/** Decides the address, token and allowed hosts from the options and the environment. */
async function planServe(options: Record<string, unknown>, io: CommandIo): Promise<ServePlan> {
  const http = options.http as string | undefined;
  const tokenFile = options['token-file'] as string | undefined;
  const allowedHosts = (options['allowed-host'] as string[] | undefined) ?? [];
  const unauthenticated = options['allow-unauthenticated'] === true;
  const httpOnly = [
    tokenFile === undefined ? undefined : '--token-file',
    allowedHosts.length === 0 ? undefined : '--allowed-host',
    unauthenticated ? '--allow-unauthenticated' : undefined,
  ].filter((name) => name !== undefined);
  if (http === undefined) {
    if (httpOnly.length > 0) {
      const verb = httpOnly.length === 1 ? 'applies' : 'apply';
      return { ok: false, problem: `${httpOnly.join(', ')} only ${verb} with --http.` };
    }
    return { ok: true, http: undefined, generated: false };
  }
  const address = parseHttpAddress(http);
  if (address === undefined) {
    return { ok: false, problem: `--http must be HOST:PORT, :PORT or PORT; got ${JSON.stringify(http)}.` };
  }
  for (const host of allowedHosts) {
    if (!/^(?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*|[A-Za-z0-9._-]+)$/.test(host)) {
      return {
        ok: false,
        problem: `--allowed-host takes a host name or address; got ${JSON.stringify(host)}.`,
      };
    }
  }
  let token: string | undefined;
  let from: string | undefined;
  if (tokenFile !== undefined) {
    try {
      token = (await readFile(resolve(io.cwd, tokenFile), 'utf8')).trim();
    } catch (error) {
      return { ok: false, problem: readErrorFromThrown(error, `--token-file ${tokenFile}`).message };
    }
    from = `--token-file ${tokenFile}`;
  } else if (io.env[TOKEN_ENV] !== undefined && io.env[TOKEN_ENV] !== '') {
    token = io.env[TOKEN_ENV]?.trim();
    from = TOKEN_ENV;
  }
  if (token !== undefined && from !== undefined) {
    if (unauthenticated) {
      return { ok: false, problem: `--allow-unauthenticated contradicts the bearer token from ${from}.` };
    }
    const bad = checkToken(token, from);
    if (bad !== undefined) return { ok: false, problem: bad };
  }
  const loopback = isLoopbackHost(address.host);
  if (token === undefined && !unauthenticated && !loopback) {
    return {
      ok: false,
      problem:
        `--http ${http} listens beyond this machine, so it needs a bearer token: set ${TOKEN_ENV} or pass ` +
        '--token-file PATH (or pass --allow-unauthenticated to serve without one).',
    };
  }
  const generated = token === undefined && !unauthenticated;
  if (generated) token = randomBytes(32).toString('base64url');
  return {
    ok: true,
    generated,
    http: { ...address, allowedHosts, ...(token === undefined ? { allowUnauthenticated: true } : { token }) },
  };
}

/** `verdict mcp serve`: runs the MCP server until its input closes (stdio) or it is interrupted (HTTP). */
export async function runMcpServe(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseArguments(argv, OPTIONS);
  if (parsed.help) {
    io.stdout.write(renderHelp(MCP_SERVE_COMMAND, 'verdict mcp serve'));
    return EXIT.success;
  }
  const plan: ServePlan = parsed.ok
    ? await planServe(parsed.options, io)
    : { ok: false, problem: parsed.message };
  if (!plan.ok) {
    const result = fail(`Invalid arguments for mcp serve: ${plan.problem}`, {
      error: plan.problem,
      error_code: 'invalid_arguments',
      details: { usage: 'Run verdict mcp serve --help for the options.' },
    });
    return reportUsageError(withMeta(result, 'mcp serve', 0), io, parsed.json, 'verdict mcp serve');
  }
  const { http } = plan;
  if (plan.generated && http?.token !== undefined) {
    io.stderr.write(`verdict mcp: bearer token (generated for this run): ${http.token}\n`);
  } else if (http !== undefined && http.token === undefined) {
    io.stderr.write('verdict mcp: serving WITHOUT authentication (--allow-unauthenticated)\n');
  }
  const maxResultBytes = (parsed.ok ? parsed.options['max-result-bytes'] : undefined) as number | undefined;
  const commands = REFERENCE_COMMANDS;
  // Tools, schemas and validators are built here, once; the factory only assembles a server from them.
  const factory = createVerdictServerFactory({
    commands,
    version: VERSION,
    log: io.stderr,
    cwd: io.cwd,
    env: io.env,
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
  });
  try {
    await serveMcp({
      factory,
      log: io.stderr,
      ...(http === undefined ? {} : { http }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    });
  } catch (error) {
    // An address in use or not available is the user's situation, not a bug: it becomes a failure result.
    const where = http === undefined ? 'stdio' : `${http.host}:${http.port}`;
    const reason = error instanceof Error ? error.message : String(error);
    const result = fail(`verdict mcp serve could not serve on ${where}: ${reason}`, {
      error: reason,
      error_code: 'serve_failed',
      details: { code: (error as { code?: unknown } | null)?.code ?? null },
    });
    emitResult(withMeta(result, 'mcp serve', 0), io, parsed.json);
    return EXIT.failure;
  }
  return EXIT.success;
}
