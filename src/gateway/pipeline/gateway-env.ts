import type { Context } from 'hono';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedErrorCode } from '../../unified/error-taxonomy.js';
import { responseOfValid } from '../../unified/to-http-response.js';
import type { UnifiedCost, UnifiedOutput } from '../../unified/types.js';
import type { ModelOf } from '../ai-sdk/model-types.js';
import type { Redactor } from '../basics/redact-secrets.js';
import type { Modality } from '../basics/route-table.js';
import type { StopNotice } from '../basics/stop-notice.js';
import type { CacheStatus, ResponseCache } from '../cache/response-cache.js';
import type { RouteName } from '../config/config.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { RequestTelemetry } from '../observability/request-telemetry.js';
import type { ProviderModels } from '../providers/providers.js';
import { costHeaders } from '../spend/cost-header.js';
import type { PriceBook } from '../spend/price-book.js';
import type { KeyRecord } from '../store/keys.js';
import type { NativeTransport } from '../wire/call-native.js';
import { buildEnvelope, type CallFacts } from './build-envelope.js';
import type { Reliability, Target } from './call-with-fallbacks.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';
import type { Renderer, SurfaceName } from './renderer.js';

// What the gateway's routes and middleware share with the app that assembles them (create-gateway.ts): the
// request's variables, the runtime, and the one way an envelope is answered. Routes import this module, never
// the assembler, so that the gateway's import graph has no cycle (docs/design.md, "The gateway's layout").

/** Facts about one request, gathered for its log line and the metrics. */
export interface RequestFacts {
  /** The route template, or `other`. */
  route: string;
  /** The envelope's provider. */
  provider?: string;
  /** The model that answered, as the provider named it. */
  model?: string;
  /** The `provider:model` target that answered. */
  target?: string;
  /** Provider requests made. */
  attempts: number;
  /** `ok`, or the failure's code. */
  code?: string;
  /**
   * The tokens the request is charged for, whatever its outcome (set by {@link noteCharge}): what the provider
   * reported, or an estimate when it reported nothing before the answer ended.
   */
  usage?: { input_tokens: number; output_tokens: number };
  /** What the call cost, as its envelope says (`metadata.cost`). */
  cost?: UnifiedCost;
  /** The request body, kept only when content logging is on. */
  input?: unknown;
  /** The output text, kept only when content logging is on. */
  content?: string;
  /** Set by streamed answers: the log line and metrics wait for the end of the stream. */
  pending?: Promise<void>;
  /** Set when the client went away before its answer: counted as `client_closed`, not as a failure of ours. */
  clientClosed?: boolean;
  /** The name of the key that was accepted (with a store). */
  key?: string;
  /** The envelope answered, for the request's spans (docs/gateway.md, "OpenTelemetry"). */
  envelope?: UnifiedOutput;
  /** The client surface that answered (`verdict` unless a drop-in surface's route did). */
  surface?: SurfaceName;
  /** Bytes of the request body, once read: a bound on its input tokens. */
  bodyBytes?: number;
  /** What the response cache did, when the gateway has one (docs/gateway.md, "Cache"). */
  cache?: CacheStatus;
  /** Dollars a cache hit saved: what the answer it replays cost when it was made. */
  costSavedUsd?: number;
}

/** Who is calling: the admin key, a static key, or a stored key with its limits. */
export interface Caller {
  /** `admin`, `static`, or the stored key's name. */
  name: string;
  /** Where the key comes from. */
  kind: 'admin' | 'static' | 'stored';
  /** The stored key's record. */
  key?: KeyRecord | undefined;
}

/** The dollar budget of the calling key (with a store; docs/gateway.md, "Budgets in dollars"). */
export interface SpendGate {
  /** Reserve a call's worst case for at most `ttlMs`: `undefined` when it fits, else the answer to give. */
  reserve(usd: number, ttlMs: number): Promise<Response | undefined>;
}

/** Hono's variables in a gateway request. */
export interface GatewayEnv {
  /** The request's trace id and the facts gathered for its log line. */
  Variables: {
    traceId: string;
    facts: RequestFacts;
    /** Removes provider and gateway keys from what is answered and logged. */
    redactor: Redactor;
    /** The key that was accepted, with its limits (with a store). */
    caller?: Caller | undefined;
    /** The request's spans, when OpenTelemetry is on. */
    telemetry?: RequestTelemetry | undefined;
    /** How answers are written: verdict's envelopes unless a drop-in surface set its own (docs/gateway.md). */
    renderer?: Renderer | undefined;
    /** Set when the key has a dollar budget: the call's reservation is made through it. */
    spend?: SpendGate | undefined;
  };
}

/** What the routes share: resolved providers, limits and the metrics. */
export interface GatewayRuntime {
  /** Providers by id. */
  readonly providers: ReadonlyMap<string, ProviderModels>;
  /** The native transports of the providers spoken to natively, by provider id (docs/design.md). */
  readonly natives: ReadonlyMap<string, NativeTransport>;
  /** Aliases by name, each a list of targets. */
  readonly aliases: Readonly<Record<string, string[]>>;
  /** Retry and deadline settings of a route. */
  reliability(route: RouteName): Reliability;
  /** Largest request body of a route. */
  maxBodyBytes(route: RouteName): number;
  /** The concurrency limit shared by the provider routes. */
  readonly limit: ConcurrencyLimit;
  /** The metrics of this instance. */
  readonly metrics: GatewayMetrics;
  /** Log prompts and outputs. */
  readonly logContent: boolean;
  /** Milliseconds between two status checks of a video job. */
  readonly videoPollMs: number;
  /** The prices calls are priced with: the configuration's over the bundled table. */
  readonly prices: PriceBook;
  /** Aborted when the graceful stop's grace period ends: requests still running are answered as stopped. */
  readonly stopSignal: StopNotice;
  /** Longest wait for a request's body, in milliseconds. */
  readonly bodyTimeoutMs: number;
  /** The response cache, when it is on (docs/gateway.md, "Cache"). */
  readonly cache?: ResponseCache | undefined;
  /** Targets of a requested model for a modality, or the failure to answer. */
  resolve<K extends Modality>(
    model: string,
    modality: K,
    traceId: string,
  ): { ok: true; targets: Target<ModelOf<K>>[] } | { ok: false; failure: UnifiedOutput };
}

/** Longest model id a request may name, in characters (docs/gateway.md, "Bounds"). */
export const MAX_MODEL_ID_LENGTH = 256;

/** A failure from the gateway itself (`provider: "system"`). */
export function systemFailure(
  code: UnifiedErrorCode,
  message: string,
  traceId: string,
  details: Record<string, unknown> = {},
): UnifiedOutput {
  return assembleFailure('system', code, message, details, { trace_id: traceId });
}

/** A success from the gateway itself (`provider: "system"`, no usage), its facts in `metadata`. */
export function systemSuccess(
  content: string,
  traceId: string,
  metadata: Record<string, unknown>,
): UnifiedOutput {
  return {
    success: true,
    content,
    provider: 'system',
    usage: { input_tokens: 0, output_tokens: 0 },
    metadata: { trace_id: traceId, usage_reported: false, ...metadata },
    images: [],
    files: [],
    videos: [],
  };
}

/**
 * Answer a draft envelope: built once with the call's facts when given (`buildEnvelope`: redacted, validated,
 * an invalid one becomes `INTERNAL_ERROR`), status from its code, the trace id in `x-trace-id`, and its facts
 * kept for the log line. The request's renderer writes it: the envelope itself, or a drop-in surface's answer
 * made from it.
 */
export function respond(
  c: Context<GatewayEnv>,
  draft: UnifiedOutput,
  headers?: Record<string, string>,
  call?: CallFacts,
): Response {
  const envelope = buildEnvelope(draft, call, c.get('redactor'));
  noteEnvelope(c.get('facts'), envelope);
  const cost = envelope.metadata.cost;
  if (cost !== undefined) headers = { ...headers, ...costHeaders(cost) };
  // A failure that says how long to wait (the provider's retry-after, or the gateway's own) also says it in
  // the header clients back off by.
  const wait = envelope.success ? undefined : envelope.error.details.retry_after_s;
  const withWait =
    typeof wait === 'number' && headers?.['retry-after'] === undefined
      ? { ...headers, 'retry-after': String(wait) }
      : headers;
  const renderer = c.get('renderer');
  if (renderer === undefined)
    return responseOfValid(envelope, withWait === undefined ? undefined : { headers: withWait });
  return renderer.render(envelope, withWait ?? {});
}

/**
 * Run `done` once the request's answer has ended: now, or when its stream ends (`facts.pending`). Callbacks
 * run in the order they were given, so an inner middleware's bookkeeping comes before an outer one's.
 */
export function onAnswerEnd(facts: RequestFacts | undefined, done: () => void): void {
  if (facts?.pending === undefined) done();
  else facts.pending.then(done, done);
}

/** Keep an envelope's facts (code, provider, model, usage) for the log line and the metrics. */
export function noteEnvelope(facts: RequestFacts | undefined, envelope: UnifiedOutput): void {
  if (facts === undefined) return;
  facts.provider = envelope.provider;
  facts.envelope = envelope;
  facts.code = envelope.success ? 'ok' : envelope.error.code;
  const model = envelope.metadata.model;
  if (typeof model === 'string') facts.model = model;
  if (envelope.success && facts.usage === undefined) noteCharge(facts, envelope.usage);
  if (envelope.metadata.cost !== undefined) facts.cost = envelope.metadata.cost;
}

/** Characters per token when the gateway estimates tokens it was not told about (docs/gateway.md, "Limits"). */
export const CHARACTERS_PER_TOKEN = 4;

/** Tokens of `characters` characters of text, estimated at {@link CHARACTERS_PER_TOKEN}, rounded up. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/**
 * Settle the tokens a request is charged for: the one place an answer's tokens are decided, read by the usage
 * record, the tpm and budget counters (docs/gateway.md, "Limits"). Called with what the provider reported as
 * soon as it is known — before a structured-output check may turn the answer into a failure — or with an
 * estimate for a stream that ended without a report (the client went away, the provider failed mid-way).
 */
export function noteCharge(
  facts: RequestFacts | undefined,
  tokens: { input_tokens: number; output_tokens: number },
): void {
  if (facts === undefined) return;
  facts.usage = { input_tokens: tokens.input_tokens, output_tokens: tokens.output_tokens };
}
