import type { JSONSchema7, JSONValue } from 'ai';
import { isJsonObject } from '../../contract/findings.js';

/**
 * Type guards for the JSON values a request carries into the AI SDK (tool results, JSON Schemas, provider
 * options, a video job's operation). The bodies were read by the strict JSON reader, so the guards hold for
 * every value they see; they let the AI SDK's own types (`JSONValue`, `JSONSchema7`) reach the calls without
 * a cast.
 */

/** A JSON object, as the AI SDK types one (`JSONObject`). */
export type JsonObject = Exclude<Extract<JSONValue, object>, readonly JSONValue[]>;

/** Deepest nesting checked: deeper than any body the gateway reads (its request depth limit is 64). */
const MAX_DEPTH = 128;

/** True when `value` is JSON: null, a boolean, a finite number, a string, or arrays and objects of them. */
export function isJsonValue(value: unknown, depth = 0): value is JSONValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (depth >= MAX_DEPTH || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  return Object.values(value).every((item) => item === undefined || isJsonValue(item, depth + 1));
}

/** True when `value` is a JSON object (not an array). */
export function isJsonObjectValue(value: unknown): value is JsonObject {
  return isJsonObject(value) && isJsonValue(value);
}

/**
 * True when `value` is a JSON object, which is what a JSON Schema of a tool or an answer is here: its keywords
 * are checked by the provider (and, for answers, by `z.fromJSONSchema`), not by this guard.
 */
export function isJsonSchema(value: unknown): value is JSONSchema7 {
  return isJsonObjectValue(value);
}
