import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A fetch handler served on 127.0.0.1 with a free port. */
export interface Served {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Stop serving and drop open connections. */
  close(): Promise<void>;
}

/** Serve `fetch` over real HTTP, resolving once the port listens. */
export async function serveFetch(fetch: (request: Request) => Response | Promise<Response>): Promise<Served> {
  const server = await new Promise<ReturnType<typeof serve>>((listening, failed) => {
    const started = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => listening(started));
    started.once('error', failed);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
