import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

// How long a Node HTTP server waits for a client and how many clients it holds, shared by `verdict gateway` and
// `verdict mcp serve --http` (docs/gateway.md, "Bounds"; docs/mcp-http.md). Node's own defaults wait 300 s for a
// request and hold any number of connections, so that a few hundred half-sent requests exhaust the descriptors.

/** The waits and counts of a served HTTP endpoint. */
export interface ServeBounds {
  /** Longest wait for a request's line and headers, from its first byte. */
  headersTimeoutMs: number;
  /** Longest wait for a request's body once its headers are in. */
  bodyTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
  /** Open connections at most; further ones are closed at once. */
  maxConnections: number;
}

/** The defaults of {@link ServeBounds}: `verdict gateway`'s documented ones. */
export const DEFAULT_SERVE_BOUNDS: ServeBounds = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  keepAliveMs: 5000,
  maxConnections: 1024,
};

/**
 * How long a connection whose last answer is written (the server ended its side) may stay open while its bytes
 * make no progress: a client that never reads them, or never closes its own side, holds no slot longer.
 */
export const ANSWERED_GRACE_MS = 1000;

/** The options a Node HTTP server is created with to keep to `bounds`. */
export function serverOptionsOf(bounds: ServeBounds): ServerOptions {
  return {
    headersTimeout: bounds.headersTimeoutMs,
    // Node's request timeout is a backstop: the body is bounded by the server itself, with an answer.
    requestTimeout: bounds.headersTimeoutMs + bounds.bodyTimeoutMs + 5000,
    keepAliveTimeout: bounds.keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, bounds.headersTimeoutMs),
  };
}

/**
 * Caps the connections of `server` and frees the slot of every connection the server has answered and ended:
 * once its side is ended, a connection whose written bytes do not move for {@link ANSWERED_GRACE_MS} (a client
 * that does not read, or keeps its half of the connection open) is destroyed. Node itself only ends such a socket
 * and waits for the client for as long as the client likes.
 */
export function boundConnections(server: Server, bounds: Pick<ServeBounds, 'maxConnections'>): void {
  server.maxConnections = bounds.maxConnections;
  const open = new Set<Socket>();
  // Bytes each ended socket still had to flush when last swept; seen twice the same, nothing moved (all flushed
  // and waiting for the client to close, or a client that does not read).
  const pending = new WeakMap<Socket, number>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const sweep = setInterval(() => {
    for (const socket of open) {
      if (!socket.writableEnded) continue;
      const bytes = socket.writableLength;
      if (pending.get(socket) === bytes) socket.destroy();
      else pending.set(socket, bytes);
    }
  }, ANSWERED_GRACE_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
