import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedFailure, UnifiedOutput } from '../../unified/types.js';
import { MAX_TOOL_CALLS, toolCallsFault } from '../ai-sdk/bound-answer.js';
import { STREAM_REQUEST_HEADER } from '../ai-sdk/guarded-fetch.js';
import { findUpstreamFault } from '../ai-sdk/upstream-fault.js';
import type { WireDelta, WireReadContext, WireRequest } from './wire-format.js';
import type { WireRoute } from './wire-formats.js';

/**
 * The native transport of one configured provider: its route (wire format, API root, key style) and how to send
 * a built request through the gateway's provider fetch (bounds, no redirects with a key, the stream check), with
 * the provider's base URL, key and configured headers, which never leave this closure.
 */
export interface NativeTransport {
  /** The wire format and how the key is sent. */
  readonly route: WireRoute;
  /** Sends one request; `headers` are the gateway's own (trace ids). */
  send(
    request: WireRequest,
    init: { signal: AbortSignal; headers: Record<string, string> },
  ): Promise<Response>;
}

/** Where and how a native transport sends: the API root, the key, the configured headers and the fetch. */
export interface NativeTransportSettings {
  /** The provider's API root (`https://api.openai.com/v1`). */
  readonly baseURL: string;
  /** The key; an empty one is sent as such, so the provider answers 401. */
  readonly key: string;
  /** Headers the configuration adds to every call. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The gateway's guarded provider fetch. */
  readonly fetch: typeof globalThis.fetch;
}

/** Make the native transport of a provider on `route`. */
export function createNativeTransport(route: WireRoute, settings: NativeTransportSettings): NativeTransport {
  const root = settings.baseURL.replace(/\/+$/, '');
  const auth: Record<string, string> =
    settings.key === '' && route.keyOptional === true
      ? {}
      : route.auth === 'bearer'
        ? { authorization: `Bearer ${settings.key}` }
        : { [route.auth]: settings.key };
  return {
    route,
    send(request, init) {
      return settings.fetch(`${root}${request.path}`, {
        method: 'POST',
        headers: {
          ...settings.headers,
          ...request.headers,
          ...init.headers,
          'content-type': 'application/json',
          ...auth,
          // The provider fetch then refuses an answer that is not a stream (docs/gateway.md, "Streams").
          ...(request.stream ? { [STREAM_REQUEST_HEADER]: 'native' } : {}),
        },
        body: JSON.stringify(request.body),
        signal: init.signal,
        redirect: 'manual',
      });
    },
  };
}

/**
 * A failed native attempt: the envelope of the provider's answer, thrown so that the call loop retries or falls
 * back as it does for any failed call, with the answer's headers for its `retry-after`.
 */
export class WireFailure extends Error {
  override readonly name = 'VerdictWireFailure';

  constructor(
    /** The failure envelope, as the normalizer read the answer. */
    readonly envelope: UnifiedFailure,
    /** The answer's headers (`retry-after`), as the call loop reads them. */
    readonly responseHeaders: Record<string, string>,
  ) {
    super(envelope.error.message);
  }
}

/** The headers of an answer as a plain record (lowercase names, as the retry rule reads them). */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** The facts of one native call. */
export interface NativeCall {
  /** The configured provider id, the envelope's `provider`. */
  readonly provider: string;
  /** The trace id of the request. */
  readonly traceId: string;
  /** The request's signal (deadline, client, stop). */
  readonly signal: AbortSignal;
  /** The gateway's headers for the provider (trace ids). */
  readonly headers: Record<string, string>;
}

/**
 * Send a request; a provider that could not be reached is `PROVIDER_UNAVAILABLE`, retryable, as the AI SDK path
 * answers it. A fault of the provider fetch (a redirect, a bound) and an abort pass on as thrown.
 */
export async function sendNative(
  transport: NativeTransport,
  request: WireRequest,
  call: NativeCall,
): Promise<Response> {
  try {
    return await transport.send(request, { signal: call.signal, headers: call.headers });
  } catch (error) {
    if (call.signal.aborted || findUpstreamFault(error) !== undefined) throw error;
    const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
    throw new WireFailure(
      assembleFailure(
        call.provider,
        'PROVIDER_UNAVAILABLE',
        `Cannot connect to the provider${typeof code === 'string' ? ` (${code})` : ''}.`,
        { is_retryable: true },
        { trace_id: call.traceId },
      ),
      {},
    );
  }
}

/** The envelope as a success, or the failure thrown for the call loop. */
function settled(envelope: UnifiedOutput, headers: Record<string, string>): UnifiedOutput {
  if (!envelope.success) throw new WireFailure(envelope, headers);
  return envelope;
}

/**
 * One plain native attempt: the provider's answer read whole (within the provider fetch's bounds) and normalized.
 * A failure throws {@link WireFailure}.
 */
export async function callNative(
  transport: NativeTransport,
  request: WireRequest,
  call: NativeCall,
): Promise<UnifiedOutput> {
  const startedAt = performance.now();
  const response = await sendNative(transport, request, call);
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = headerRecord(response.headers);
  const context: WireReadContext = {
    provider: call.provider,
    traceId: call.traceId,
    status: response.status,
    headers,
    latencyMs: Math.round(performance.now() - startedAt),
  };
  return settled(
    transport.route.wire.readAnswer({ status: response.status, headers, body }, context),
    headers,
  );
}

/** A native stream started: the deltas read before it was committed, and the rest of it. */
export interface NativeStream {
  /** The deltas of the events read so far (up to the first one). */
  readonly head: readonly WireDelta[];
  /**
   * The rest of the stream's deltas, batch by batch as the network gives them; its return value is the envelope
   * of the whole answer (a failure envelope for an error event, a cut stream or a bound passed).
   */
  readonly rest: AsyncGenerator<readonly WireDelta[], UnifiedOutput>;
  /** Stops reading (the client went away): the connection to the provider is let go. */
  cancel(reason: unknown): void;
}

/**
 * Start a native stream and read it up to its first delta (or its end). A failure before any delta throws, so it
 * is retried or falls back like any failed call; after the first delta the answer is committed to this target.
 */
export async function startNativeStream(
  transport: NativeTransport,
  request: WireRequest,
  call: NativeCall,
): Promise<NativeStream> {
  const response = await sendNative(transport, request, call);
  const headers = headerRecord(response.headers);
  const reader = transport.route.wire.openStream({
    provider: call.provider,
    traceId: call.traceId,
    status: response.status,
    headers,
  });
  const body = response.body?.getReader();
  const read = async (): Promise<{ chunk: Uint8Array } | { end: UnifiedOutput }> => {
    if (body === undefined) return { end: reader.end() };
    try {
      const next = await body.read();
      return next.done ? { end: reader.end() } : { chunk: next.value };
    } catch (error) {
      // The stream stopped short (the connection closed before the end-of-answer event, or dropped): the
      // normalizer judges what was read, as it judges the same bytes captured (docs/unified.md, "Streams").
      if (isCut(error) && !call.signal.aborted) return { end: reader.end() };
      throw error;
    }
  };
  const head: WireDelta[] = [];
  let ended: UnifiedOutput | undefined;
  let calls = 0;
  /** The deltas of a chunk, with the stream's tool calls counted against their bound. */
  const push = (chunk: Uint8Array): WireDelta[] => {
    const deltas = reader.push(chunk);
    for (const delta of deltas)
      if (delta.type === 'tool_call_start' && ++calls > MAX_TOOL_CALLS) throw toolCallsFault();
    return deltas;
  };
  try {
    // The answer is committed to this target at its first text, as on the AI SDK path: tool calls before it
    // are held, so that a failure among them is still retried or falls back.
    while (!head.some((delta) => delta.type === 'text')) {
      const next = await read();
      if ('end' in next) {
        ended = settled(next.end, headers);
        break;
      }
      head.push(...push(next.chunk));
      // An error event before the first text fails the attempt; after it, the client hears part of this answer.
      const failure = head.some((delta) => delta.type === 'text') ? undefined : reader.failure();
      if (failure !== undefined && !failure.success) throw new WireFailure(failure, headers);
    }
  } catch (error) {
    body?.cancel(error).catch(() => undefined);
    throw error;
  }
  async function* rest(): AsyncGenerator<readonly WireDelta[], UnifiedOutput> {
    if (ended !== undefined) return ended;
    for (;;) {
      const next = await read();
      if ('end' in next) return next.end;
      const deltas = push(next.chunk);
      if (deltas.length > 0) yield deltas;
    }
  }
  return {
    head,
    rest: rest(),
    cancel(reason) {
      body?.cancel(reason).catch(() => undefined);
    },
  };
}

/** True for the provider fetch's fault of a stream that stopped before its end. */
export function isCut(error: unknown): boolean {
  const reason = findUpstreamFault(error)?.details.reason;
  return reason === 'no_end_of_answer' || reason === 'connection_reset';
}
