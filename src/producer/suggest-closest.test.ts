import { describe, expect, test } from 'vitest';
import { suggestClosest } from './suggest-closest.js';

const COMMANDS = ['validate', 'normalize', 'evidence', 'conformance', 'gateway', 'mcp', 'schema', 'tool'];

describe('suggestClosest', () => {
  test.each([
    ['normalise', 'normalize'],
    ['normalzie', 'normalize'],
    ['valdiate', 'validate'],
    ['gatway', 'gateway'],
    ['Schema', 'schema'],
    ['conf', 'conformance'],
  ])('suggests the known name close to %s', (word, expected) => {
    expect(suggestClosest(word, COMMANDS)).toBe(expected);
  });

  test.each([['serve'], ['x'], [''], ['deploy'], ['a'.repeat(5000)]])('suggests nothing for %s', (word) => {
    expect(suggestClosest(word, COMMANDS)).toBeUndefined();
  });

  test('a prefix that two names share is no suggestion by itself', () => {
    expect(suggestClosest('con', ['config', 'console'])).toBeUndefined();
  });
});
