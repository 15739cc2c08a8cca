import { VerdictError } from '../contract/errors.js';
import { locate } from './locate.js';
import { scanJson, skipWhitespace } from './scan-json.js';
import type { DuplicateMember, ReadError, ReadJsonResult, ReadOptions, ReadWarning } from './types.js';
import { DEFAULT_MAX_DEPTH } from './types.js';
import { decodeUtf8, findLoneSurrogate, utf8Length } from './utf8.js';

/**
 * Reads one strict JSON document (SPEC §1 "Strict JSON reading"): UTF-8 only, exactly one value, a depth
 * limit, duplicate member names reported, and every failure returned as data with its position.
 *
 * @example
 * ```ts
 * const read = readJson('{"success": true, "success": false}');
 * // read.ok === true, read.value → { success: false }, read.duplicates → [{ path: '', key: 'success' }]
 * ```
 */
export function readJson(input: string | Uint8Array, options: ReadOptions = {}): ReadJsonResult {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxBytes = options.maxBytes;
  checkLimit('maxDepth', maxDepth);
  if (maxBytes !== undefined) checkLimit('maxBytes', maxBytes);

  const fromBytes = typeof input !== 'string';
  const size = fromBytes ? input.byteLength : input.length;
  if (maxBytes !== undefined && size > maxBytes) {
    return failure({
      reason: 'too_large',
      message: `The input is ${size} bytes, more than the limit of ${maxBytes}.`,
    });
  }

  let text: string;
  if (fromBytes) {
    const decoded = decodeUtf8(input);
    if (!decoded.ok) return failure({ reason: 'not_utf8', message: decoded.message, offset: decoded.offset });
    text = decoded.text;
  } else {
    text = input;
    if (!isWellFormed(text)) {
      const offset = findLoneSurrogate(text);
      return failure({
        reason: 'not_utf8',
        message: `The input has an unpaired surrogate at index ${offset}, which no UTF-8 text can contain.`,
        offset,
      });
    }
  }

  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const warnings: ReadWarning[] =
    start === 0
      ? []
      : [{ code: 'utf8_bom', path: '', message: 'The input starts with a UTF-8 byte order mark.' }];

  let value: unknown;
  try {
    // V8's JSON.parse is iterative, so even nesting far beyond maxDepth cannot overflow the stack here.
    value = JSON.parse(start === 0 ? text : text.slice(start));
  } catch {
    return readFailure(text, start, maxDepth, fromBytes);
  }
  if (typeof value !== 'object' || value === null) return { ok: true, value, duplicates: [], warnings };

  const shape = measure(value);
  if (shape.depth > maxDepth) return readFailure(text, start, maxDepth, fromBytes);
  let duplicates: DuplicateMember[] = [];
  if (mayHaveDuplicates(text, value, shape.members)) duplicates = scanJson(text, start, maxDepth).duplicates;
  return { ok: true, value, duplicates, warnings };
}

function checkLimit(name: string, limit: number): void {
  if (!(Number.isInteger(limit) || limit === Number.POSITIVE_INFINITY) || limit < 0) {
    throw new VerdictError(
      'invalid_argument',
      `${name} must be a non-negative integer, got ${String(limit)}.`,
    );
  }
}

function failure(error: ReadError): ReadJsonResult {
  return { ok: false, error };
}

function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? findLoneSurrogate(text) < 0 : native.call(text);
}

/** Explains why a text that JSON.parse refused (or that nests too deeply) is unreadable, with its position. */
function readFailure(text: string, start: number, maxDepth: number, fromBytes: boolean): ReadJsonResult {
  if (skipWhitespace(text, start) === text.length) {
    return failure({ reason: 'empty', message: 'The input holds no JSON value.' });
  }
  const { error } = scanJson(text, start, maxDepth);
  // Unreachable while scanJson and JSON.parse agree (a property test holds them to it); stay unreadable anyway.
  const found = error ?? { reason: 'syntax', offset: start, message: 'The input is not valid JSON.' };
  const { line, column } = locate(text, found.offset, start);
  const offset = fromBytes ? utf8Length(text, found.offset) : found.offset;
  return failure({ reason: found.reason, message: found.message, offset, line, column });
}

/** Counts object members and the deepest nesting of a parsed value, iteratively. */
function measure(root: object): { members: number; depth: number } {
  let members = 0;
  let depth = 0;
  const nodes: object[] = [root];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const level = depths.pop() as number;
    if (level > depth) depth = level;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) members += children.length;
    for (let k = 0; k < children.length; k++) {
      const child = children[k];
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(level + 1);
      }
    }
  }
  return { members, depth };
}

/**
 * Decides without a full scan whether the text can hold a duplicate member. Every member has exactly one
 * structural colon, so colons in the text minus colons inside the parsed strings bound the number of members
 * in the text from above; when that bound equals the members JSON.parse kept, none was dropped. A `\u` escape
 * could hide a colon, so its presence sends the text to the exact scan.
 */
function mayHaveDuplicates(text: string, value: object, members: number): boolean {
  const colons = countColons(text);
  if (colons === members) return false;
  if (text.includes('\\u')) return true;
  return colons - countStringColons(value) !== members;
}

function countColons(text: string): number {
  let count = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) count++;
  return count;
}

/** Counts colons inside every member name and string value of a parsed value, iteratively. */
function countStringColons(root: object): number {
  let count = 0;
  const nodes: object[] = [root];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const isArray = Array.isArray(node);
    const children: unknown[] = isArray ? node : Object.values(node);
    if (!isArray) for (const key of Object.keys(node)) count += countColons(key);
    for (let k = 0; k < children.length; k++) {
      const child = children[k];
      if (typeof child === 'string') count += countColons(child);
      else if (typeof child === 'object' && child !== null) nodes.push(child);
    }
  }
  return count;
}
