import { describe, expect, test } from 'vitest';
import { readJson } from './read-json.js';

/**
 * CPU time per character of reading each text, every one read often enough to make the same amount of work
 * (so a timer tick weighs the same on each), the runs interleaved and the fastest of `rounds` kept, so a busy
 * moment of the machine slows one sample, not one size. CPU time, not wall time: waiting for a core is not
 * counted.
 */
function cpuPerChar(texts: readonly string[], rounds = 5): number[] {
  const largest = Math.max(...texts.map((text) => text.length));
  const repeats = texts.map((text) => Math.max(1, Math.round(largest / text.length)));
  const best = texts.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < rounds; round++) {
    texts.forEach((text, k) => {
      const started = process.cpuUsage();
      for (let r = 0; r < (repeats[k] as number); r++) readJson(text);
      const used = process.cpuUsage(started);
      const perChar = (used.user + used.system) / ((repeats[k] as number) * text.length);
      best[k] = Math.min(best[k] as number, perChar);
    });
  }
  return best;
}

/** An object naming the same member `count` times. */
const repeatedKeys = (count: number) => `{${'"k":1,'.repeat(count - 1)}"k":1}`;

/** `depth` objects nested in each other through `b`, each naming `a` twice. */
const nestedDuplicates = (depth: number) => `${'{"a":1,"a":2,"b":'.repeat(depth)}0${'}'.repeat(depth)}`;

// A quadratic reader's time per character grows with the number of members: 100 times from the smallest to the
// largest text here. A linear one stays flat; the bound of 4 leaves room for caches and collections.
const GROWTH_BOUND = 4;

describe('readJson time per character', () => {
  test('stays flat from 10 k to 1 M repeated member names', () => {
    const texts = [10_000, 100_000, 1_000_000].map(repeatedKeys);
    for (const text of texts) {
      const read = readJson(text);
      expect(read.ok && read.duplicates).toEqual([{ path: '', key: 'k' }]);
    }
    const [small, medium, large] = cpuPerChar(texts) as [number, number, number];
    expect(medium / small).toBeLessThan(GROWTH_BOUND);
    expect(large / small).toBeLessThan(GROWTH_BOUND);
  });

  test('stays flat from 100 to 8,000 nested objects that each repeat a member', () => {
    const texts = [100, 1_000, 8_000].map(nestedDuplicates);
    const deepest = readJson(texts[2] as string);
    expect(deepest.ok && deepest.duplicates.length).toBe(8_000);
    expect(deepest.ok && deepest.duplicates[2]).toEqual({ path: '/b/b', key: 'a' });
    const [small, medium, large] = cpuPerChar(texts) as [number, number, number];
    expect(medium / small).toBeLessThan(GROWTH_BOUND);
    expect(large / small).toBeLessThan(GROWTH_BOUND);
  });

  test('stays flat from 1 k to 100 k small objects that each repeat a member', () => {
    const objects = (count: number) => `[${'{"a":1,"a":2},'.repeat(count - 1)}{"a":1,"a":2}]`;
    const texts = [1_000, 10_000, 100_000].map(objects);
    const read = readJson(texts[0] as string);
    expect(read.ok && read.duplicates.at(-1)).toEqual({ path: '/999', key: 'a' });
    const [small, medium, large] = cpuPerChar(texts) as [number, number, number];
    expect(medium / small).toBeLessThan(GROWTH_BOUND);
    expect(large / small).toBeLessThan(GROWTH_BOUND);
  });
});
