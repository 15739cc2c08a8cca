import { REFERENCE_COMMANDS } from '../../commands/index.js';
import { fail } from '../../contract/builders.js';
import { createVerdictServer } from '../../mcp/server/create-verdict-server.js';
import { serveMcp } from '../../mcp/server/serve.js';
import { parseArguments } from '../../producer/parse-arguments.js';
import { EXIT, emitResult, reportUsageError, withMeta } from '../../producer/run-command.js';
import type { CommandIo } from '../../producer/types.js';
import { VERSION } from '../version.js';

const USAGE = [
  'Usage: verdict mcp serve [--http HOST:PORT]',
  '',
  'Serve the reference commands, validate_result and validate_mcp_result as MCP tools that return',
  'QZX Result Contract v1 results. Speaks MCP 2026-07-28 and the 2025 revisions.',
  '',
  'Options:',
  '  --http HOST:PORT  Serve Streamable HTTP on http://HOST:PORT/mcp instead of stdio.',
  '                    HOST defaults to 127.0.0.1 (--http 8080 or --http :8080); port 0 picks a free one.',
  '  -h, --help        Show this help.',
  '',
  'Logs go to stderr; on stdio, stdout carries only the protocol.',
  'Exit status: 0 when serving ends, 1 when the address cannot be served (serve_failed), 2 usage error.',
  '',
].join('\n');

/** Parses `HOST:PORT`, `:PORT`, `PORT` or `[IPv6]:PORT`; host 127.0.0.1 when omitted. */
export function parseHttpAddress(value: string): { host: string; port: number } | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]*):)?([0-9]{1,5})$/.exec(value);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  const host = (match[1] ?? '').replace(/^\[|\]$/g, '');
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/** `verdict mcp serve`: runs the MCP server until its input closes (stdio) or it is interrupted (HTTP). */
export async function runMcpServe(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseArguments(argv, {
    http: { type: 'string', description: 'Serve Streamable HTTP on HOST:PORT.', valueName: 'HOST:PORT' },
  });
  if (parsed.help) {
    io.stdout.write(USAGE);
    return EXIT.success;
  }
  const address =
    parsed.ok && typeof parsed.options.http === 'string' ? parseHttpAddress(parsed.options.http) : undefined;
  const problem = !parsed.ok
    ? parsed.message
    : parsed.options.http !== undefined && address === undefined
      ? `--http must be HOST:PORT, :PORT or PORT; got ${JSON.stringify(parsed.options.http)}.`
      : undefined;
  if (problem !== undefined) {
    const result = fail(`Invalid arguments for verdict mcp serve: ${problem}`, {
      error: problem,
      error_code: 'invalid_arguments',
      details: { usage: 'Run verdict mcp serve --help for the options.' },
    });
    return reportUsageError(withMeta(result, 'mcp serve', 0), io, parsed.json, 'verdict mcp serve');
  }
  const commands = REFERENCE_COMMANDS;
  try {
    await serveMcp({
      factory: () =>
        createVerdictServer({ commands, version: VERSION, log: io.stderr, cwd: io.cwd, env: io.env }),
      log: io.stderr,
      ...(address === undefined ? {} : { http: address }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    });
  } catch (error) {
    // An address in use or not available is the user's situation, not a bug: it becomes a failure result.
    const where = address === undefined ? 'stdio' : `${address.host}:${address.port}`;
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
