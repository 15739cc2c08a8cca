import type { Context } from 'hono';
import type { UnifiedOutput, UnifiedSuccess } from '../../unified/types.js';
import type { TextStreamWrite } from '../basics/create-event-stream.js';
import { createEventStream, EVENT_STREAM_HEADERS } from '../basics/create-event-stream.js';
import type { RouteName } from '../basics/route-table.js';
import {
  hashCacheKey,
  keyedEmbeddingsRequest,
  keyedTextRequest,
  uncacheableTextReason,
} from '../cache/cache-key.js';
import type { CachedAnswer, CachedEvent, CacheHit, ResponseCache } from '../cache/response-cache.js';
import { CACHEABLE_ROUTES, MAX_CACHE_TTL_S } from '../config/cache-settings.js';
import { allowedTargets } from '../middleware/teams.js';
import { buildEnvelope } from '../pipeline/build-envelope.js';
import {
  type GatewayEnv,
  type GatewayRuntime,
  noteEnvelope,
  onAnswerEnd,
  respond,
  systemFailure,
} from '../pipeline/gateway-env.js';
import { ENVELOPE_RENDERER, surfaceHeaders, writeEnvelopeEvents } from '../pipeline/renderer.js';
import type { EmbeddingsRequest, TextRequest } from '../request/request-schemas.js';

/**
 * How a request goes through the response cache (docs/gateway.md, "Cache"). The cache sits between a surface and
 * the pipeline: it reads the request the surface made (after alias resolution), answers a hit by rendering the
 * stored envelope — or replaying its stream — through the request's own renderer, and keeps what the pipeline
 * answered. So `/v1/text` and every drop-in surface share entries, each answering in its own format.
 */

/** The header every answer of a gateway with a cache carries. */
export const CACHE_STATUS_HEADER = 'x-verdict-cache';
/** The request header that sets an entry's time to live, in seconds. */
export const CACHE_TTL_HEADER = 'x-verdict-cache-ttl';
/** The request header that names a namespace: entries of different namespaces never answer each other. */
export const CACHE_NAMESPACE_HEADER = 'x-verdict-cache-namespace';

/** Records a stream's events as the pipeline writes them, to keep the stream once it ended well. */
export interface StreamRecorder {
  /** The writer that records what passes through it on its way to `write`. */
  wrap(write: TextStreamWrite): TextStreamWrite;
}

/** The pipeline's part: serve the request, recording its stream through `recorder` when one is given. */
export type ServeUncached = (recorder: StreamRecorder | undefined) => Promise<Response>;

/** What a request asks of the cache, once its headers and route are read. */
type Plan =
  | { kind: 'bypass' }
  | { kind: 'refuse'; failure: UnifiedOutput }
  | { kind: 'use'; key: string; read: boolean; write: boolean; ttlS: number };

/** What a namespace may be: 1 to 64 letters, digits, ".", "_", ":" or "-". */
export const CACHE_NAMESPACE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/** The directives of a `cache-control` header, lowercase. */
function directivesOf(header: string | undefined): Set<string> {
  return new Set(
    (header ?? '')
      .slice(0, 1024)
      .split(',')
      .map((directive) => directive.trim().toLowerCase())
      .filter((directive) => directive !== ''),
  );
}

/**
 * A request as the cache sees it: its route, the model it names, what its key holds of it, and why it cannot be
 * cached when it cannot. Any route of {@link CACHEABLE_ROUTES} can be served through the cache with one.
 */
export interface CacheSubject {
  /** The route, whose targets the model resolves to. */
  readonly route: RouteName;
  /** The requested model (`provider:model` or an alias). */
  readonly model: string;
  /** The request without what does not change its answer (`stream`). */
  readonly keyed: unknown;
  /** Why it cannot be cached (a member the cache cannot key on), or `undefined`. */
  readonly uncacheable: string | undefined;
  /** Whether the client asked for a stream. */
  readonly stream: boolean;
}

/** A text request as the cache sees it. */
export function textCacheSubject(request: TextRequest): CacheSubject {
  return {
    route: 'text',
    model: request.model,
    keyed: keyedTextRequest(request),
    uncacheable: uncacheableTextReason(request),
    stream: request.stream === true,
  };
}

/** An embeddings request as the cache sees it: every one can be cached; none is streamed. */
export function embeddingsCacheSubject(request: EmbeddingsRequest): CacheSubject {
  return {
    route: 'embeddings',
    model: request.model,
    keyed: keyedEmbeddingsRequest(request),
    uncacheable: undefined,
    stream: false,
  };
}

/** Read the request's cache headers and route, and make its key. */
async function planRequest(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  cache: ResponseCache,
  subject: CacheSubject,
): Promise<Plan> {
  const traceId = c.get('traceId');
  const { settings } = cache;
  const ttlHeader = c.req.header(CACHE_TTL_HEADER);
  let ttlS = settings.ttlS;
  if (ttlHeader !== undefined) {
    const value = /^[0-9]{1,8}$/.test(ttlHeader.trim()) ? Number(ttlHeader.trim()) : Number.NaN;
    if (!(value >= 1 && value <= MAX_CACHE_TTL_S)) {
      return {
        kind: 'refuse',
        failure: systemFailure(
          'VALIDATION_ERROR',
          `The ${CACHE_TTL_HEADER} header must be a whole number of seconds from 1 to ${MAX_CACHE_TTL_S}.`,
          traceId,
          { header: CACHE_TTL_HEADER },
        ),
      };
    }
    ttlS = value;
  }
  const namespace = c.req.header(CACHE_NAMESPACE_HEADER);
  if (namespace !== undefined && !CACHE_NAMESPACE_PATTERN.test(namespace)) {
    return {
      kind: 'refuse',
      failure: systemFailure(
        'VALIDATION_ERROR',
        `The ${CACHE_NAMESPACE_HEADER} header must be 1 to 64 letters, digits, ".", "_", ":" or "-".`,
        traceId,
        { header: CACHE_NAMESPACE_HEADER },
      ),
    };
  }
  const directives = directivesOf(c.req.header('cache-control'));
  const read = !directives.has('no-cache');
  const write = !directives.has('no-store');
  const { route } = subject;
  if (
    (!read && !write) ||
    settings.routesOff.has(route) ||
    !(CACHEABLE_ROUTES as readonly string[]).includes(route) ||
    settings.aliases[subject.model] === false ||
    subject.uncacheable !== undefined
  ) {
    return { kind: 'bypass' };
  }
  // A model that does not resolve, or that the key may not use, is the pipeline's to refuse.
  const resolved = runtime.resolve(subject.model, route, traceId);
  if (!resolved.ok) return { kind: 'bypass' };
  const caller = c.get('caller');
  if (!allowedTargets(caller, subject.model, resolved.targets, traceId).ok) return { kind: 'bypass' };
  const key = await hashCacheKey({
    route,
    targets: resolved.targets.map((target) => target.label),
    request: subject.keyed,
    scope: settings.share === 'gateway' ? '' : (caller?.name ?? ''),
    namespace: namespace ?? '',
  });
  return { kind: 'use', key, read, write, ttlS };
}

/** Wait for an identical request in flight, no longer than the route's deadline or the client's patience. */
async function waitFor(pending: Promise<void>, timeoutMs: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([pending, gaveUp]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Serve a request through the cache: a hit is answered from the entry; otherwise the pipeline answers and a
 * success is kept. Identical requests arriving while one is answered wait for it, then read its entry (a failure
 * is not shared: each of them then calls the provider itself).
 */
export async function serveThroughCache(
  c: Context<GatewayEnv>,
  runtime: GatewayRuntime,
  subject: CacheSubject,
  serve: ServeUncached,
): Promise<Response> {
  const cache = runtime.cache;
  if (cache === undefined) return serve(undefined);
  const startedAt = performance.now();
  const facts = c.get('facts');
  const plan = await planRequest(c, runtime, cache, subject);
  if (plan.kind === 'refuse') return respond(c, plan.failure);
  if (plan.kind === 'bypass') {
    facts.cache = 'bypass';
    cache.stats.bypasses++;
    return serve(undefined);
  }
  const { key } = plan;
  if (plan.read) {
    let hit = await cache.read(key);
    const pending = hit === undefined ? cache.pending(key) : undefined;
    if (pending !== undefined) {
      cache.stats.coalesced++;
      await waitFor(pending, runtime.reliability(subject.route).timeoutMs, c.req.raw.signal);
      hit = await cache.read(key);
    }
    if (hit !== undefined) {
      cache.stats.hits++;
      return serveHit(c, cache, hit, subject.stream, startedAt);
    }
    cache.stats.misses++;
    facts.cache = 'miss';
  } else {
    cache.stats.bypasses++;
    facts.cache = 'bypass';
  }
  if (!plan.write) return serve(undefined);
  // The first of identical requests answers; the others wait for it (above). A request that skipped the read
  // does not make others wait for it when one is already answering.
  const end = plan.read || cache.pending(key) === undefined ? cache.begin(key) : () => undefined;
  const recorder = createRecorder(cache.settings.maxEntryBytes);
  let response: Response;
  try {
    response = await serve(subject.stream ? recorder : undefined);
  } catch (error) {
    end();
    throw error;
  }
  onAnswerEnd(facts, () => {
    const envelope = facts.envelope;
    const streamed = recorder.opened;
    const complete = !streamed || (recorder.complete && !recorder.tooLarge);
    if (envelope?.success !== true || facts.clientClosed === true || !complete) {
      if (recorder.tooLarge) cache.stats.tooLarge++;
      end();
      return;
    }
    const answer: CachedAnswer = streamed ? { envelope, events: recorder.events } : { envelope };
    cache.write(key, answer, plan.ttlS).then(end, end);
  });
  return response;
}

/**
 * A recorder of a stream's events; `complete` once the final envelope was written. It stops recording once the
 * events alone are larger than an entry may be (`tooLarge`), so a long stream costs no more memory than that.
 */
function createRecorder(maxBytes: number): StreamRecorder & {
  events: CachedEvent[];
  opened: boolean;
  complete: boolean;
  tooLarge: boolean;
} {
  let bytes = 0;
  const recorder = {
    events: [] as CachedEvent[],
    opened: false,
    complete: false,
    tooLarge: false,
    wrap(write: TextStreamWrite): TextStreamWrite {
      recorder.opened = true;
      return (event, data) => {
        if (event === 'envelope') {
          recorder.complete = true;
        } else if (!recorder.tooLarge) {
          // The JSON's length in UTF-16 units is at most its UTF-8 length: an estimate that never overcounts.
          bytes += event.length + (JSON.stringify(data)?.length ?? 0);
          if (bytes > maxBytes) {
            recorder.tooLarge = true;
            recorder.events = [];
          } else {
            recorder.events.push({ event, data });
          }
        }
        return write(event, data);
      };
    },
  };
  return recorder;
}

/** The events a stream replays: the recorded ones, or those of a plain answer (its text, then its tool calls). */
function replayedEvents(answer: CachedAnswer): readonly CachedEvent[] {
  if (answer.events !== undefined) return answer.events;
  const { envelope } = answer;
  const events: CachedEvent[] =
    envelope.content === '' ? [] : [{ event: 'delta', data: { text: envelope.content } }];
  const calls = Array.isArray(envelope.metadata.tool_calls) ? envelope.metadata.tool_calls : [];
  for (const call of calls as { id?: unknown; name?: unknown; arguments?: unknown }[]) {
    events.push({ event: 'tool_call_start', data: { id: call.id, name: call.name } });
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    events.push({ event: 'tool_call_delta', data: { id: call.id, arguments: args } });
  }
  return events;
}

/**
 * Answer a hit: the stored envelope under this request's trace id, saying it is a hit (`metadata.cache`: the
 * original trace id and the entry's age), with no provider attempt; streamed when the request asks for a stream.
 * Its usage record counts no tokens: no provider was paid for it.
 */
function serveHit(
  c: Context<GatewayEnv>,
  cache: ResponseCache,
  hit: CacheHit,
  stream: boolean,
  startedAt: number,
): Response {
  const traceId = c.get('traceId');
  const facts = c.get('facts');
  const stored = hit.answer.envelope;
  // A hit costs nothing: the original answer's cost, when the envelope says it, is what the hit saved.
  const { cost, ...metadata } = stored.metadata;
  const draft: UnifiedSuccess = {
    ...stored,
    metadata: {
      ...metadata,
      trace_id: traceId,
      latency_ms: Math.round(performance.now() - startedAt),
      attempts: 0,
      cache: {
        status: 'hit',
        trace_id: stored.metadata.trace_id,
        age_s: cache.ageS(hit.storedAt),
        ...(cost === undefined ? {} : { cost_saved: cost }),
      },
    },
  };
  const noteHit = () => {
    facts.cache = 'hit';
    facts.attempts = 0;
    facts.usage = { input_tokens: 0, output_tokens: 0 };
    if (typeof cost?.usd === 'number') facts.costSavedUsd = cost.usd;
    if (typeof stored.metadata.target === 'string') facts.target = stored.metadata.target;
  };
  const headers = { [CACHE_STATUS_HEADER]: 'hit' };
  if (!stream) {
    const response = respond(c, draft, headers);
    noteHit();
    return response;
  }
  const built = buildEnvelope(draft, undefined, c.get('redactor'));
  noteEnvelope(facts, built);
  noteHit();
  const renderer = c.get('renderer') ?? ENVELOPE_RENDERER;
  const events = createEventStream(() => undefined);
  const write = (renderer.openStream ?? writeEnvelopeEvents)(events, traceId);
  let finished!: () => void;
  facts.pending = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const replay = async () => {
    for (const event of replayedEvents(hit.answer)) await write(event.event, event.data);
    await write('envelope', built);
  };
  replay()
    .catch((error: unknown) => console.error(error))
    .finally(() => {
      events.close();
      finished();
    });
  return c.newResponse(events.body, 200, {
    ...EVENT_STREAM_HEADERS,
    ...surfaceHeaders(renderer, traceId, headers),
  });
}
