import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { codeForProviderStatus, type UnifiedErrorCode } from '../error-taxonomy.js';
import type { MediaItem } from '../types.js';

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

/** A plain JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain object. */
export function isJson(value: unknown): value is Json {
  return isJsonObject(value);
}

/** The value as an object, or a {@link ShapeError} naming what was expected. */
export function expectObject(value: unknown, what: string): Json {
  if (!isJson(value)) throw new ShapeError(`${what} is not an object.`);
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

/** A token count: `undefined` when absent or null, a {@link ShapeError} when not a non-negative integer. */
export function tokenCount(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ShapeError(`${what} is not a non-negative integer.`);
  }
  return value;
}

/** A usage breakdown without the members the provider did not report. */
export function usageDetails(entries: Record<string, number | undefined>): Record<string, number> {
  return omitUndefined(entries);
}

/** A metadata object without `undefined` members. */
export function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return omitUndefined(entries);
}

// Wording providers use for prompts over the context window (OpenAI, Anthropic, Gemini, OpenAI-compatible servers).
const CONTEXT_LENGTH_WORDING =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds the maximum number of tokens/i;

/** True when an error message or code says the prompt exceeded the context window. */
export function saysContextLength(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => text !== undefined && CONTEXT_LENGTH_WORDING.test(text));
}

/**
 * A failure outcome for a provider error: `code` when the provider's own error kind decided it, else the HTTP
 * status decides (an error that arrived with a 2xx status, in a body or a stream, is a `PROVIDER_ERROR`); a
 * `VALIDATION_ERROR` is refined by the context-length wording of its message.
 */
export function failureForStatus(
  status: number,
  message: string,
  details: Record<string, unknown>,
  code: UnifiedErrorCode = status >= 400 ? codeForProviderStatus(status) : 'PROVIDER_ERROR',
): FailureOutcome {
  const refined =
    code === 'VALIDATION_ERROR' && saysContextLength(message) ? 'CONTEXT_LENGTH_EXCEEDED' : code;
  return {
    kind: 'failure',
    code: refined,
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
 * stream, the HTTP status the error object carries in a numeric `code` (OpenRouter, Gemini) when it has one.
 */
export function embeddedStatus(status: number, error: Json): number {
  const code = error.code;
  return status < 400 && typeof code === 'number' && code >= 400 && code <= 599 ? code : status;
}

/** The error object of a provider error body (`{ error: { … } }`), or an empty object. */
export function errorObject(body: unknown): Json {
  return isJson(body) && isJson(body.error) ? body.error : {};
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
