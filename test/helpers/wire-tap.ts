/** A JSON-RPC message as it crossed the wire, before any SDK parsed it. */
export type WireMessage = Record<string, unknown>;

/** A transport with every inbound and outbound JSON-RPC message recorded. */
export interface TappedTransport<T> {
  /** The transport to hand to the client. */
  transport: T;
  /** Messages the server sent, in order. */
  inbound: WireMessage[];
  /** Messages the client sent, in order (after any rewrite). */
  outbound: WireMessage[];
}

/** Options of {@link tapTransport}. */
export interface TapOptions {
  /** Rewrites `initialize.params.protocolVersion`: the v1 client has no option to ask for an older revision. */
  initializeVersion?: string;
}

/**
 * Wraps a client transport (v1 or v2 SDK) in a Proxy that records the raw JSON-RPC traffic: the client sets
 * `onmessage` on the proxy, the proxy records each message and passes it on.
 */
export function tapTransport<T extends object>(inner: T, options: TapOptions = {}): TappedTransport<T> {
  const inbound: WireMessage[] = [];
  const outbound: WireMessage[] = [];
  const target = inner as Record<string | symbol, unknown>;
  const transport = new Proxy(inner, {
    set(_, key, value) {
      if (key === 'onmessage' && typeof value === 'function') {
        target.onmessage = (message: WireMessage, ...rest: unknown[]) => {
          inbound.push(structuredClone(message));
          return (value as (...args: unknown[]) => unknown)(message, ...rest);
        };
        return true;
      }
      target[key] = value;
      return true;
    },
    get(_, key) {
      if (key === 'send') {
        return (message: WireMessage, ...rest: unknown[]) => {
          let sent = message;
          if (options.initializeVersion !== undefined && message.method === 'initialize') {
            const params = message.params as Record<string, unknown>;
            sent = { ...message, params: { ...params, protocolVersion: options.initializeVersion } };
          }
          outbound.push(structuredClone(sent));
          return (target.send as (...args: unknown[]) => unknown).call(inner, sent, ...rest);
        };
      }
      const value = target[key];
      return typeof value === 'function' ? value.bind(inner) : value;
    },
  });
  return { transport, inbound, outbound };
}

/** The response the server sent to the client request that carried `method` and matched `pick`. */
export function responsesTo(
  tap: TappedTransport<unknown>,
  method: string,
): { request: WireMessage; response: WireMessage }[] {
  const pairs: { request: WireMessage; response: WireMessage }[] = [];
  for (const request of tap.outbound) {
    if (request.method !== method || request.id === undefined) continue;
    const response = tap.inbound.find((m) => m.id === request.id && ('result' in m || 'error' in m));
    if (response !== undefined) pairs.push({ request, response });
  }
  return pairs;
}
