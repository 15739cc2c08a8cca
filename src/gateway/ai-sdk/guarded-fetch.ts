/**
 * The `fetch` every AI SDK provider of the gateway calls through (docs/gateway.md, "Bounds"): no redirect to
 * another origin, every provider answer bounded in bytes, events and time to first byte, and a stream counted as
 * complete only when the provider said so. Past a bound the upstream request is aborted and the call fails with
 * an {@link UpstreamFault} naming the bound, so nothing a provider sends can grow the gateway's memory.
 */
import { CHECKS_DOWNLOADS, DOWNLOAD_REQUEST_HEADER } from '../basics/internal-address.js';
import { UpstreamFault } from './upstream-fault.js';

/** The bounds of one provider answer; each is a setting of the gateway's `upstream` configuration. */
export interface UpstreamBounds {
  /** Largest body of an answer that is not a stream, in bytes. */
  readonly maxResponseBytes: number;
  /** Largest stream, all events together, in bytes. */
  readonly maxStreamBytes: number;
  /** Largest server-sent-events line or event, in bytes. */
  readonly maxEventBytes: number;
  /** Most events in one stream. */
  readonly maxStreamEvents: number;
  /** Longest wait for the answer's status line and headers, in milliseconds. */
  readonly firstByteTimeoutMs: number;
  /**
   * Most bytes of answers that are not streams held at once by all the calls of one gateway, decoded: such a
   * body is read whole before it is parsed, so this bounds what they cost together (docs/gateway.md, "Bounds").
   */
  readonly maxInFlightBytes: number;
}

/** The defaults of {@link UpstreamBounds}, as docs/gateway.md lists them. */
export const DEFAULT_UPSTREAM_BOUNDS: UpstreamBounds = {
  maxResponseBytes: 32 * 1024 * 1024,
  maxStreamBytes: 64 * 1024 * 1024,
  maxEventBytes: 1024 * 1024,
  maxStreamEvents: 100_000,
  firstByteTimeoutMs: 60_000,
  maxInFlightBytes: 256 * 1024 * 1024,
};

/** The bytes of answers held at once, shared by every call of one guarded fetch, within `limit`. */
class ByteBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` from the budget, or answers false (taking nothing) when they do not fit. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back bytes taken earlier. */
  give(bytes: number): void {
    this.held -= bytes;
  }
}

/**
 * A request header the gateway sets on calls that must answer with a stream; the provider fetch removes it
 * before sending, and then refuses an answer that is not `text/event-stream`. Its value is the id of the call's
 * {@link StreamTap}, or anything else when nobody listens.
 */
export const STREAM_REQUEST_HEADER = 'x-verdict-expects-stream';

/** The taps a fetch may still pick up, by id; an entry lives only while its call is starting. */
const openTaps = new Map<string, StreamTap>();
let tapsMade = 0;

/**
 * What a streamed call learns from its provider's events besides the parts the AI SDK makes of them: the text
 * of the first error event (its `data`, bounded like every event). Provider packages pass on their own parse of
 * an error event, which may drop members that decide its meaning (the `status_code` beside Groq's error), so the
 * gateway reads the event itself (docs/gateway.md, "Streams"). A tap is found by the fetch through
 * {@link STREAM_REQUEST_HEADER} and {@link StreamTap.detach}ed once the call has started.
 */
export class StreamTap {
  /** The value of {@link STREAM_REQUEST_HEADER} that leads the provider fetch to this tap. */
  readonly id = `tap-${++tapsMade}`;
  private text: string | undefined;

  constructor() {
    openTaps.set(this.id, this);
  }

  /** Whether an error event was kept (later ones are not). */
  get kept(): boolean {
    return this.text !== undefined;
  }

  /** Keeps the data of an error event, unless one was kept already. */
  keep(data: string): void {
    this.text ??= data;
  }

  /** The first error event's data as JSON, or `undefined` when there was none or it is not JSON. */
  get errorEvent(): unknown {
    if (this.text === undefined) return undefined;
    try {
      return JSON.parse(this.text) as unknown;
    } catch {
      return undefined;
    }
  }

  /** Stops the tap from being found by its id; what it kept stays readable. */
  detach(): void {
    openTaps.delete(this.id);
  }
}

/** How many taps can still be found by their id: zero once every started call detached its own. */
export function openStreamTaps(): number {
  return openTaps.size;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Patterns of the providers' own end-of-answer events: OpenAI Chat's `[DONE]` or a chunk with a finish reason,
 * the Responses API's `response.completed`/`incomplete`/`failed`, Anthropic's `message_stop`, a Gemini candidate
 * with its `finishReason` (or a blocked prompt), and any error event (which the SDK reports itself). Inside JSON
 * text a model's own output has its quotes escaped (`\"finish_reason\"`), so it cannot match these.
 */
const END_OF_ANSWER =
  /^\s*\[DONE\]\s*$|^\s*\{\s*"error"\s*:\s*\{|"finish_reason"\s*:\s*"|"finishReason"\s*:\s*"|"blockReason"\s*:\s*"|"type"\s*:\s*"(?:message_stop|response\.completed|response\.incomplete|response\.failed|error)"/;

/**
 * The data of an error event: a top-level `error` member (OpenAI, Groq, Google), an event typed `error`
 * (Anthropic, the Responses API) or a failed response. Escaped quotes keep a model's own text from matching.
 */
const ERROR_EVENT = /^\s*\{\s*"error"\s*:|"type"\s*:\s*"(?:error|response\.failed)"/;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Counts a stream's bytes, lines and events against the bounds, watches for the provider's end signal, and
 * keeps the first error event for the call's {@link StreamTap}. Lines are decoded only while there is something
 * to look for.
 */
class EventStreamWatch {
  ended = false;
  private total = 0;
  private events = 0;
  private eventBytes = 0;
  private lineBytes = 0;
  private line: Uint8Array[] = [];
  private lastWasCr = false;
  /** The data lines of the event being read, joined by newlines, while a tap listens. */
  private data: string | undefined;
  /** Whether the event being read is named `error` (`event: error`). */
  private namedError = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly bounds: UpstreamBounds,
    private readonly tap: StreamTap | undefined,
  ) {}

  /** Whether a line's text still matters: before the end signal, or while the tap has no error event. */
  private get reading(): boolean {
    return !this.ended || (this.tap !== undefined && !this.tap.kept);
  }

  /** The fault this chunk causes, or `undefined` when the stream is still within its bounds. */
  push(chunk: Uint8Array): UpstreamFault | undefined {
    this.total += chunk.byteLength;
    if (this.total > this.bounds.maxStreamBytes) {
      return boundFault(
        `The provider's stream passed ${this.bounds.maxStreamBytes} bytes.`,
        'max_stream_bytes',
        this.bounds.maxStreamBytes,
      );
    }
    let start = 0;
    for (let index = 0; index < chunk.byteLength; index++) {
      const byte = chunk[index];
      if (byte !== 0x0a && byte !== 0x0d) continue;
      const crlf = byte === 0x0a && this.lastWasCr && index === start && this.lineBytes === 0;
      this.lastWasCr = byte === 0x0d;
      if (!crlf) {
        const fault = this.endLine(chunk, start, index);
        if (fault !== undefined) return fault;
      }
      start = index + 1;
    }
    const rest = chunk.byteLength - start;
    if (rest > 0) {
      this.lastWasCr = false;
      this.lineBytes += rest;
      this.eventBytes += rest;
      if (this.lineBytes > this.bounds.maxEventBytes || this.eventBytes > this.bounds.maxEventBytes) {
        return this.eventTooLarge();
      }
      // The line is kept (within its bound) until its end, to look for the end signal there.
      if (this.reading) this.line.push(chunk.slice(start));
    }
    return undefined;
  }

  /** The text of the line that ends at `chunk[end]`, with the parts of it earlier chunks carried. */
  private lineText(chunk: Uint8Array, start: number, end: number): string {
    if (this.line.length === 0) return this.decoder.decode(chunk.subarray(start, end));
    let text = '';
    for (const part of this.line) text += this.decoder.decode(part, { stream: true });
    return text + this.decoder.decode(chunk.subarray(start, end));
  }

  private endLine(chunk: Uint8Array, start: number, end: number): UpstreamFault | undefined {
    const tail = end - start;
    const length = this.lineBytes + tail;
    this.eventBytes += tail;
    if (length > this.bounds.maxEventBytes || this.eventBytes > this.bounds.maxEventBytes) {
      return this.eventTooLarge();
    }
    if (length === 0) {
      // A blank line dispatches the event gathered so far.
      if (this.eventBytes > 0) {
        this.events++;
        if (this.events > this.bounds.maxStreamEvents) {
          return boundFault(
            `The provider's stream passed ${this.bounds.maxStreamEvents} events.`,
            'max_stream_events',
            this.bounds.maxStreamEvents,
          );
        }
        if (this.data !== undefined && (this.namedError || ERROR_EVENT.test(this.data))) {
          this.tap?.keep(this.data);
        }
      }
      this.eventBytes = 0;
      this.data = undefined;
      this.namedError = false;
    } else if (this.reading) {
      const text = this.lineText(chunk, start, end);
      if (text.startsWith('data:')) {
        // One space after the colon is not part of the value (the server-sent events format).
        const data = text.slice(text.charCodeAt(5) === 0x20 ? 6 : 5);
        if (!this.ended && END_OF_ANSWER.test(data)) this.ended = true;
        if (this.tap !== undefined) this.data = this.data === undefined ? data : `${this.data}\n${data}`;
      } else if (/^event:\s*error\s*$/.test(text)) {
        this.ended = true;
        this.namedError = true;
      }
    }
    if (this.line.length > 0) this.line = [];
    this.lineBytes = 0;
    return undefined;
  }

  private eventTooLarge(): UpstreamFault {
    return boundFault(
      `A line or event of the provider's stream passed ${this.bounds.maxEventBytes} bytes.`,
      'max_event_bytes',
      this.bounds.maxEventBytes,
    );
  }
}

function boundFault(message: string, setting: string, value: number): UpstreamFault {
  return new UpstreamFault('INVALID_PROVIDER_RESPONSE', message, { bound: setting, [setting]: value }, false);
}

/** The fault of an answer that ended before the provider's end signal, or whose connection dropped. */
function cutShort(reason: string): UpstreamFault {
  return new UpstreamFault(
    'INVALID_PROVIDER_RESPONSE',
    'The connection closed before the answer was complete.',
    { reason },
    true,
  );
}

/**
 * `body` passed through `check` chunk by chunk; `finish` says whether its end is a proper end. A fault from
 * either aborts the upstream request (`abort`) and errors the stream, so what was read is dropped. `settle` is
 * called when the body is over, however it ended (read to its end, failed, cancelled).
 */
function guardBody(
  body: ReadableStream<Uint8Array>,
  upstream: AbortController,
  check: (chunk: Uint8Array) => UpstreamFault | undefined,
  finish: () => UpstreamFault | undefined,
  settle: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, fault: UpstreamFault) => {
    settle();
    upstream.abort(fault);
    reader.cancel(fault).catch(() => undefined);
    controller.error(fault);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch {
        settle();
        // Aborted by the deadline, the client or a bound: that reason; else the provider dropped the connection.
        controller.error(
          upstream.signal.aborted ? abortReason(upstream.signal) : cutShort('connection_reset'),
        );
        return;
      }
      if (read.done) {
        const fault = finish();
        if (fault !== undefined) return fail(controller, fault);
        settle();
        controller.close();
        return;
      }
      const fault = check(read.value);
      if (fault === undefined) controller.enqueue(read.value);
      else fail(controller, fault);
    },
    cancel(reason) {
      settle();
      upstream.abort(reason);
      return reader.cancel(reason);
    },
  });
}

/**
 * A `fetch` for the AI SDK providers that applies `bounds` (docs/gateway.md, "Bounds") on top of `base`:
 * redirects are not followed across origins (a same-origin one at most once, and only for a request without a
 * body), answers are read within their bounds, and a stream that ends without the provider's end signal, or
 * whose connection drops, fails with `INVALID_PROVIDER_RESPONSE` (retryable), as the normalizers read a cut stream.
 */
export function createGuardedFetch(
  bounds: UpstreamBounds = DEFAULT_UPSTREAM_BOUNDS,
  base: typeof fetch = (input, init) => globalThis.fetch(input, init),
  trustedOrigins?: ReadonlySet<string>,
): typeof fetch {
  const budget = new ByteBudget(bounds.maxInFlightBytes);
  const overBudget = () =>
    new UpstreamFault(
      'PROVIDER_UNAVAILABLE',
      `The gateway holds ${bounds.maxInFlightBytes} bytes of provider answers already; this answer does not fit.`,
      { bound: 'max_in_flight_bytes', max_in_flight_bytes: bounds.maxInFlightBytes },
      false,
    );
  // Only a fetch that reads the download mark is sent it: another would pass it on to the provider.
  const marksDownloads = (base as { [CHECKS_DOWNLOADS]?: unknown })[CHECKS_DOWNLOADS] === true;
  const guarded = async (
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    redirected: boolean,
  ): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const tapId = headers.get(STREAM_REQUEST_HEADER);
    const streamed = tapId !== null;
    const tap = tapId === null ? undefined : openTaps.get(tapId);
    headers.delete(STREAM_REQUEST_HEADER);
    headers.delete(DOWNLOAD_REQUEST_HEADER);
    // A request to an origin no provider is configured at is a download a provider's answer asked for: the
    // provider fetch checks the addresses it connects to (docs/gateway.md, "Security").
    if (marksDownloads && trustedOrigins !== undefined && !trustedOrigins.has(url.origin)) {
      headers.set(DOWNLOAD_REQUEST_HEADER, '1');
    }
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const upstream = new AbortController();
    const outer = init?.signal ?? undefined;
    const onOuterAbort = () => upstream.abort(outer === undefined ? undefined : abortReason(outer));
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    const firstByte = setTimeout(() => {
      upstream.abort(
        new UpstreamFault(
          'PROVIDER_TIMEOUT',
          `The provider sent no answer within ${bounds.firstByteTimeoutMs} ms.`,
          { bound: 'first_byte_timeout_ms', first_byte_timeout_ms: bounds.firstByteTimeoutMs },
          true,
        ),
      );
    }, bounds.firstByteTimeoutMs);
    let response: Response;
    try {
      response = await base(input instanceof Request ? input.url : url, {
        ...init,
        method,
        headers,
        signal: upstream.signal,
        redirect: 'manual',
      });
    } catch (error) {
      outer?.removeEventListener('abort', onOuterAbort);
      throw upstream.signal.aborted ? abortReason(upstream.signal) : error;
    } finally {
      clearTimeout(firstByte);
    }
    // Called when the answer is over however it ended, so a request polled many times (a video job) does not
    // pile listeners onto its signal.
    const release = () => outer?.removeEventListener('abort', onOuterAbort);
    const refuse = (fault: UpstreamFault): never => {
      release();
      upstream.abort(fault);
      response.body?.cancel(fault).catch(() => undefined);
      throw fault;
    };
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      const location = response.headers.get('location');
      let target: URL | undefined;
      try {
        target = location === null ? undefined : new URL(location, url);
      } catch {
        target = undefined;
      }
      const sameOrigin = target !== undefined && target.origin === url.origin;
      const bodyless = method === 'GET' || method === 'HEAD';
      if (REDIRECTS.has(response.status) && sameOrigin && bodyless && !redirected && target !== undefined) {
        release();
        response.body?.cancel().catch(() => undefined);
        return guarded(target, { ...init, headers }, true);
      }
      return refuse(
        new UpstreamFault(
          'PROVIDER_ERROR',
          `The provider answered ${response.status} (a redirect${sameOrigin ? '' : ' to another origin'}), which the gateway does not follow.`,
          { http_status: response.status, redirect: sameOrigin ? 'same_origin' : 'other_origin' },
          false,
        ),
      );
    }
    const type = response.headers.get('content-type') ?? '';
    const saysEventStream = /^\s*text\/event-stream/i.test(type);
    if (streamed && response.ok && !saysEventStream) {
      return refuse(
        new UpstreamFault(
          'INVALID_PROVIDER_RESPONSE',
          `The provider answered a streamed request with ${type === '' ? 'no content type' : `"${type.split(';')[0]?.trim()}"`} instead of server-sent events.`,
          { content_type: type.split(';')[0]?.trim() ?? '' },
          false,
        ),
      );
    }
    // Only a stream that a call asked for and the provider began is read under the stream bounds: an answer to a
    // plain call, or an error status (an error body, read whole), is bounded as a plain body whatever content type
    // it claims.
    const eventStream = streamed && saysEventStream && response.ok;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (!eventStream && Number.isFinite(declared) && declared > bounds.maxResponseBytes) {
      return refuse(
        boundFault(
          `The provider's answer is larger than ${bounds.maxResponseBytes} bytes.`,
          'max_response_bytes',
          bounds.maxResponseBytes,
        ),
      );
    }
    if (response.body === null) {
      release();
      return response;
    }
    let body: ReadableStream<Uint8Array>;
    if (eventStream) {
      const watch = new EventStreamWatch(bounds, tap);
      body = guardBody(
        response.body,
        upstream,
        (chunk) => watch.push(chunk),
        () => (!response.ok || watch.ended ? undefined : cutShort('no_end_of_answer')),
        release,
      );
    } else {
      // The body is read whole before it is parsed: its bytes count against the gateway's budget until it is over.
      let size = 0;
      body = guardBody(
        response.body,
        upstream,
        (chunk) => {
          if (size + chunk.byteLength > bounds.maxResponseBytes) {
            return boundFault(
              `The provider's answer is larger than ${bounds.maxResponseBytes} bytes.`,
              'max_response_bytes',
              bounds.maxResponseBytes,
            );
          }
          if (!budget.take(chunk.byteLength)) return overBudget();
          size += chunk.byteLength;
          return undefined;
        },
        () => undefined,
        () => {
          budget.give(size);
          size = 0;
          release();
        },
      );
    }
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return (input, init) => guarded(input, init, false);
}
