import { describe, expect, test } from 'vitest';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from './base64.js';

const every = Uint8Array.from({ length: 256 }, (_, index) => index);

describe('base64', () => {
  test('reads back every byte value it wrote', () => {
    expect(fromBase64(toBase64(every))).toEqual(every);
    expect(toBase64(new TextEncoder().encode('hi?'))).toBe('aGk/');
  });

  test('reads unpadded text and refuses what is not base64', () => {
    expect(fromBase64('aGk')).toEqual(new TextEncoder().encode('hi'));
    expect(fromBase64('a')).toBeUndefined();
    expect(fromBase64('a*b=')).toBeUndefined();
    expect(fromBase64('')).toEqual(new Uint8Array());
  });

  test('writes more than one chunk of bytes', () => {
    const large = new Uint8Array(0x8000 * 2 + 3).fill(0xfb);
    expect(fromBase64(toBase64(large))).toEqual(large);
  });
});

describe('base64url', () => {
  test('writes - and _ without padding, and reads them back', () => {
    const bytes = Uint8Array.of(0xfb, 0xff, 0xbf, 0xfe);
    expect(toBase64(bytes)).toBe('+/+//g==');
    expect(toBase64Url(bytes)).toBe('-_-__g');
    expect(fromBase64Url('-_-__g')).toEqual(bytes);
    expect(fromBase64Url(toBase64Url(every))).toEqual(every);
  });

  test('refuses the base64 alphabet and text that is not base64url', () => {
    expect(fromBase64Url('+/+//g')).toBeUndefined();
    expect(fromBase64Url('a!b')).toBeUndefined();
  });
});
