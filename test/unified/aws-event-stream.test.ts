import { describe, expect, test } from 'vitest';
import { normalizeStream } from '../../src/unified/index.js';
import {
  crc32,
  decodeEventStream,
  looksLikeEventStream,
} from '../../src/unified/providers/aws-event-stream.js';
import { converseEventStream, encodeEventStream } from './encode-event-stream.js';

describe('decodeEventStream', () => {
  test('computes the IEEE CRC-32 of the check string', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  test('decodes events and exceptions into objects keyed by their type', () => {
    const bytes = converseEventStream([
      { messageStart: { role: 'assistant' } },
      { throttlingException: { message: 'slow down' } },
    ]);
    expect(looksLikeEventStream(bytes)).toBe(true);
    expect(decodeEventStream(bytes)).toEqual([
      { messageStart: { role: 'assistant', p: 'abcdefghij' } },
      { throttlingException: { message: 'slow down', p: 'abcdefghij' } },
    ]);
  });

  test('an error message becomes a streamError event', () => {
    const bytes = encodeEventStream([
      {
        headers: { ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' },
        payload: {},
      },
    ]);
    expect(decodeEventStream(bytes)).toEqual([{ streamError: { code: 'InternalFailure', message: 'boom' } }]);
  });

  test('a flipped byte, a cut message and a missing type are damaged captures', () => {
    const bytes = converseEventStream([{ messageStart: { role: 'assistant' } }]);
    const flipped = bytes.slice();
    flipped[20] = (flipped[20] ?? 0) ^ 0xff;
    expect(() => decodeEventStream(flipped)).toThrow(/checksum/);
    expect(() => decodeEventStream(bytes.subarray(0, bytes.length - 3))).toThrow(/cut|bad length/);
    const untyped = encodeEventStream([{ headers: { ':message-type': 'event' }, payload: {} }]);
    expect(() => decodeEventStream(untyped)).toThrow(/names no event/);
  });

  test('text that is not an event stream is read as text, and a damaged stream is INVALID_PROVIDER_RESPONSE', () => {
    const lines = new TextEncoder().encode(
      [
        { messageStart: { role: 'assistant' } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hi' } } },
        { messageStop: { stopReason: 'end_turn' } },
      ]
        .map((event) => JSON.stringify(event))
        .join('\n'),
    );
    expect(looksLikeEventStream(lines)).toBe(false);
    expect(normalizeStream({ format: 'bedrock.converse', events: lines })).toMatchObject({
      success: true,
      content: 'Hi',
    });
    const bytes = converseEventStream([{ messageStart: { role: 'assistant' } }]);
    const damaged = bytes.slice();
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 1;
    expect(normalizeStream({ format: 'bedrock.converse', events: damaged })).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE' },
    });
  });
});
