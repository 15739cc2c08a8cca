import { describe, expect, test } from 'vitest';
import { escapePointerToken, pointerOf, unescapePointerToken } from './json-pointer.js';

describe('escapePointerToken', () => {
  test('escapes ~ before / so that neither is read as the other', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(escapePointerToken('plain')).toBe('plain');
  });

  test('is undone by unescapePointerToken, including tokens that look escaped already', () => {
    for (const token of ['', '~', '/', '~0', '~1', '~01', 'a/~b', '//~~']) {
      expect(unescapePointerToken(escapePointerToken(token)), token).toBe(token);
    }
    expect(unescapePointerToken('~01')).toBe('~1');
  });
});

describe('pointerOf', () => {
  test('joins escaped tokens, indexes as digits, the root as the empty pointer', () => {
    expect(pointerOf('providers', 'a/b', 0)).toBe('/providers/a~1b/0');
    expect(pointerOf()).toBe('');
    expect(pointerOf('')).toBe('/');
  });
});
