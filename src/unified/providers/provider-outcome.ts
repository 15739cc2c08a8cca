import { isJsonObject } from '../../contract/findings.js';
import { codeForProviderStatus, type UnifiedErrorCode } from '../error-taxonomy.js';
import { readBody } from '../read-body.js';
import type { MediaItem } from '../types.js';

export type { UnifiedErrorCode };
/** The taxonomy's code type and the status mapping, re-exported so that every provider parser imports from here. */
export { codeForProviderStatus };

/** Token counts a provider reported, with its breakdown. */
export interface ReportedUsage {
  /** All input tokens, cached included. */
  input: number;
  /** All output tokens, reasoning included. */
  output: number;
  /** The breakdown that goes to `metadata.usage_details`. */
  details: Record<string, number>;
}

/** What a provider parser found in a body that succeeded. */
export interface SuccessOutcome {
  /** Discriminant. */
  kind: 'success';
  /** The primary human-readable output. */
  content: string;
  /** Token counts, absent when the provider reported none. */
  usage?: ReportedUsage | undefined;
  /** Produced media, in the provider's order; the registry sorts them into the modality arrays. */
  media?: MediaItem[];
  /** Provider facts for `metadata`. */
  metadata?: Record<string, unknown>;
}

/** What a provider parser found in a body that failed (an HTTP error, a refusal, a failed job). */
export interface FailureOutcome {
  /** Discriminant. */
  kind: 'failure';
  /** The taxonomy code. */
  code: UnifiedErrorCode;
  /** A sentence for people, usually the provider's own. */
  message: string;
  /** Facts for `error.details` (HTTP status, provider code and type, the raw provider error). */
  details?: Record<string, unknown>;
  /** Provider facts for `metadata`. */
  metadata?: Record<string, unknown>;
}

/** The result of parsing one provider body. */
export type Outcome = SuccessOutcome | FailureOutcome;

/** Thrown by parsers for a body they cannot understand; the registry turns it into `INVALID_PROVIDER_RESPONSE`. */
export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}

/**
 * Thrown by stream assemblers when a stream ends without its end-of-answer event (the connection closed
 * mid-answer): `INVALID_PROVIDER_RESPONSE` with `details.reason: "no_end_of_answer"`, worth another attempt
 * (docs/unified.md, "Streams").
 */
export class StreamCutError extends ShapeError {
  constructor(message: string) {
    super(message);
    this.name = 'StreamCutError';
  }
}

/** A plain JSON object. */
export type Json = Record<string, unknown>;

/**
 * The most parts (content blocks, tool calls) one streamed answer may number: a stream event names its part by
 * index, and an index past this is refused rather than followed into a sparse array of that length.
 */
export const MAX_STREAM_PARTS = 10_000;

/**
 * The part a stream event names by `index`: `fallback` when the event names none, a {@link ShapeError} when the
 * index is not a whole number from 0 to {@link MAX_STREAM_PARTS} (a negative or huge index would lose the part or
 * walk a sparse array that long).
 */
export function streamIndex(value: unknown, fallback: number, what: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= MAX_STREAM_PARTS)
    throw new ShapeError(`${what} is not an index from 0 to ${MAX_STREAM_PARTS - 1}.`);
  return value;
}

/** The value as an object, or a {@link ShapeError} naming what was expected. */
export function expectObject(value: unknown, what: string): Json {
  if (!isJsonObject(value)) throw new ShapeError(`${what} is not an object.`);
  return value;
}

/** The value as an array, or a {@link ShapeError}. */
export function expectArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${what} is not an array.`);
  return value;
}

/** A string member, `undefined` when absent or null, a {@link ShapeError} when it has another type. */
export function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ShapeError(`${what} is not a string.`);
  return value;
}

/**
 * An optional label of the answer (a model name, a response id): like {@link optionalString}, but an empty or blank
 * string reads as absent, because OpenAI-compatible servers send `"model": ""` or `"id": ""` as placeholders.
 */
export function optionalLabel(value: unknown, what: string): string | undefined {
  const text = optionalString(value, what);
  return text === undefined || text.trim() === '' ? undefined : text;
}

/** A token count: `undefined` when absent or null, a {@link ShapeError} when not a non-negative integer. */
export function tokenCount(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ShapeError(`${what} is not a non-negative integer.`);
  }
  return value;
}

/**
 * The text of an answer made of content blocks, in order: `undefined` stands for a block that is not text (a tool
 * call, a search result). Adjacent text blocks continue one another (a cited answer is split into several);
 * text blocks that another block separates become paragraphs of their own, joined by a blank line.
 */
export function joinTextBlocks(segments: readonly (string | undefined)[]): string {
  let text = '';
  let separated = false;
  for (const segment of segments) {
    if (segment === undefined) {
      separated = true;
      continue;
    }
    if (separated && text !== '' && segment !== '') text += '\n\n';
    text += segment;
    separated = false;
  }
  return text;
}

// Wording providers use for prompts over the context window (OpenAI, Anthropic, Gemini, OpenAI-compatible servers).
const CONTEXT_LENGTH_WORDING =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds the maximum number of tokens/i;

/** True when an error message or code says the prompt exceeded the context window. */
export function saysContextLength(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => text !== undefined && CONTEXT_LENGTH_WORDING.test(text));
}

/**
 * Wording that tells what an error means when its status and kind say less: providers that answer a billing or
 * key problem with a plain 400 (Anthropic's "credit balance is too low", xAI's "Incorrect API key provided",
 * Gemini's "API key not valid" and "User location is not supported"), or a 403 that is about credits (xAI).
 * Checked in order; only a `VALIDATION_ERROR` or `PERMISSION_DENIED` is refined (see docs/providers.md).
 */
const MEANING_WORDING: readonly (readonly [RegExp, UnifiedErrorCode])[] = [
  [
    /credit balance is too low|insufficient (account )?balance|(doesn't|does not|don't|do not) have (any|enough) credits|out of credits|purchase (more )?credits|reached your specified (api )?usage limits?/i,
    'INSUFFICIENT_CREDITS',
  ],
  [
    /\b(incorrect|invalid|expired) api key\b|\bapi key (is )?(not valid|invalid|expired)\b/i,
    'AUTHENTICATION_ERROR',
  ],
  [
    /user location is not supported|not (available|supported) in your (country|region|territory)|organization has been disabled|account (has been|is) (deactivated|disabled|suspended)/i,
    'PERMISSION_DENIED',
  ],
  // Imagen and Gemini refuse prompts against their Responsible AI rules with a 400 INVALID_ARGUMENT.
  [/responsible ai practices/i, 'CONTENT_FILTERED'],
];

/** The code an error message means when its status hides it, for a code that wording may refine. */
function refineByWording(code: UnifiedErrorCode, message: string): UnifiedErrorCode {
  if (code === 'VALIDATION_ERROR' && saysContextLength(message)) return 'CONTEXT_LENGTH_EXCEEDED';
  if (code !== 'VALIDATION_ERROR' && code !== 'PERMISSION_DENIED') return code;
  const meant = MEANING_WORDING.find(([wording]) => wording.test(message))?.[1];
  return meant === undefined || meant === code ? code : meant;
}

/**
 * A failure outcome for a provider error: `code` when the provider's own error kind decided it, else the HTTP
 * status decides (an error that arrived with a 2xx status, in a body or a stream, is a `PROVIDER_ERROR`); a
 * `VALIDATION_ERROR` or `PERMISSION_DENIED` is refined by the wording of its message (context length, credits,
 * API key, location).
 */
export function failureForStatus(
  status: number,
  message: string,
  details: Record<string, unknown>,
  code: UnifiedErrorCode = status >= 400 ? codeForProviderStatus(status) : 'PROVIDER_ERROR',
): FailureOutcome {
  return {
    kind: 'failure',
    code: refineByWording(code, message),
    message: message.trim() === '' ? `The provider answered with HTTP ${status}.` : message,
    details: { http_status: status, ...details },
  };
}

/** A `CONTENT_FILTERED` failure outcome, keeping the metadata found so far and marking the content-filter finish. */
export function contentFiltered(
  message: string,
  details: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): FailureOutcome {
  return {
    kind: 'failure',
    code: 'CONTENT_FILTERED',
    message,
    details,
    metadata: { ...metadata, finish_reason: 'content_filter' },
  };
}

/**
 * The HTTP status an error stands for: the response's own, or, for an error that arrived in a 2xx body or a
 * stream, the HTTP status the error carries itself — a numeric `code` (OpenRouter, Gemini) or `status_code`
 * (Groq's stream errors), on the error object or on the event around it.
 */
export function embeddedStatus(status: number, error: Json, event?: Json): number {
  if (status >= 400) return status;
  const carried = [error.code, error.status_code, event?.status_code].find(
    (value): value is number =>
      typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599,
  );
  return carried ?? status;
}

/** The error object of a provider error body (`{ error: { … } }`), or an empty object. */
export function errorObject(body: unknown): Json {
  return isJsonObject(body) && isJsonObject(body.error) ? body.error : {};
}

/** The message of a provider error object, else the start of the raw body text. */
export function errorMessage(error: Json, text: string): string {
  return typeof error.message === 'string' ? error.message : bodySnippet(text);
}

/** Text of a non-JSON body, shortened for an error message. */
export function bodySnippet(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}

/** The input of a tool call that a stream sent in pieces, joined: JSON, or `{}` when no piece came. */
export function parseStreamedToolInput(json: string, block: string): unknown {
  if (json === '') return {};
  const read = readBody(json);
  if (!read.ok) throw new ShapeError(`A ${block} block streamed input that is not JSON.`);
  return read.value;
}
