import type { HeadersLike } from '../../unified/header-value.js';
import type { UnifiedFormat } from '../../unified/normalize-response.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { JsonObject } from '../basics/json-value.js';
import type { ProviderType } from '../config/config.js';
import type { TextRequest } from '../request/request-schemas.js';

/**
 * A native wire format: how the gateway speaks one provider API itself, without the AI SDK (docs/design.md,
 * "Native wire formats"). A format turns verdict's request model (the text request of `/v1/text`, which the
 * drop-in surfaces produce too) into the provider's HTTP request, and reads the provider's answer, plain or
 * streamed, through the normalizers `verdict normalize` runs, so that the live and the offline meaning of the
 * same bytes are one code path. Everything about sending (keys, bounds, redirects, retries, timeouts) stays
 * with the provider fetch and the call loop; a format is pure: values in, values out.
 */
export interface WireFormat {
  /** The normalizer format its answers are read with (`openai.chat`, `anthropic.messages`…). */
  readonly format: UnifiedFormat;
  /** The provider request for a text request the request model accepted for this target. */
  buildRequest(request: TextRequest, target: WireTarget): WireRequestBuild;
  /** The envelope of a plain (unstreamed) answer: the normalizer's reading of its status, headers and body. */
  readAnswer(answer: WireAnswer, context: WireReadContext): UnifiedOutput;
  /** A reader of a streamed answer, fed its bytes as they arrive (see {@link WireStreamReader}). */
  openStream(context: WireReadContext): WireStreamReader;
}

/** The target a request is built for. */
export interface WireTarget {
  /** The configured provider id (`groq`, `my-openai`), the envelope's `provider`. */
  readonly provider: string;
  /** The provider type it was configured with. */
  readonly type: ProviderType;
  /** The model id at that provider. */
  readonly modelId: string;
}

/** One provider request, before the provider's base URL, key and the gateway's own headers are added. */
export interface WireRequest {
  /** The path below the provider's base URL, starting with `/` (`/chat/completions`, `/messages`). */
  readonly path: string;
  /** Headers the format itself needs (`anthropic-version`), never a key. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: JsonObject;
  /** True when the answer is asked for as server-sent events. */
  readonly stream: boolean;
}

/**
 * The request for one target, or why this request goes through the AI SDK instead (a member whose meaning is the
 * SDK's own, such as `provider_options`). Refusals are not decided here: the request model refuses what a
 * target cannot take before any format builds anything.
 */
export type WireRequestBuild = { ok: true; request: WireRequest } | { ok: false; reason: string };

/** A provider's plain answer as received. */
export interface WireAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: HeadersLike;
  /** The body as received: bytes or text. */
  readonly body: Uint8Array | string;
}

/** The facts of one call that reading its answer needs besides the bytes. */
export interface WireReadContext {
  /** The configured provider id, reported as the envelope's `provider`. */
  readonly provider: string;
  /** The trace id of the incoming request. */
  readonly traceId: string;
  /** The provider's HTTP status (of a stream: of its response head). */
  readonly status: number;
  /** The provider's response headers. */
  readonly headers: HeadersLike;
  /** Wall time of the call in milliseconds, when known at the end. */
  readonly latencyMs?: number | undefined;
}

/**
 * What the client hears of a stream while it runs: text, reasoning text, and tool calls as they start and as
 * their arguments arrive. The complete answer is the {@link WireStreamReader.end} envelope, never the sum of
 * the deltas.
 */
export type WireDelta =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool_call_start'; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly id: string; readonly arguments: string };

/**
 * An incremental reader of one streamed answer. Bytes go in as the network gives them, in any chunking; the
 * deltas come out as soon as their event is complete; {@link end} folds every event into the same envelope that
 * `normalizeStream` makes of the whole capture. A stream that ends without its end-of-answer signal is
 * `INVALID_PROVIDER_RESPONSE` with `details.reason: "no_end_of_answer"` (docs/unified.md, "Streams").
 */
export interface WireStreamReader {
  /** Reads the next bytes (or text) of the stream; returns the deltas of the events they complete. */
  push(chunk: Uint8Array | string): WireDelta[];
  /**
   * The failure of the first error event read so far, as the normalizer reads it, or `undefined`. Before the
   * first delta it lets the call loop retry or fall back; after it, the stream is committed and {@link end}
   * reports the failure.
   */
  failure(): UnifiedOutput | undefined;
  /** The stream is over (the connection closed): the envelope of the whole answer. */
  end(): UnifiedOutput;
}

/**
 * The deltas of one stream event, for a format's {@link WireStreamReader}: a stateful function (tool calls are
 * tied to their ids by index across events), made once per stream.
 */
export type WireEventDeltas = (event: unknown) => WireDelta[];
