import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuthInfo,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  type McpHttpHandler,
  type McpServer,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { VerdictError } from '../../errors.js';
import {
  boundConnections,
  DEFAULT_SERVE_BOUNDS,
  type ServeBounds,
  serverOptionsOf,
} from '../../http/bound-server.js';
import { allowedHostnames, checkHostAndOrigin } from '../../http/check-host.js';
import type { OutputStream } from '../../producer/types.js';

/** The path the Streamable HTTP endpoint answers on. */
export const MCP_HTTP_PATH = '/mcp';

/** Where and how to serve: stdio by default, Streamable HTTP when `http` is given. */
export interface ServeOptions {
  /** Makes the server instance for one connection (stdio) or one request (HTTP). */
  factory: () => McpServer;
  /** Serve Streamable HTTP on this address instead of stdio; port 0 picks a free port. */
  http?: HttpServeOptions;
  /** Receives log lines; never stdout, which is the stdio channel. */
  log: OutputStream;
  /** Ends serving when aborted (SIGINT). */
  signal?: AbortSignal;
  /** Standard input to watch in stdio mode: serving ends when it closes. Default: `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
}

/** Where and how the Streamable HTTP endpoint listens and whom it answers. */
export interface HttpServeOptions {
  /** The address to bind (`127.0.0.1`, `::1`, `0.0.0.0`, a host name). */
  host: string;
  /** The port; 0 picks a free one. */
  port: number;
  /**
   * The bearer token every request must carry (`Authorization: Bearer …`); a request without it is answered
   * 401 with `WWW-Authenticate: Bearer`. Required unless `allowUnauthenticated` is true.
   */
  token?: string;
  /** Serve without a token: anyone who reaches the address may call every tool. Must be said explicitly. */
  allowUnauthenticated?: boolean;
  /**
   * Host names (or IP addresses) accepted in the `Host` and `Origin` headers besides the loopback names
   * (`localhost`, `127.0.0.1`, `[::1]`) and the bound address. Everything else is answered 403: the DNS
   * rebinding protection stays on for every bind.
   */
  allowedHosts?: readonly string[];
  /**
   * Waits and connection cap (docs/mcp-http.md); default: 10 s for headers, 30 s for a body, 1 024 connections,
   * idle keep-alive connections kept 65 s.
   */
  bounds?: Partial<ServeBounds>;
}

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/** Connections the kernel may queue before they are accepted, for bursts of new clients. */
const LISTEN_BACKLOG = 1024;

/** A fixed-length digest, so that comparing tokens takes the same time whatever their lengths. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A check of `Authorization: Bearer <token>` in constant time; the SDK shapes the 401 answer. */
function bearerGate(token: string): (request: Request) => Promise<AuthInfo | Response> {
  const expected = digest(token);
  return requireBearerAuth({
    verifier: {
      async verifyAccessToken(given) {
        if (!timingSafeEqual(digest(given), expected)) {
          throw new OAuthError(
            OAuthErrorCode.InvalidToken,
            'The bearer token is not the one this server expects.',
          );
        }
        // A static token does not expire; the SDK requires an expiry, so it gets one far ahead.
        return { token: given, clientId: 'verdict', scopes: [], expiresAt: Date.now() / 1000 + 3.15e9 };
      },
    },
  });
}

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

/** The request line and headers of a Node request as a web `Request`, without its body. */
function toHeadRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  return new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers, signal });
}

/**
 * The body of a Node request, read whole up to `limit` bytes; undefined when it is larger. Reading it into one
 * buffer costs far less than handing the SDK a web stream over the Node stream, and MCP bodies are small.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > limit) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** What every request passes before it reaches the MCP handler. */
interface Gate {
  /** Host names accepted in `Host` and `Origin`. */
  hostnames: string[];
  /** Checks the bearer token, when one is required. */
  auth: ((request: Request) => Promise<AuthInfo | Response>) | undefined;
}

async function respond(
  handler: McpHttpHandler,
  gate: Gate,
  head: Request,
  req: IncomingMessage,
): Promise<Response> {
  if (new URL(head.url).pathname !== MCP_HTTP_PATH) {
    return new Response('Not found: the MCP endpoint is /mcp.\n', { status: 404 });
  }
  // DNS rebinding protection first: a page in a browser must not even learn whether a token is needed.
  const rejected = checkHostAndOrigin(head.headers.get('host'), head.headers.get('origin'), gate.hostnames);
  if (rejected !== undefined) {
    return Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: rejected }, id: null },
      { status: 403 },
    );
  }
  let authInfo: AuthInfo | undefined;
  if (gate.auth !== undefined) {
    const auth = await gate.auth(head);
    if (auth instanceof Response) return auth;
    authInfo = auth;
  }
  // The body is read only once the request is known to be allowed.
  let request = head;
  if (head.method !== 'GET' && head.method !== 'HEAD') {
    const body = await readBody(req, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (body === undefined) {
      return Response.json(
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: `The request body exceeds ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes.`,
          },
        },
        { status: 413 },
      );
    }
    request = new Request(head, { body: new Uint8Array(body) });
  }
  return handler.fetch(request, authInfo === undefined ? {} : { authInfo });
}

async function answer(
  handler: McpHttpHandler,
  gate: Gate,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  // Only a connection that ends before the answer is complete cancels the call (an abort costs an error).
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const response = await respond(handler, gate, toHeadRequest(req, origin, controller.signal), req);
  res.writeHead(response.status, [...response.headers].flat());
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    // Respect backpressure: a slow client must not make the server hold a whole large answer twice.
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** Serves MCP over Streamable HTTP until `signal` aborts. */
async function serveOverHttp(options: ServeOptions & { http: HttpServeOptions }): Promise<void> {
  const { host, port, token } = options.http;
  if (token === undefined ? options.http.allowUnauthenticated !== true : token === '') {
    throw new VerdictError(
      'invalid_argument',
      'serveMcp over HTTP needs http.token (a non-empty bearer token), or http.allowUnauthenticated: true to serve without one.',
    );
  }
  const handler = createMcpHandler(options.factory, {
    onerror: (error) => options.log.write(`verdict mcp: ${error.message}\n`),
  });
  const gate: Gate = {
    hostnames: allowedHostnames(host, options.http.allowedHosts),
    auth: token === undefined ? undefined : bearerGate(token),
  };
  // The request URL is built on the bound address, never on the Host header, which is checked separately.
  let origin = 'http://localhost';
  // Keep idle keep-alive connections longer than clients do (undici: 4 s): when the server closes first, a
  // client that just picked the connection for its next request gets ECONNRESET.
  const bounds: ServeBounds = { ...DEFAULT_SERVE_BOUNDS, keepAliveMs: KEEP_ALIVE_MS, ...options.http.bounds };
  const server = createServer(serverOptionsOf(bounds), (req, res) => {
    answer(handler, gate, origin, req, res).catch((error: unknown) => {
      options.log.write(`verdict mcp: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  boundConnections(server, bounds);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${shown}:${address.port}`;
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
