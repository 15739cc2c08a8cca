import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FrameSplitter, isErrorFrame, isUsageOnlyFrame, type StreamFrame } from './forward-frames.js';

/** The frames of `text` cut into pieces at `cuts` (byte offsets), fed one piece at a time. */
function framesOf(bytes: Uint8Array, cuts: readonly number[]): StreamFrame[] {
  const splitter = new FrameSplitter();
  const frames: StreamFrame[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    frames.push(...splitter.push(bytes.subarray(start, cut)));
    start = cut;
  }
  frames.push(...splitter.push(bytes.subarray(start)));
  frames.push(...splitter.end());
  return frames;
}

const OPENAI = [
  'data: {"choices":[{"index":0,"delta":{"content":"Grüß "}}]}\n\n',
  'data: {"choices":[{"index":0,"delta":{"content":"dich 👋"}}]}\r\n\r\n',
  'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}\n\n',
  'data: [DONE]\n\n',
].join('');

describe('FrameSplitter', () => {
  test('any chunking of a stream gives the same frames, whose texts join into the stream', () => {
    const bytes = new TextEncoder().encode(OPENAI);
    const whole = framesOf(bytes, []);
    expect(whole).toHaveLength(4);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        const frames = framesOf(bytes, cuts);
        expect(frames).toEqual(whole);
        expect(frames.map((frame) => frame.text).join('')).toBe(OPENAI);
      }),
    );
  });

  test('a last event without its blank line is a frame at the end, ended by one', () => {
    const frames = framesOf(new TextEncoder().encode('event: ping\ndata: {"type":"ping"}'), []);
    expect(frames).toEqual([
      { text: 'event: ping\ndata: {"type":"ping"}\n\n', event: 'ping', data: '{"type":"ping"}' },
    ]);
  });
});

describe('the frames forwarding looks at', () => {
  const frame = (text: string) => framesOf(new TextEncoder().encode(text), [])[0] as StreamFrame;

  test("OpenAI's usage chunk is known, a chunk with choices is not", () => {
    const [, , usage] = framesOf(new TextEncoder().encode(OPENAI), []);
    expect(isUsageOnlyFrame('openai.chat', usage as StreamFrame)).toBe(true);
    expect(
      isUsageOnlyFrame('openai.chat', frame('data: {"choices":[{"delta":{}}],"usage":{"x":1}}\n\n')),
    ).toBe(false);
    expect(isUsageOnlyFrame('anthropic.messages', usage as StreamFrame)).toBe(false);
  });

  test('error events are known by their data, and a model writing about errors is not one', () => {
    expect(isErrorFrame('openai.chat', frame('data: {"error":{"message":"boom"}}\n\n'))).toBe(true);
    expect(isErrorFrame('openai.chat', frame('data: {"id":"x","error":{"message":"boom"}}\n\n'))).toBe(true);
    expect(
      isErrorFrame('openai.chat', frame('data: {"choices":[{"delta":{"content":"{\\"error\\": 1}"}}]}\n\n')),
    ).toBe(false);
    expect(isErrorFrame('anthropic.messages', frame('event: error\ndata: {"type":"error"}\n\n'))).toBe(true);
    expect(
      isErrorFrame(
        'anthropic.messages',
        frame(
          'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"\\"type\\":\\"error\\""}}\n\n',
        ),
      ),
    ).toBe(false);
  });
});
