import { crc32 } from '../../src/unified/providers/aws-event-stream.js';

/** One message of an AWS event-stream: string headers and a JSON payload. */
export interface EventStreamMessage {
  headers: Record<string, string>;
  payload: unknown;
}

/**
 * Encode messages in the AWS event-stream framing (prelude with total and header lengths and a CRC-32, string
 * headers, payload, message CRC-32), as Bedrock's ConverseStream sends them; for tests of the decoder.
 */
export function encodeEventStream(messages: readonly EventStreamMessage[]): Uint8Array {
  const encoder = new TextEncoder();
  const chunks = messages.map(({ headers, payload }) => {
    const headerBytes: number[] = [];
    for (const [name, value] of Object.entries(headers)) {
      const nameBytes = encoder.encode(name);
      const valueBytes = encoder.encode(value);
      headerBytes.push(nameBytes.length, ...nameBytes, 7, valueBytes.length >> 8, valueBytes.length & 0xff);
      headerBytes.push(...valueBytes);
    }
    const body = encoder.encode(JSON.stringify(payload));
    const total = 12 + headerBytes.length + body.length + 4;
    const message = new Uint8Array(total);
    const view = new DataView(message.buffer);
    view.setUint32(0, total);
    view.setUint32(4, headerBytes.length);
    view.setUint32(8, crc32(message.subarray(0, 8)));
    message.set(headerBytes, 12);
    message.set(body, 12 + headerBytes.length);
    view.setUint32(total - 4, crc32(message.subarray(0, total - 4)));
    return message;
  });
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The event-stream form of decoded ConverseStream events (`{ contentBlockDelta: {…} }` → one event message). */
export function converseEventStream(events: readonly Record<string, unknown>[]): Uint8Array {
  return encodeEventStream(
    events.map((event) => {
      const [type, payload] = Object.entries(event)[0] ?? ['', {}];
      const exception = type.endsWith('Exception');
      return {
        headers: exception
          ? { ':message-type': 'exception', ':exception-type': type, ':content-type': 'application/json' }
          : { ':message-type': 'event', ':event-type': type, ':content-type': 'application/json' },
        // Bedrock pads payloads with a `p` member of varying length; the decoder ignores it.
        payload: { ...(payload as object), p: 'abcdefghij' },
      };
    }),
  );
}

/**
 * The event-stream form of an InvokeModelWithResponseStream body: each model chunk becomes a `chunk` event whose
 * payload is `{ bytes }`, the chunk's JSON in base64, as Bedrock sends it.
 */
export function invokeEventStream(chunks: readonly object[]): Uint8Array {
  return encodeEventStream(
    chunks.map((chunk) => ({
      headers: { ':message-type': 'event', ':event-type': 'chunk', ':content-type': 'application/json' },
      payload: { bytes: btoa(JSON.stringify(chunk)) },
    })),
  );
}
