import { describe, expect, test } from 'vitest';
import { createStreamMeter, STREAM_LIMITS, type StreamLimits } from '../../src/unified/index.js';
import { converseEventStream } from './encode-event-stream.js';

/** What a meter says about `bytes` fed in chunks of `size` bytes: the bound passed, or undefined. */
function meter(bytes: Uint8Array, size: number, limits: Partial<StreamLimits>, binary = false) {
  const m = createStreamMeter({ ...STREAM_LIMITS, ...limits }, binary);
  for (let k = 0; k < bytes.length; k += size) {
    const passed = m.push(bytes.subarray(k, k + size));
    if (passed) return passed.limit;
  }
  return m.end()?.limit;
}

const text = (value: string) => new TextEncoder().encode(value);

describe('createStreamMeter', () => {
  const sse = text(
    'event: a\r\ndata: {"x":1}\r\n\r\n: comment\n\ndata: {"x":2}\ndata: {"y":3}\n\ndata: [DONE]\n\n',
  );

  test('counts SSE events, not their lines, however the chunks fall', () => {
    for (const size of [1, 2, 3, 7, sse.length]) {
      expect(meter(sse, size, { maxEvents: 3 })).toBeUndefined();
      expect(meter(sse, size, { maxEvents: 2 })).toBe('max_events');
    }
  });

  test('measures an SSE event as its lines together', () => {
    // The second event is two data lines of 13 bytes, the first with its line end: 27 bytes.
    expect(meter(sse, 5, { maxEventBytes: 27 })).toBeUndefined();
    expect(meter(sse, 5, { maxEventBytes: 26 })).toBe('max_event_bytes');
  });

  test('counts one JSON event per line, skipping blank lines, and the last line without its end', () => {
    const lines = text('{"a":1}\n\n  \n{"a":2}\r\n{"a":3}');
    for (const size of [1, 4, lines.length]) {
      expect(meter(lines, size, { maxEvents: 3 })).toBeUndefined();
      expect(meter(lines, size, { maxEvents: 2 })).toBe('max_events');
    }
  });

  test('walks AWS event-stream messages by their length prefix, split anywhere', () => {
    const bytes = converseEventStream([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'x' } } },
      { messageStop: { stopReason: 'end_turn' } },
    ]);
    for (const size of [1, 3, 5, bytes.length]) {
      expect(meter(bytes, size, { maxEvents: 3 }, true)).toBeUndefined();
      expect(meter(bytes, size, { maxEvents: 2 }, true)).toBe('max_events');
    }
  });

  test('stops a stream at its total bytes', () => {
    expect(meter(sse, 4, { maxStreamBytes: sse.length })).toBeUndefined();
    expect(meter(sse, 4, { maxStreamBytes: sse.length - 1 })).toBe('max_stream_bytes');
  });
});
