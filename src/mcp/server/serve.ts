import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpHttpHandler,
  type McpServer,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { OutputStream } from '../../producer/types.js';

/** The path the Streamable HTTP endpoint answers on. */
export const MCP_HTTP_PATH = '/mcp';

/** Where and how to serve: stdio by default, Streamable HTTP when `http` is given. */
export interface ServeOptions {
  /** Makes the server instance for one connection (stdio) or one request (HTTP). */
  factory: () => McpServer;
  /** Serve Streamable HTTP on this address instead of stdio; port 0 picks a free port. */
  http?: { host: string; port: number };
  /** Receives log lines; never stdout, which is the stdio channel. */
  log: OutputStream;
  /** Ends serving when aborted (SIGINT). */
  signal?: AbortSignal;
  /** Standard input to watch in stdio mode: serving ends when it closes. Default: `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Serves MCP over stdio until standard input closes or `signal` aborts. */
async function serveOverStdio(options: ServeOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  const handle = serveStdio(options.factory, {
    onerror: (error) => options.log.write(`verdict mcp: ${error.message}\n`),
  });
  options.log.write('verdict mcp: serving MCP on stdio\n');
  await Promise.race([closed, waitForAbort(options.signal)]);
  await handle.close();
}

function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

async function answer(
  handler: McpHttpHandler,
  loopback: boolean,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  const request = toRequest(req, origin, controller.signal);
  let response: Response;
  if (new URL(request.url).pathname !== MCP_HTTP_PATH) {
    response = new Response('Not found: the MCP endpoint is /mcp.\n', { status: 404 });
  } else {
    // DNS rebinding protection: a loopback server answers only loopback Host and Origin headers.
    const rejected = loopback
      ? (hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
        originValidationResponse(request, localhostAllowedOrigins()))
      : undefined;
    response = rejected ?? (await handler.fetch(request));
  }
  res.writeHead(response.status, [...response.headers].flat());
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

/** Serves MCP over Streamable HTTP until `signal` aborts. */
async function serveOverHttp(
  options: ServeOptions & { http: { host: string; port: number } },
): Promise<void> {
  const { host, port } = options.http;
  const handler = createMcpHandler(options.factory, {
    onerror: (error) => options.log.write(`verdict mcp: ${error.message}\n`),
  });
  const loopback = LOOPBACK.has(host);
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? host}`;
    answer(handler, loopback, origin, req, res).catch((error: unknown) => {
      options.log.write(`verdict mcp: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  options.log.write(`verdict mcp: serving MCP on http://${shown}:${address.port}${MCP_HTTP_PATH}\n`);
  await waitForAbort(options.signal);
  await handler.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Serves MCP tools: over stdio (until standard input closes) or, with `http`, over Streamable HTTP on
 * `http://host:port/mcp` (until `signal` aborts). Both eras are answered: 2026-07-28 and the 2025 revisions.
 */
export async function serveMcp(options: ServeOptions): Promise<void> {
  if (options.http === undefined) await serveOverStdio(options);
  else await serveOverHttp({ ...options, http: options.http });
}
