import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable, Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { Agent, request } from 'undici';
import {
  CHECKS_DOWNLOADS,
  createAddressAllowList,
  DOWNLOAD_REQUEST_HEADER,
  isInternalAddress,
} from '../basics/internal-address.js';
import { UpstreamFault } from './upstream-fault.js';

/** The `fetch` the gateway calls its providers through, and how to let its connections go. */
export interface ProviderFetch {
  /** A WHATWG `fetch` on the gateway's own pool of provider connections. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Closes the pool's connections and refuses new requests; a request still in flight fails. `verdict gateway`
   * calls it once its own requests have ended (or were aborted at the end of the grace period).
   */
  close(): Promise<void>;
}

/**
 * Every connection carries one request and closes after its answer (`connection: close`): HTTP/1.1 gives an
 * answer no request id, so on a reused connection an extra answer a provider sends (one its kernel holds back
 * until the next request arrives) would be read as the next caller's answer, and shift every answer after it
 * (docs/gateway.md, "Security").
 */
const ONE_REQUEST_PER_CONNECTION = { pipelining: 0 } as const;

/** Statuses whose response has no body, whatever the provider sent. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What a `Response`'s `statusText` may hold (HTTP's reason-phrase). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The most content codings an answer may list, as `fetch` allows: each one is another decoder to run. */
const MAX_CODINGS = 5;

/** As lenient as `fetch`'s decoders: a compressed body cut short yields what it holds instead of failing. */
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

/** `deflate` as `fetch` reads it: a zlib stream, or the raw deflate some servers send under that name. */
function createDeflateDecoder(): Transform {
  let inflate: Transform | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (inflate === undefined) {
        if (chunk.length === 0) return callback();
        // A zlib stream opens with its method, deflate (8), in the low bits of its first byte.
        inflate = ((chunk[0] ?? 0) & 0x0f) === 0x08 ? createInflate(LENIENT) : createInflateRaw(LENIENT);
        inflate.on('data', (decoded: Buffer) => this.push(decoded));
        inflate.on('error', (error) => this.destroy(error));
      }
      inflate.write(chunk, callback);
    },
    flush(callback) {
      if (inflate === undefined) return callback();
      inflate.once('end', () => callback());
      inflate.end();
    },
    destroy(error, callback) {
      inflate?.destroy();
      callback(error);
    },
  });
}

/** The content codings `fetch` decodes, and how. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(LENIENT),
  'x-gzip': () => createGunzip(LENIENT),
  deflate: createDeflateDecoder,
  br: () =>
    createBrotliDecompress({
      flush: constants.BROTLI_OPERATION_FLUSH,
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
    }),
};

/** The codings an answer lists, in the order they were applied (`identity` and blanks count, as in `fetch`). */
function codingsOf(headers: Headers): string[] {
  const coding = headers.get('content-encoding');
  return coding === null ? [] : coding.split(',').map((name) => name.trim().toLowerCase());
}

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
  applied: readonly string[],
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  // A body destroyed before it is read (an abort, a cancel) emits its error with no reader listening; it
  // reaches the reader through the iterator, and must never reach the process as an uncaught exception.
  source.on('error', ignore);
  // Codings are undone from the last applied; one `fetch` does not decode (`identity` too) leaves the body as it
  // came.
  const codings = [...applied].reverse();
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
      // As in `fetch`, an abort fails every read after it, even of a body that had already arrived whole.
      if (signal?.aborted) {
        readable.destroy();
        source.destroy();
        controller.error(signal.reason);
        return;
      }
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
 * A `fetch` on an undici `Agent` (a connection per request, never reused). A request the
 * gateway's provider fetch makes — text or bytes as its body, redirects not followed — goes straight to the
 * pool through undici's `request`, and its answer comes back as a `Response` streaming the body as it arrives:
 * the same status, headers (a content coding decoded, as `fetch` does), abort reasons and `fetch failed` /
 * `terminated` errors as the global `fetch` gives, for about 0.6× its CPU per plain call (BENCHMARKS.md, "Gateway").
 * Anything else (a `Request` object, a form or stream body, a redirect to follow) goes to the global `fetch` on
 * the same pool, so every provider package sends what it sends. Timeouts stay the gateway's (the route's
 * deadline and the first-byte bound abort the call); undici's own are only a backstop.
 */
export function createProviderFetch(options: ProviderFetchOptions = {}): ProviderFetch {
  const resolve = options.lookup ?? (dnsLookup as LookupFunction);
  const allowed = createAddressAllowList(options.allowDownloadAddresses);
  const agent = new Agent({
    ...(options.reuseConnections === true ? {} : ONE_REQUEST_PER_CONNECTION),
    ...(options.lookup === undefined ? {} : { connect: { lookup: options.lookup } }),
  });
  // Downloads made on a provider's word connect through their own pool, whose every connection checks the
  // addresses it is about to use (docs/gateway.md, "Security").
  const downloads = new Agent({
    ...ONE_REQUEST_PER_CONNECTION,
    connect: { lookup: checkedLookup(resolve, allowed) },
  });
  const fetch = async (input: RequestInfo | URL, given?: RequestInit): Promise<Response> => {
    const { init, download } = takeDownloadMark(given);
    const pool = download ? downloads : agent;
    if (download) {
      const host = new URL(input instanceof Request ? input.url : String(input)).hostname.replace(
        /^\[|\]$/g,
        '',
      );
      // An address in the URL is connected to without a lookup: checked here.
      if (isIP(host) !== 0 && isInternalAddress(host) && !allowed(host))
        throw networkError('fetch failed', refusal(host));
    }
    const viaFetch = (): Promise<Response> => {
      // Node's `fetch` reads `dispatcher`, which the DOM's `RequestInit` does not declare.
      const withPool: RequestInit & { dispatcher: Agent } = { ...init, dispatcher: pool };
      return globalThis.fetch(input, withPool);
    };
    const body = init?.body;
    if (input instanceof Request || init?.redirect !== 'manual' || !isPlainBody(body)) return viaFetch();
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
        dispatcher: pool,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw networkError('fetch failed', unreadableAnswer(error) ?? error);
    }
    const status = answer.statusCode;
    const statusText = answer.statusText ?? '';
    const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(status);
    let headers: Headers;
    let codings: string[];
    try {
      // A status, reason phrase or header `Response` cannot carry fails the call.
      if (status < 200 || status > 599) throw new RangeError(`The answer's status ${status} is not 200–599.`);
      if (!REASON_PHRASE.test(statusText)) throw new TypeError("The answer's reason phrase is not valid.");
      headers = responseHeaders(answer.headers);
      codings = empty ? [] : codingsOf(headers);
      if (codings.length > MAX_CODINGS)
        throw new RangeError(`The answer lists more than ${MAX_CODINGS} content codings.`);
    } catch (error) {
      drop(answer.body);
      throw networkError('fetch failed', answerFault(error instanceof Error ? error.message : String(error)));
    }
    if (empty) discard(answer.body);
    const stream = empty ? null : webBody(answer.body, codings, signal);
    return new Response(stream, { status, statusText, headers });
  };
  // `destroy`, not `close`: undici's `close` waits for requests in flight, and a `destroy` after it no longer
  // reaches their connections.
  const close = async () => {
    await Promise.all([agent.destroy(), downloads.destroy()]);
  };
  return { fetch: Object.assign(fetch, { [CHECKS_DOWNLOADS]: true }), close };
}

/**
 * The provider answered, but with something HTTP cannot carry (undici's parser refused it, or its headers
 * overflowed): a deterministic fault of the provider's, which another attempt would meet again.
 */
function unreadableAnswer(error: unknown): UpstreamFault | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  // undici ends a connection whose answer its parser cannot follow (a flood of 1xx answers) as `bad response`.
  const badResponse = code === 'UND_ERR_SOCKET' && (error as Error).message === 'bad response';
  if (code !== 'UND_ERR_HEADERS_OVERFLOW' && !code.startsWith('HPE_') && !badResponse) return undefined;
  return answerFault(
    code === 'UND_ERR_HEADERS_OVERFLOW'
      ? "The provider's answer has more header bytes than the gateway reads."
      : `The provider's answer is not valid HTTP (${code}).`,
  );
}

/** A provider answer the gateway cannot read: `INVALID_PROVIDER_RESPONSE`, not retried (docs/gateway.md, "Bounds"). */
function answerFault(message: string): UpstreamFault {
  return new UpstreamFault('INVALID_PROVIDER_RESPONSE', message, { unreadable_answer: true }, false);
}

/** How to build the provider fetch. */
export interface ProviderFetchOptions {
  /**
   * Internal addresses or CIDR ranges downloads may reach anyway (`upstream.allowDownloadAddresses`); the
   * providers' own configured base URLs need no entry.
   */
  allowDownloadAddresses?: readonly string[] | undefined;
  /** Resolves host names (default `dns.lookup`): a test's own resolver. */
  lookup?: LookupFunction | undefined;
  /**
   * Keep provider connections alive between requests (`upstream.reuseConnections`; default false): no new
   * connection (and TLS handshake) per call, at the price of the answer shift a misbehaving provider can cause on
   * a reused connection (docs/gateway.md, "Security"). Downloads never reuse a connection.
   */
  reuseConnections?: boolean | undefined;
}

/** The request without the gateway's download mark, and whether it carried one. */
function takeDownloadMark(init: RequestInit | undefined): {
  init: RequestInit | undefined;
  download: boolean;
} {
  if (init?.headers === undefined) return { init, download: false };
  const headers = new Headers(init.headers);
  if (!headers.has(DOWNLOAD_REQUEST_HEADER)) return { init, download: false };
  headers.delete(DOWNLOAD_REQUEST_HEADER);
  return { init: { ...init, headers }, download: true };
}

/** The refusal of a download whose host is, or resolves to, an internal address. */
function refusal(host: string): UpstreamFault {
  return new UpstreamFault(
    'INVALID_PROVIDER_RESPONSE',
    `The provider's answer points at a download on an internal address (host ${host}), which the gateway does not fetch.`,
    { download_refused: 'internal_address', host },
    false,
  );
}

/** A lookup that fails when any address the name resolves to is internal and not allowed. */
function checkedLookup(resolve: LookupFunction, allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = (Array.isArray(addresses) ? addresses : []) as LookupAddress[];
      if (list.length === 0)
        return callback(
          Object.assign(new Error(`No address for ${hostname}.`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      if (list.some((entry) => isInternalAddress(entry.address) && !allowed(entry.address))) {
        return callback(refusal(hostname) as unknown as NodeJS.ErrnoException, '', 0);
      }
      if (options.all)
        return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, list);
      const [first] = list as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
