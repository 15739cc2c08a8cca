import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createThinkSplitter } from '../../src/gateway/wire/split-think-stream.js';
import type { WireDelta } from '../../src/gateway/wire/wire-format.js';
import { splitThinkBlock } from '../../src/unified/providers/openai-compatible.js';

/** The text and reasoning a splitter gives for `text` cut at `cuts`. */
function splitInPieces(text: string, cuts: readonly number[]): { content: string; reasoning: string } {
  const splitter = createThinkSplitter();
  const out: WireDelta[] = [];
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const point of [...points, text.length]) {
    splitter.push(text.slice(start, point), out);
    start = point;
  }
  splitter.flush(out);
  let content = '';
  let reasoning = '';
  for (const delta of out) {
    if (delta.type === 'text') content += delta.text;
    if (delta.type === 'reasoning') reasoning += delta.text;
  }
  return { content, reasoning };
}

describe('createThinkSplitter', () => {
  test('splits a leading think block off the streamed answer', () => {
    expect(splitInPieces('<think>Plan.</think>\n\nHello', [3, 9, 15, 20])).toEqual({
      content: 'Hello',
      reasoning: 'Plan.',
    });
    expect(splitInPieces('Hello <think>not a block</think>', [2, 8])).toEqual({
      content: 'Hello <think>not a block</think>',
      reasoning: '',
    });
  });

  test('in any chunking, gives the content the normalizer gives the whole answer', () => {
    const pieces = fc.constantFrom(
      '<think>',
      '</think>',
      '<',
      '</',
      'think',
      '>',
      ' ',
      '\n',
      'a',
      'Hello',
      'é',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, cuts) => {
          const text = parts.join('');
          const split = splitInPieces(text, cuts);
          const whole = splitThinkBlock(text);
          expect(split.content).toBe(whole.content);
          // The normalizer trims the reasoning; the deltas carry it as it came.
          expect(split.reasoning.trim()).toBe(whole.reasoning ?? '');
        },
      ),
      { numRuns: 500 },
    );
  });
});
