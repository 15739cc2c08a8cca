import type { UnifiedErrorCode } from '../error-taxonomy.js';
import type { HeadersLike } from '../header-value.js';
import type { FailureOutcome, Outcome } from './provider-outcome.js';

/** What a parser may look at besides the body. */
export interface ParseContext {
  /** The provider's HTTP status. */
  status: number;
  /** The provider's response headers. */
  headers: HeadersLike | undefined;
}

/** A stream folded into the body of the equivalent non-streaming response, or the failure it ended in. */
export type StreamAssembly = { kind: 'body'; body: unknown } | FailureOutcome;

/** How one wire format is read: one entry of the registry in `normalize-response.ts`. */
export interface FormatSpec {
  /** Normalized provider id of the envelopes. */
  provider: string;
  /**
   * The AI SDK provider ids (a model's `provider`, such as `openai.chat`) whose calls speak this format, so that
   * an error of the live path is read by this format's parsers (see docs/unified.md, "Formats"). `*.chat`
   * stands for any provider name before the dot (a provider package created with its own `name`).
   */
  aiSdkProviders?: readonly string[];
  /**
   * The provider's own finish reasons that mean its filter blocked the answer, for the live path, where the AI SDK
   * maps the ones it does not know (Vertex's `MODEL_ARMOR`, say) to `other`.
   */
  blockingFinishReasons?: ReadonlySet<string>;
  /**
   * Answers the provider package reads and then throws as a plain `Error` (no status, no body), known by the
   * start of the message, with the code each stands for: on the live path nothing else tells them apart from a
   * bug.
   */
  thrownMessages?: readonly { readonly startsWith: string; readonly code: UnifiedErrorCode }[];
  /** Response headers that carry the provider's own request id, in order of preference. */
  requestIdHeaders: readonly string[];
  /** True when a successful body is bytes (speech) rather than JSON. */
  binaryBody?: boolean;
  /** Parse a 2xx body (JSON value, or bytes when {@link binaryBody}). */
  parseSuccess(body: unknown, context: ParseContext): Outcome;
  /**
   * Parse an error body (JSON value, or `undefined` when it was not JSON) sent with an HTTP error status; the
   * headers are there for providers that name the error in one (Bedrock's `x-amzn-errortype`).
   */
  parseError(body: unknown, status: number, text: string, headers?: HeadersLike): FailureOutcome;
  /** Parse a 2xx body that is text but not JSON (plain-text transcriptions); absent means such a body is invalid. */
  parseText?(text: string, context: ParseContext): Outcome;
  /** Fold stream events (parsed JSON values) into a final body; absent means the format does not stream. */
  assembleStream?(events: readonly unknown[]): StreamAssembly;
  /**
   * The failure one stream error event stands for, read as {@link assembleStream} reads it. Takes the event, or
   * the error object inside it (what an AI SDK provider package passes on in its error part); `undefined` when
   * the value is not an error event of this format.
   */
  parseStreamError?(event: unknown): FailureOutcome | undefined;
  /**
   * Decode a stream captured in a binary framing (the AWS event-stream of Bedrock's ConverseStream) into the
   * events {@link assembleStream} takes; throws `ShapeError` on a damaged capture. Absent: streams are text.
   */
  decodeBinaryStream?(bytes: Uint8Array): unknown[];
  /** True when bytes are in the binary framing of {@link decodeBinaryStream} (rather than text). */
  isBinaryStream?(bytes: Uint8Array): boolean;
}
