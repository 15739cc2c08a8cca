import { type HeadersLike, headerValue } from './header-value.js';

// W3C Trace Context §3.2: version-traceid-parentid-flags, lowercase hex; version ff is invalid and
// version 00 has exactly four fields, while later versions may append fields after a dash.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS_32 = '0'.repeat(32);
const ZEROS_16 = '0'.repeat(16);
/** Request ids taken from `x-request-id` / `x-trace-id`: visible ASCII, at most 256 characters. */
const REQUEST_ID = /^[\x21-\x7e]{1,256}$/;

/** The trace id of a W3C `traceparent` header value, or `undefined` when the value is not a valid traceparent. */
export function parseTraceparent(value: string | undefined): string | undefined {
  const match = value === undefined ? null : TRACEPARENT.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZEROS_32 || parentId === ZEROS_16) return undefined;
  return traceId;
}

/** `candidate` when it is a non-blank string, else a new trace id: every envelope carries one (see docs/unified.md). */
export function traceIdOr(candidate: unknown): string {
  return typeof candidate === 'string' && candidate.trim() !== '' ? candidate : createTraceId();
}

// Random bytes are drawn from the platform's CSPRNG in blocks and handed out in slices: one
// `getRandomValues` call per 256 ids instead of one per id (the call itself costs far more than 16 bytes).
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let poolOffset = POOL_BYTES;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * `bytes` random bytes (from `crypto.getRandomValues`) as lowercase hex, never all zeros (an all-zero W3C
 * trace-id or parent-id is invalid; the odds are 2^-(8·bytes) but the fix is one line).
 */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  let hex = '';
  let zero = true;
  for (let index = poolOffset; index < poolOffset + bytes; index++) {
    const byte = pool[index] as number;
    if (byte !== 0) zero = false;
    hex += HEX[byte];
  }
  poolOffset += bytes;
  return zero ? `${hex.slice(0, -2)}01` : hex;
}

/** A new random trace id: 32 lowercase hex characters, usable as a W3C trace-id. */
export function createTraceId(): string {
  return randomHex(16);
}

/**
 * The trace id for a request (see docs/unified.md): the trace-id of a valid `traceparent`, else `x-request-id`, else
 * `x-trace-id`, else a newly generated one.
 * @example traceIdFrom({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })
 * // '4bf92f3577b34da6a3ce929d0e0e4736'
 */
export function traceIdFrom(headers?: HeadersLike): string {
  const fromTraceparent = parseTraceparent(headerValue(headers, 'traceparent'));
  if (fromTraceparent !== undefined) return fromTraceparent;
  for (const name of ['x-request-id', 'x-trace-id']) {
    const value = headerValue(headers, name)?.trim();
    if (value !== undefined && REQUEST_ID.test(value)) return value;
  }
  return createTraceId();
}
