import { Agent } from 'undici';

/** The `fetch` `verdict gateway` calls its providers through, and how to let its connections go. */
export interface ProviderFetch {
  /** The global `fetch` on the gateway's own keep-alive pool. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Closes the pool's connections and refuses new requests; a request still in flight fails. The gateway calls
   * it once its own requests have ended (or were aborted at the end of the grace period).
   */
  close(): Promise<void>;
}

/**
 * The global `fetch` with an undici `Agent` as its dispatcher: connections to each provider kept alive between
 * requests, on undici's current client rather than the one bundled with Node (docs/gateway.md, "Bounds").
 * Bodies, `FormData` included, are still the global `fetch`'s, so every provider package sends what it sends.
 * Timeouts stay the gateway's (the route's deadline aborts the call); undici's own are only a backstop.
 */
export function createProviderFetch(): ProviderFetch {
  const agent = new Agent();
  const fetch: typeof globalThis.fetch = (input, init) => {
    // Node's `fetch` reads `dispatcher`, which the DOM's `RequestInit` does not declare.
    const withPool: RequestInit & { dispatcher: Agent } = { ...init, dispatcher: agent };
    return globalThis.fetch(input, withPool);
  };
  // `destroy`, not `close`: undici's `close` waits for requests in flight, and a `destroy` after it no longer
  // reaches their connections.
  const close = () => agent.destroy();
  return { fetch, close };
}
