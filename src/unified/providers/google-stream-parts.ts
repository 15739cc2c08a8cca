import { isJsonObject } from '../../contract/findings.js';
import { fromBase64, toBase64 } from '../base64.js';
import { type Json, ShapeError } from './provider-outcome.js';

/**
 * The parts of one streamed Gemini candidate, folded as the unstreamed answer has them:
 * - text-to-speech sends one answer's audio as a run of inline parts (raw PCM chunks of one type); they join
 *   into one audio part;
 * - Vertex AI's streamed function-call arguments (`streamFunctionCallArguments`) send one call as a part with
 *   its `name` and `willContinue: true`, then parts with `partialArgs` (a JSON path and a value piece each), until
 *   a part without `willContinue`; they join into one `functionCall` with its `args`.
 */
export class StreamParts {
  private readonly parts: unknown[] = [];
  /** The function call whose arguments are still streaming. */
  private openCall: { call: Json; args: Json; openPaths: Set<string> } | undefined;

  /** Add the next streamed part. */
  append(part: unknown): void {
    if (isJsonObject(part) && isJsonObject(part.functionCall) && this.appendCall(part, part.functionCall))
      return;
    const chunk = inlineData(part);
    const previous = inlineData(this.parts.at(-1));
    if (
      chunk !== undefined &&
      previous !== undefined &&
      previous.mimeType === chunk.mimeType &&
      chunk.mimeType.toLowerCase().startsWith('audio/')
    ) {
      this.parts[this.parts.length - 1] = {
        inlineData: { mimeType: chunk.mimeType, data: joinBase64(previous.data, chunk.data) },
      };
      return;
    }
    this.parts.push(part);
  }

  /**
   * The folded parts. The stream's finishReason ends the turn, so a call still open then (its closing part
   * omitted) keeps the arguments it streamed; a stream cut before its finishReason is refused by the caller.
   */
  finish(): unknown[] {
    this.openCall = undefined;
    return this.parts;
  }

  /** Fold a `functionCall` part; false when it is an ordinary complete call to keep as it is. */
  private appendCall(part: Json, fn: Json): boolean {
    const open = this.openCall;
    const continues = fn.willContinue === true;
    if (open === undefined) {
      if (!continues && fn.partialArgs === undefined) return false;
      if (typeof fn.name !== 'string') {
        // A nameless closing part with nothing open (`functionCall: {}`) carries nothing.
        if (!continues && fn.partialArgs === undefined) return true;
        throw new ShapeError('Streamed function-call arguments arrived before the call named its function.');
      }
      const args: Json = isJsonObject(fn.args) ? { ...fn.args } : {};
      const { willContinue: _w, partialArgs: _p, ...rest } = fn;
      const call: Json = { ...rest, args };
      const folded = { ...part, functionCall: call };
      this.parts.push(folded);
      this.openCall = { call, args, openPaths: new Set() };
      applyPartialArgs(args, fn.partialArgs, this.openCall.openPaths);
      if (!continues) this.openCall = undefined;
      return true;
    }
    if (typeof fn.name === 'string' && fn.name !== '' && fn.name !== open.call.name) {
      throw new ShapeError('A new function call started while another was still streaming its arguments.');
    }
    if (isJsonObject(fn.args)) Object.assign(open.args, fn.args);
    applyPartialArgs(open.args, fn.partialArgs, open.openPaths);
    if (typeof fn.id === 'string') open.call.id = fn.id;
    if (!continues) this.openCall = undefined;
    return true;
  }
}

/** The inline data of a part, when it has some. */
function inlineData(part: unknown): { mimeType: string; data: string } | undefined {
  if (!isJsonObject(part) || !isJsonObject(part.inlineData)) return undefined;
  const { mimeType, data } = part.inlineData;
  return typeof mimeType === 'string' && typeof data === 'string' ? { mimeType, data } : undefined;
}

/** Two base64 texts joined as bytes (each chunk has its own padding, so the texts cannot simply be joined). */
function joinBase64(head: string, tail: string): string {
  const first = fromBase64(head);
  const second = fromBase64(tail);
  if (first === undefined || second === undefined)
    throw new ShapeError('Streamed inline audio is not base64.');
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return toBase64(joined);
}

/**
 * Apply `partialArgs` pieces to the arguments: each sets the value at its JSON path (`$.a.b[0]`, `$['a b']`);
 * string pieces of a path whose previous piece said `willContinue` are appended to it.
 */
function applyPartialArgs(args: Json, value: unknown, openPaths: Set<string>): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw new ShapeError('`functionCall.partialArgs` is not an array.');
  for (const item of value) {
    if (!isJsonObject(item) || typeof item.jsonPath !== 'string')
      throw new ShapeError('A partial argument has no `jsonPath`.');
    const path = item.jsonPath;
    const segments = jsonPathSegments(path);
    let piece: unknown;
    if (typeof item.stringValue === 'string') piece = item.stringValue;
    else if (typeof item.numberValue === 'number') piece = item.numberValue;
    else if (typeof item.boolValue === 'boolean') piece = item.boolValue;
    else if (item.nullValue !== undefined) piece = null;
    else if (item.willContinue === true) piece = '';
    else throw new ShapeError(`The partial argument at ${path} has no value.`);
    const current = getAt(args, segments);
    const next =
      openPaths.has(path) && typeof current === 'string' && typeof piece === 'string'
        ? current + piece
        : piece;
    setAt(args, segments, next);
    if (item.willContinue === true) openPaths.add(path);
    else openPaths.delete(path);
  }
}

/** The member names and indexes of a JSON path in the forms Vertex AI sends (`$.a.b[0]`, `$['a']`). */
function jsonPathSegments(path: string): (string | number)[] {
  if (!path.startsWith('$')) throw new ShapeError(`The partial argument path ${path} is not a JSON path.`);
  const segments: (string | number)[] = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) throw new ShapeError(`The partial argument path ${path} is not understood.`);
    const [, name, index, single, double] = match;
    if (name !== undefined) segments.push(name);
    else if (index !== undefined) segments.push(Number(index));
    else segments.push((single ?? double ?? '').replace(/\\(.)/g, '$1'));
  }
  if (segments.length === 0) throw new ShapeError('A partial argument names the whole argument object.');
  return segments;
}

function getAt(root: Json, segments: readonly (string | number)[]): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Set an own member, so that a path segment such as `__proto__` is plain data and never a prototype. */
function define(node: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Set the value at a path, making the objects and arrays on the way. An array index may be at most the array's
 * length (a piece fills the next item or replaces one): a path far past it would make a sparse array, and its
 * text, as long as the index says.
 */
function setAt(root: Json, segments: readonly (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = root;
  segments.forEach((segment, position) => {
    if (typeof segment === 'number' && Array.isArray(node) && segment > node.length)
      throw new ShapeError(`A partial argument sets item ${segment} of an array of ${node.length}.`);
    if (position === segments.length - 1) {
      define(node, segment, value);
      return;
    }
    const nextIsIndex = typeof segments[position + 1] === 'number';
    const child = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (child === null || typeof child !== 'object') define(node, segment, nextIsIndex ? [] : {});
    node = node[segment] as Record<string | number, unknown>;
  });
}
