import { readBody } from '../read-body.js';
import { ShapeError } from './provider-outcome.js';

/** CRC-32 (IEEE) table, for the prelude and message checksums of the AWS event-stream framing. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

/** The CRC-32 of some bytes. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** True when bytes start like an AWS event-stream message (a prelude whose checksum holds). */
export function looksLikeEventStream(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(8) === crc32(bytes.subarray(0, 8)) && view.getUint32(0) >= 16;
}

type HeaderValue = string | number | boolean | Uint8Array;

/**
 * Decode a captured AWS event-stream body (`application/vnd.amazon.eventstream`, the framing of Bedrock's
 * ConverseStream) into its events, each in the form the AWS SDKs yield: an object keyed by the event type
 * (`{ contentBlockDelta: { … } }`), by the exception type for exception messages (`{ throttlingException: … }`),
 * or `{ streamError: { code, message } }` for an error message. Checksums are verified; a damaged or cut capture
 * throws {@link ShapeError}. See docs/providers.md.
 */
export function decodeEventStream(bytes: Uint8Array): unknown[] {
  const events: unknown[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < 16) throw new ShapeError('The event stream ends inside a message prelude.');
    const total = view.getUint32(offset);
    const headersLength = view.getUint32(offset + 4);
    if (view.getUint32(offset + 8) !== crc32(bytes.subarray(offset, offset + 8)))
      throw new ShapeError(`The event-stream message at byte ${offset} has a bad prelude checksum.`);
    if (total < 16 + headersLength || offset + total > bytes.length)
      throw new ShapeError(`The event-stream message at byte ${offset} is cut or has a bad length.`);
    const end = offset + total;
    if (view.getUint32(end - 4) !== crc32(bytes.subarray(offset, end - 4)))
      throw new ShapeError(`The event-stream message at byte ${offset} has a bad checksum.`);
    const headers = readHeaders(bytes, view, offset + 12, offset + 12 + headersLength);
    const payload = bytes.subarray(offset + 12 + headersLength, end - 4);
    events.push(toEvent(headers, payload));
    offset = end;
  }
  return events;
}

function readHeaders(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  end: number,
): Map<string, HeaderValue> {
  const headers = new Map<string, HeaderValue>();
  const decoder = new TextDecoder();
  let at = start;
  const need = (count: number) => {
    if (at + count > end) throw new ShapeError('An event-stream header runs past its block.');
  };
  while (at < end) {
    need(1);
    const nameLength = bytes[at] ?? 0;
    at += 1;
    need(nameLength + 1);
    const name = decoder.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = bytes[at];
    at += 1;
    let value: HeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = type === 0;
        break;
      case 2:
        need(1);
        value = view.getInt8(at);
        at += 1;
        break;
      case 3:
        need(2);
        value = view.getInt16(at);
        at += 2;
        break;
      case 4:
        need(4);
        value = view.getInt32(at);
        at += 4;
        break;
      case 5:
      case 8:
        need(8);
        value = Number(view.getBigInt64(at));
        at += 8;
        break;
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const raw = bytes.subarray(at, at + length);
        value = type === 7 ? decoder.decode(raw) : raw;
        at += length;
        break;
      }
      case 9:
        need(16);
        value = bytes.subarray(at, at + 16);
        at += 16;
        break;
      default:
        throw new ShapeError(`An event-stream header has an unknown value type ${String(type)}.`);
    }
    headers.set(name, value);
  }
  return headers;
}

function toEvent(headers: Map<string, HeaderValue>, payload: Uint8Array): unknown {
  const messageType = headers.get(':message-type');
  if (messageType === 'error') {
    return {
      streamError: {
        code: String(headers.get(':error-code') ?? 'error'),
        message: String(headers.get(':error-message') ?? ''),
      },
    };
  }
  const read = payload.length === 0 ? { ok: true as const, value: {} } : readBody(payload);
  if (!read.ok) throw new ShapeError(`An event-stream payload is not JSON: ${read.message}`);
  const key = messageType === 'exception' ? headers.get(':exception-type') : headers.get(':event-type');
  if (typeof key !== 'string' || key === '')
    throw new ShapeError('An event-stream message names no event or exception type.');
  return { [key]: read.value };
}
