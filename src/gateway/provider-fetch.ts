import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request } from 'undici';

/** The `fetch` the gateway calls its providers through, and how to let its connections go. */
export interface ProviderFetch {
  /** A WHATWG `fetch` on the gateway's own keep-alive pool. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Closes the pool's connections and refuses new requests; a request still in flight fails. `verdict gateway`
   * calls it once its own requests have ended (or were aborted at the end of the grace period).
   */
  close(): Promise<void>;
}

/** Statuses whose response has no body, whatever the provider sent. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What a `Response`'s `statusText` may hold (HTTP's reason-phrase). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The content codings `fetch` decodes, and how. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A body the direct path sends as it is: text or bytes. Anything else (a form, a blob, a stream) goes to `fetch`. */
function isPlainBody(body: unknown): body is string | Uint8Array | ArrayBuffer | null | undefined {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer
  );
}

function headerRecord(init: HeadersInit | undefined, body: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    record[name] = value;
  });
  // As `fetch` does: any answer accepted, and a text body without a type is plain text.
  record.accept ??= '*/*';
  if (typeof body === 'string' && record['content-type'] === undefined)
    record['content-type'] = 'text/plain;charset=UTF-8';
  return record;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.append(name, value);
  }
  return headers;
}

function ignore(): void {}

/** Drops a body that has none by protocol (HEAD, 204, 304): read to its end, so the connection stays usable. */
function discard(body: Readable): void {
  body.on('error', ignore);
  body.resume();
}

/** Drops a body that is not wanted: the connection goes with it, so a body that never ends costs nothing. */
function drop(body: Readable): void {
  body.on('error', ignore);
  body.destroy();
}

/** What `fetch` rejects with when the connection fails: the network error as its `cause`. */
function networkError(message: string, cause: unknown): TypeError {
  return new TypeError(message, { cause });
}

/**
 * The body as a web stream, decoded when the provider used a content coding `fetch` decodes. A read that fails
 * (the connection dropped) errors the stream as `fetch` does (`terminated`), or with the abort reason.
 */
function webBody(
  source: Readable,
  coding: string | null,
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  // A body destroyed before it is read (an abort, a cancel) emits its error with no reader listening; it
  // reaches the reader through the iterator, and must never reach the process as an uncaught exception.
  source.on('error', ignore);
  // Codings are listed in the order they were applied, so they are undone from the last; one `fetch` does not
  // know leaves the body as it came.
  const codings = (coding ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity')
    .reverse();
  const decoders = codings.map((name) => DECODERS[name]);
  let readable: Readable = source;
  if (codings.length > 0 && decoders.every((decoder) => decoder !== undefined)) {
    const stages = decoders.map((decoder) => decoder());
    pipeline([source, ...stages], ignore);
    readable = stages[stages.length - 1] ?? source;
  }
  const chunks = readable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else {
          const chunk = next.value as Buffer;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        }
      } catch (error) {
        controller.error(signal?.aborted ? signal.reason : networkError('terminated', error));
      }
    },
    cancel() {
      source.destroy();
      readable.destroy();
    },
  });
}

/**
 * A `fetch` on an undici `Agent` (connections to each provider kept alive between requests). A request the
 * gateway's provider fetch makes — text or bytes as its body, redirects not followed — goes straight to the
 * pool through undici's `request`, and its answer comes back as a `Response` streaming the body as it arrives:
 * the same status, headers (a content coding decoded, as `fetch` does), abort reasons and `fetch failed` /
 * `terminated` errors as the global `fetch` gives, for about half its CPU per call (BENCHMARKS.md, "Gateway").
 * Anything else (a `Request` object, a form or stream body, a redirect to follow) goes to the global `fetch` on
 * the same pool, so every provider package sends what it sends. Timeouts stay the gateway's (the route's
 * deadline and the first-byte bound abort the call); undici's own are only a backstop.
 */
export function createProviderFetch(): ProviderFetch {
  const agent = new Agent();
  const viaFetch = (input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> => {
    // Node's `fetch` reads `dispatcher`, which the DOM's `RequestInit` does not declare.
    const withPool: RequestInit & { dispatcher: Agent } = { ...init, dispatcher: agent };
    return globalThis.fetch(input, withPool);
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    if (input instanceof Request || init?.redirect !== 'manual' || !isPlainBody(body))
      return viaFetch(input, init);
    const signal = init.signal;
    if (signal?.aborted) throw signal.reason;
    const method = (init.method ?? 'GET').toUpperCase();
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(String(input), {
        method,
        headers: headerRecord(init.headers, body),
        body: body instanceof ArrayBuffer ? new Uint8Array(body) : (body ?? null),
        ...(signal === null || signal === undefined ? {} : { signal }),
        dispatcher: agent,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw networkError('fetch failed', error);
    }
    const status = answer.statusCode;
    const statusText = answer.statusText ?? '';
    let headers: Headers;
    try {
      // A status, reason phrase or header `Response` cannot carry fails the call.
      if (status < 200 || status > 599) throw new RangeError(`The answer's status ${status} is not 200–599.`);
      if (!REASON_PHRASE.test(statusText)) throw new TypeError("The answer's reason phrase is not valid.");
      headers = responseHeaders(answer.headers);
    } catch (error) {
      drop(answer.body);
      throw networkError('fetch failed', error);
    }
    const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(status);
    if (empty) discard(answer.body);
    const stream = empty ? null : webBody(answer.body, headers.get('content-encoding'), signal);
    return new Response(stream, { status, statusText, headers });
  };
  // `destroy`, not `close`: undici's `close` waits for requests in flight, and a `destroy` after it no longer
  // reaches their connections.
  const close = () => agent.destroy();
  return { fetch, close };
}
