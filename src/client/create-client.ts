import { ROUTE_TABLE } from '../gateway/basics/route-table.js';
import { sleep } from '../sleep.js';
import { assembleFailure } from '../unified/assemble-output.js';
import type { UnifiedErrorCode } from '../unified/error-taxonomy.js';
import { traceIdOr } from '../unified/trace-id-from.js';
import type { UnifiedOutput } from '../unified/types.js';
import { validateUnifiedOutput } from '../unified/validate-unified-output.js';
import { EventTooLargeError, readEventStream } from './read-event-stream.js';
import type {
  ImagesRequest,
  SpeechRequest,
  TextOutput,
  TextRequest,
  TextStreamEvent,
  TranscriptionRequest,
  UsageQuery,
  UsageRequestsQuery,
  VideosRequest,
} from './types.js';

/** Where the gateway is and how to reach it. */
export interface ClientOptions {
  /**
   * The gateway's base URL, such as `http://127.0.0.1:8787` (a path prefix is kept); in a web page, `''` is the
   * page's own origin.
   */
  baseURL: string;
  /** A gateway key, sent as `Authorization: Bearer <key>`; omit it for a gateway without keys. */
  key?: string | undefined;
  /** Headers sent with every request (`x-request-id`, say). */
  headers?: Record<string, string> | undefined;
  /** The `fetch` to use; the platform's by default (browsers, Workers, Deno, Node 18+). */
  fetch?: typeof fetch | undefined;
  /** Largest answer body read, in bytes (64 MiB by default); a larger one is an `INVALID_PROVIDER_RESPONSE`. */
  maxBodyBytes?: number | undefined;
}

/** The part of a gateway's answer that is not its body: its status line and headers. */
export interface ResponseInfo {
  /** The HTTP status. */
  status: number;
  /**
   * The headers: `x-trace-id`, `retry-after`, `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, …
   * (a browser shows a cross-origin page only the ones the gateway exposes, which are these).
   */
  headers: Headers;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call; the answer is then a `REQUEST_TIMEOUT` envelope. */
  signal?: AbortSignal | undefined;
  /** Headers for this call only. */
  headers?: Record<string, string> | undefined;
  /**
   * Called with the status and headers of each answer the gateway sends, before its body is read (once per poll
   * for `waitForVideo`); never called when no answer arrives.
   */
  onResponse?: ((response: ResponseInfo) => void) | undefined;
}

/** How `waitForVideo` polls a job. */
export interface PollOptions extends CallOptions {
  /** Milliseconds between polls (2000 by default). */
  intervalMs?: number | undefined;
  /** Most polls before giving up with a pending answer (150 by default). */
  maxPolls?: number | undefined;
}

/** A client of one gateway; every method answers an envelope and never throws for a failed call. */
export interface VerdictClient {
  /** `POST /v1/text`: the answer as one envelope (tool calls and objects in its metadata). */
  text(request: TextRequest, options?: CallOptions): Promise<TextOutput>;
  /** `POST /v1/text` streamed: text deltas and tool-call events, ending with the `envelope` event. */
  streamText(request: TextRequest, options?: CallOptions): AsyncIterable<TextStreamEvent>;
  /** `POST /v1/images`. */
  images(request: ImagesRequest, options?: CallOptions): Promise<UnifiedOutput>;
  /** `POST /v1/speech`. */
  speech(request: SpeechRequest, options?: CallOptions): Promise<UnifiedOutput>;
  /** `POST /v1/transcriptions`, as JSON (base64 audio) or multipart (a `Blob`). */
  transcribe(request: TranscriptionRequest, options?: CallOptions): Promise<UnifiedOutput>;
  /** `POST /v1/videos`; with `wait: false` the answer is a pending job to follow with `waitForVideo`. */
  videos(request: VideosRequest, options?: CallOptions): Promise<UnifiedOutput>;
  /** `GET /v1/videos/{job_id}`: the job's status once. */
  videoStatus(jobId: string, options?: CallOptions): Promise<UnifiedOutput>;
  /** Poll a video job until it is no longer pending (or the polls run out, answering the last pending status). */
  waitForVideo(jobId: string, options?: PollOptions): Promise<UnifiedOutput>;
  /** `GET /v1/models`: the providers and aliases the gateway serves, in `metadata`. */
  models(options?: CallOptions): Promise<UnifiedOutput>;
  /** `GET /v1/key`: the calling key's limits and what is left of them, in `metadata.key`. */
  key(options?: CallOptions): Promise<UnifiedOutput>;
  /** `GET /v1/usage` (the admin key): totals and time series of the usage record, in `metadata.usage`. */
  usage(query?: UsageQuery, options?: CallOptions): Promise<UnifiedOutput>;
  /** `GET /v1/usage/requests` (the admin key): one page of request records, newest first, in `metadata`. */
  usageRequests(query?: UsageRequestsQuery, options?: CallOptions): Promise<UnifiedOutput>;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A failure made by the client itself: provider `system`, with the trace id of the answer when there was one. */
function clientFailure(
  code: UnifiedErrorCode,
  message: string,
  details: Record<string, unknown>,
  traceId?: string | null,
): UnifiedOutput {
  return assembleFailure('system', code, message, details, { trace_id: traceIdOr(traceId ?? undefined) });
}

/** The envelope of a failed transport: an abort is `REQUEST_TIMEOUT`, anything else `PROVIDER_UNAVAILABLE`. */
function transportFailure(error: unknown, details: Record<string, unknown> = {}): UnifiedOutput {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') {
    return clientFailure('REQUEST_TIMEOUT', 'The call was aborted before the gateway answered.', {});
  }
  const reason = error instanceof Error ? error.message : String(error);
  return clientFailure('PROVIDER_UNAVAILABLE', `No answer from the gateway: ${reason}`, details);
}

/** The origin of the web page the client runs in, or `undefined` outside one (Node, Workers, `file:` pages). */
function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && /^https?:/.test(origin) ? origin : undefined;
}

/** The body as text, refusing more than `limit` bytes without reading past them. */
async function readText(response: Response, limit: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** A parsed body as an envelope, once it passes verdict's envelope check. */
function envelopeOf(value: unknown, status: number, traceId: string | null): UnifiedOutput {
  const checked = validateUnifiedOutput(value);
  if (checked.valid) return value as UnifiedOutput;
  return clientFailure(
    'INVALID_PROVIDER_RESPONSE',
    `The gateway's answer (HTTP ${status}) is not a valid envelope.`,
    { http_status: status, violations: checked.violations.slice(0, 20) },
    traceId,
  );
}

async function readEnvelope(response: Response, limit: number): Promise<UnifiedOutput> {
  const traceId = response.headers.get('x-trace-id');
  const text = await readText(response, limit);
  if (text === undefined) {
    return clientFailure(
      'INVALID_PROVIDER_RESPONSE',
      `The gateway's answer is larger than ${limit} bytes.`,
      { http_status: response.status, max_body_bytes: limit },
      traceId,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return clientFailure(
      'INVALID_PROVIDER_RESPONSE',
      `The gateway's answer (HTTP ${response.status}) is not JSON.`,
      { http_status: response.status },
      traceId,
    );
  }
  return envelopeOf(value, response.status, traceId);
}

/** A stream's events as typed events; an event that does not have its documented shape ends the stream. */
function typedEvent(event: string, data: unknown): TextStreamEvent | undefined {
  const value = (data ?? {}) as Record<string, unknown>;
  if (event === 'delta' && typeof value.text === 'string') return { type: 'delta', text: value.text };
  if (event === 'tool_call_start' && typeof value.id === 'string' && typeof value.name === 'string') {
    return { type: 'tool_call_start', id: value.id, name: value.name };
  }
  if (event === 'tool_call_delta' && typeof value.id === 'string' && typeof value.arguments === 'string') {
    return { type: 'tool_call_delta', id: value.id, arguments: value.arguments };
  }
  return undefined;
}

/**
 * A client of the verdict gateway (docs/client.md). It needs only `fetch`, so it runs in browsers, Workers and
 * Node alike; every answer is checked as an envelope, and a call that gets no envelope (no connection, a body
 * that is not one) answers a `system` failure envelope instead of throwing.
 * @example
 * const verdict = createClient({ baseURL: 'http://127.0.0.1:8787', key: process.env.VERDICT_KEY });
 * const answer = await verdict.text({ model: 'openai:gpt-4o-mini', input: 'Say hi' });
 * if (answer.success) console.log(answer.content);
 * else console.error(answer.error.code, answer.error.message);
 */
export function createClient(options: ClientOptions): VerdictClient {
  const base = options.baseURL.replace(/\/+$/, '');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  function headersOf(call: CallOptions | undefined, json: boolean): Record<string, string> {
    return {
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(options.key === undefined || options.key === '' ? {} : { authorization: `Bearer ${options.key}` }),
      ...options.headers,
      ...call?.headers,
    };
  }

  async function send(
    path: string,
    init: { method: 'GET' | 'POST'; body?: BodyInit; json?: boolean },
    call: CallOptions | undefined,
  ): Promise<Response | UnifiedOutput> {
    const signal = call?.signal === undefined ? {} : { signal: call.signal };
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: init.method,
        headers: headersOf(call, init.json === true),
        ...(init.body === undefined ? {} : { body: init.body }),
        ...signal,
      });
    } catch (error) {
      return unreachable(error, signal);
    }
    call?.onResponse?.({ status: response.status, headers: response.headers });
    return response;
  }

  /**
   * In a web page, a gateway that refuses the page's origin (CORS) fails like one that is down. A `no-cors`
   * request is not subject to CORS and resolves only when something answers, so asking `/healthz` once more
   * that way tells the two apart (docs/client.md, "Failures without an answer").
   */
  async function unreachable(error: unknown, signal: { signal?: AbortSignal }): Promise<UnifiedOutput> {
    const page = pageOrigin();
    const failure = transportFailure(error);
    if (page === undefined || failure.success || failure.error.code !== 'PROVIDER_UNAVAILABLE')
      return failure;
    let gateway: string;
    try {
      gateway = new URL(`${base}/`, page).origin;
    } catch {
      return failure;
    }
    const answers =
      gateway !== page &&
      (await doFetch(`${base}/healthz`, { mode: 'no-cors', cache: 'no-store', ...signal }).then(
        () => true,
        () => false,
      ));
    if (!answers) return transportFailure(error, { reason: 'unreachable', gateway });
    return clientFailure(
      'PROVIDER_UNAVAILABLE',
      `The gateway at ${gateway} answers but refuses requests from this page's origin (${page}): ` +
        `its cors.origins setting must list "${page}".`,
      { reason: 'origin_refused', gateway, page_origin: page },
    );
  }

  async function request(
    path: string,
    init: { method: 'GET' | 'POST'; body?: BodyInit; json?: boolean },
    call: CallOptions | undefined,
  ): Promise<UnifiedOutput> {
    const response = await send(path, init, call);
    if (!(response instanceof Response)) return response;
    try {
      return await readEnvelope(response, limit);
    } catch (error) {
      return transportFailure(error);
    }
  }

  const postJson = (path: string, body: unknown, call: CallOptions | undefined) =>
    request(path, { method: 'POST', body: JSON.stringify(body), json: true }, call);

  async function* streamText(body: TextRequest, call?: CallOptions): AsyncGenerator<TextStreamEvent> {
    const response = await send(
      ROUTE_TABLE.text.path,
      { method: 'POST', body: JSON.stringify({ ...body, stream: true }), json: true },
      call,
    );
    if (!(response instanceof Response)) {
      yield { type: 'envelope', envelope: response as TextOutput };
      return;
    }
    const traceId = response.headers.get('x-trace-id');
    // A failure before the stream started is a plain envelope with its status.
    if (
      !(response.headers.get('content-type') ?? '').startsWith('text/event-stream') ||
      response.body === null
    ) {
      const envelope = await readEnvelope(response, limit).catch(transportFailure);
      yield { type: 'envelope', envelope: envelope as TextOutput };
      return;
    }
    let final: UnifiedOutput | undefined;
    try {
      for await (const event of readEventStream(response.body, limit)) {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          final = clientFailure(
            'INVALID_PROVIDER_RESPONSE',
            `A "${event.event}" event of the stream is not JSON.`,
            { event: event.event },
            traceId,
          );
          break;
        }
        if (event.event === 'envelope') {
          final = envelopeOf(data, response.status, traceId);
          break;
        }
        const typed = typedEvent(event.event, data);
        if (typed !== undefined) yield typed;
      }
    } catch (error) {
      final =
        error instanceof EventTooLargeError
          ? clientFailure('INVALID_PROVIDER_RESPONSE', error.message, { max_event_chars: limit }, traceId)
          : transportFailure(error);
    }
    yield {
      type: 'envelope',
      envelope: (final ??
        clientFailure(
          'PROVIDER_UNAVAILABLE',
          'The connection closed before the stream sent its final envelope.',
          {},
          traceId,
        )) as TextOutput,
    };
  }

  async function transcribe(body: TranscriptionRequest, call?: CallOptions): Promise<UnifiedOutput> {
    if (typeof body.audio === 'string') return postJson(ROUTE_TABLE.transcriptions.path, body, call);
    const form = new FormData();
    form.set('model', body.model);
    const audio =
      body.media_type !== undefined && body.audio.type === ''
        ? new Blob([body.audio], { type: body.media_type })
        : body.audio;
    form.set('file', audio, 'filename' in body && body.filename !== undefined ? body.filename : 'audio');
    return request(ROUTE_TABLE.transcriptions.path, { method: 'POST', body: form }, call);
  }

  const videoStatus = (jobId: string, call?: CallOptions) =>
    request(`${ROUTE_TABLE.videos.path}/${encodeURIComponent(jobId)}`, { method: 'GET' }, call);

  async function waitForVideo(jobId: string, poll: PollOptions = {}): Promise<UnifiedOutput> {
    const interval = poll.intervalMs ?? 2000;
    const maxPolls = Math.max(1, poll.maxPolls ?? 150);
    let status = await videoStatus(jobId, poll);
    for (let polls = 1; polls < maxPolls; polls++) {
      if (!status.success || status.metadata.job_status !== 'pending') return status;
      if (!(await sleep(interval, poll.signal))) return transportFailure({ name: 'AbortError' });
      status = await videoStatus(jobId, poll);
    }
    return status;
  }

  return {
    text: (body, call) => postJson(ROUTE_TABLE.text.path, body, call) as Promise<TextOutput>,
    streamText,
    images: (body, call) => postJson(ROUTE_TABLE.images.path, body, call),
    speech: (body, call) => postJson(ROUTE_TABLE.speech.path, body, call),
    transcribe,
    videos: (body, call) => postJson(ROUTE_TABLE.videos.path, body, call),
    videoStatus,
    waitForVideo,
    models: (call) => request(ROUTE_TABLE.models.path, { method: 'GET' }, call),
    key: (call) => request(ROUTE_TABLE.key.path, { method: 'GET' }, call),
    usage: (query, call) => request(`${ROUTE_TABLE.usage.path}${searchOf(query)}`, { method: 'GET' }, call),
    usageRequests: (query, call) =>
      request(`${ROUTE_TABLE.usage_requests.path}${searchOf(query)}`, { method: 'GET' }, call),
  };
}

/** A query's set members as a `?…` search string, or `''` when none is set. */
function searchOf(query: object | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
