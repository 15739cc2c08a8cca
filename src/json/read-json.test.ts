import { describe, expect, test } from 'vitest';
import { isVerdictError } from '../contract/errors.js';
import type { ReadError, ReadJsonResult } from './index.js';
import { DEFAULT_MAX_DEPTH, readJson } from './index.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function errorOf(result: ReadJsonResult): ReadError {
  if (result.ok) throw new Error(`expected a read error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function readValue(result: ReadJsonResult): unknown {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe('readJson', () => {
  test('returns the parsed value with no duplicates and no warnings', () => {
    expect(readJson('{"success": true, "message": "done", "n": [1, 2.5e3, null, false]}')).toEqual({
      ok: true,
      value: { success: true, message: 'done', n: [1, 2500, null, false] },
      duplicates: [],
      warnings: [],
    });
  });

  test('reads byte input to the same value as string input', () => {
    const text = '{"message": "ünïcödé ✓ 😀", "a": [1, {"b": "c"}]}';
    expect(readJson(encode(text))).toEqual(readJson(text));
    expect(readValue(readJson(encode(text)))).toEqual(JSON.parse(text));
  });

  test('reads scalars at the root', () => {
    expect(readValue(readJson(' 42 '))).toBe(42);
    expect(readValue(readJson('"x"'))).toBe('x');
    expect(readValue(readJson('null'))).toBeNull();
  });

  test('reports empty for empty input', () => {
    expect(errorOf(readJson('')).reason).toBe('empty');
    expect(errorOf(readJson(new Uint8Array(0))).reason).toBe('empty');
  });

  test('reports empty for whitespace-only input', () => {
    expect(errorOf(readJson(' \t\r\n ')).reason).toBe('empty');
  });

  test('reports trailing_data at the first character after the value', () => {
    expect(errorOf(readJson('{"a":1}\n{"a":2}'))).toMatchObject({
      reason: 'trailing_data',
      offset: 8,
      line: 2,
      column: 1,
    });
  });

  test.each([
    ['NaN', 'NaN', 0],
    ['Infinity', 'Infinity', 0],
    ['-Infinity', '-Infinity', 1],
    ['a comment inside an object', '{"a": 1 /* c */}', 8],
    ['a leading line comment', '// c\n1', 0],
    ['single quotes', "{'a': 1}", 1],
    ['a leading zero', '01', 1],
    ['a leading zero in an array', '[-012]', 3],
    ['a raw control character in a string', '"a\tb"', 2],
    ['an unknown escape', '"\\x41"', 2],
    ['a short unicode escape', '"\\u12G4"', 5],
    ['a trailing comma', '[1,]', 3],
    ['a missing colon', '{"a" 1}', 5],
    ['an unquoted member name', '{a: 1}', 1],
    ['a misspelt literal', 'nul', 3],
    ['a fraction without digits', '1.e5', 2],
    ['an exponent without digits', '[1e+]', 4],
    ['a plus sign', '+1', 0],
    ['an unterminated string', '"abc', 4],
    ['an unclosed array', '[1, 2', 5],
  ])('reports syntax with its position for %s', (_name, text, offset) => {
    expect(errorOf(readJson(text))).toMatchObject({ reason: 'syntax', offset, line: 1, column: offset + 1 });
  });

  test('counts lines at LF, CRLF and lone CR', () => {
    expect(errorOf(readJson('[1,\r\n2,\r3,\n  x]'))).toMatchObject({ offset: 13, line: 4, column: 3 });
  });

  test('counts a character outside the BMP as one column', () => {
    expect(errorOf(readJson('["😀", x]'))).toMatchObject({ offset: 7, line: 1, column: 7 });
  });

  test('reports offsets of byte input in bytes', () => {
    expect(errorOf(readJson(encode('["é", x]')))).toMatchObject({
      reason: 'syntax',
      offset: 7,
      line: 1,
      column: 7,
    });
  });

  test.each([
    ['an overlong encoding', [0x22, 0xc0, 0xaf, 0x22], 1],
    ['an overlong three-byte encoding', [0x22, 0xe0, 0x80, 0xaf, 0x22], 1],
    ['a UTF-16 surrogate encoded in UTF-8', [0x22, 0x61, 0xed, 0xa0, 0x80, 0x22], 2],
    ['a truncated sequence', [0x22, 0xe2, 0x82, 0x22], 1],
    ['a sequence cut off by the end', [0x22, 0x61, 0x22, 0x20, 0xe2, 0x82], 4],
    ['a lone continuation byte', [0x5b, 0x31, 0x80, 0x5d], 2],
    ['a code point above U+10FFFF', [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
    ['a byte that never occurs in UTF-8', [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22], 1],
    ['Latin-1 text', [0x22, 0xe9, 0x22], 1],
  ])('reports not_utf8 at the byte offset of %s', (_name, bytes, offset) => {
    expect(errorOf(readJson(new Uint8Array(bytes)))).toMatchObject({ reason: 'not_utf8', offset });
  });

  test('never repairs invalid UTF-8 with U+FFFD', () => {
    const result = readJson(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(errorOf(result)).toMatchObject({ reason: 'not_utf8', offset: 6 });
  });

  test.each([
    ['UTF-16LE with BOM', [0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00]],
    ['UTF-16BE with BOM', [0xfe, 0xff, 0x00, 0x5b, 0x00, 0x5d]],
    ['UTF-16LE without BOM', [0x5b, 0x00, 0x31, 0x00, 0x5d, 0x00]],
    ['UTF-16BE without BOM', [0x00, 0x5b, 0x00, 0x31, 0x00, 0x5d]],
    ['UTF-32LE with BOM', [0xff, 0xfe, 0x00, 0x00, 0x31, 0x00, 0x00, 0x00]],
    ['UTF-32BE without BOM', [0x00, 0x00, 0x00, 0x31]],
  ])('reports not_utf8 for %s', (_name, bytes) => {
    expect(errorOf(readJson(new Uint8Array(bytes)))).toMatchObject({ reason: 'not_utf8', offset: 0 });
  });

  test('reports not_utf8 for string input with an unpaired surrogate character', () => {
    expect(errorOf(readJson('"ab\ud800"'))).toMatchObject({ reason: 'not_utf8', offset: 3 });
  });

  test('accepts a UTF-8 BOM with a utf8_bom warning', () => {
    const result = readJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(result).toEqual({
      ok: true,
      value: {},
      duplicates: [],
      warnings: [{ code: 'utf8_bom', path: '', message: expect.any(String) }],
    });
    expect(readJson('\ufeff[1]')).toMatchObject({ ok: true, value: [1], warnings: [{ code: 'utf8_bom' }] });
  });

  test('counts the BOM in byte offsets but not in columns', () => {
    expect(errorOf(readJson(encode('\ufeff[x]')))).toMatchObject({ offset: 4, line: 1, column: 2 });
  });

  test('reports a BOM followed by nothing as empty', () => {
    expect(errorOf(readJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x20]))).reason).toBe('empty');
  });

  test('accepts lone surrogate escapes, which the JSON grammar allows', () => {
    expect(readValue(readJson('["\\ud800", "\\udc00x"]'))).toEqual(['\ud800', '\udc00x']);
  });

  test('parses an overflowing number literal to Infinity', () => {
    expect(readValue(readJson('[1e400, -1e400]'))).toEqual([
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
  });

  test('reports a duplicate member at the root and keeps the last occurrence', () => {
    expect(readJson('{"success": true, "success": false}')).toMatchObject({
      ok: true,
      value: { success: false },
      duplicates: [{ path: '', key: 'success' }],
    });
  });

  test('reports duplicates at depth with the JSON Pointer of their object', () => {
    const text = '{"a/b": {"c~d": [0, {"x": 1, "x": 2}]}, "e": {"": 1, "": 2}}';
    expect(readJson(text)).toMatchObject({
      ok: true,
      duplicates: [
        { path: '/a~1b/c~0d/1', key: 'x' },
        { path: '/e', key: '' },
      ],
    });
  });

  test('reports each duplicated name once per object', () => {
    expect(readJson('{"a": 1, "a": 2, "a": 3, "b": {"a": 4}}')).toMatchObject({
      duplicates: [{ path: '', key: 'a' }],
    });
  });

  test('finds duplicates spelt with escapes', () => {
    expect(readJson('{"a": 1, "\\u0061": 2}')).toMatchObject({ duplicates: [{ path: '', key: 'a' }] });
  });

  test('finds duplicates in pretty-printed text with space before the colon', () => {
    expect(readJson('{\n  "a" : 1,\n  "a"\t:\n 2\n}')).toMatchObject({
      duplicates: [{ path: '', key: 'a' }],
    });
  });

  test('reports no duplicate for colons and quotes inside strings', () => {
    const text = '{"m": "a: b", "n": "Erreur : x", "o": "q\\": r", "p\\":": "::", "q": {"m": 1}}';
    expect(readJson(text)).toMatchObject({ ok: true, duplicates: [] });
  });

  test('keeps __proto__, constructor and prototype as own data members', () => {
    const result = readJson('{"__proto__": {"x": 1}, "constructor": {"prototype": {"y": 2}}}');
    const value = readValue(result) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ x: 1 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });

  test('reports a duplicate __proto__ member without touching any prototype', () => {
    const result = readJson('{"__proto__": {"x": 1}, "__proto__": {"x": 2}}');
    expect(result).toMatchObject({ ok: true, duplicates: [{ path: '', key: '__proto__' }] });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test('still finds duplicates when Object.prototype has an enumerable property', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(readJson('{"a": 1, "a": 2, "b": 3}')).toMatchObject({ duplicates: [{ path: '', key: 'a' }] });
      expect(readJson('{"a": 1, "b": 2}')).toMatchObject({ ok: true, duplicates: [] });
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  test('accepts exactly DEFAULT_MAX_DEPTH levels of arrays and of objects', () => {
    expect(DEFAULT_MAX_DEPTH).toBe(10_000);
    expect(readJson(nested(10_000)).ok).toBe(true);
    const objects = `${'{"a":'.repeat(10_000 - 1)}{}${'}'.repeat(10_000 - 1)}`;
    expect(readJson(objects).ok).toBe(true);
  });

  test('reports too_deep at the bracket that exceeds the limit', () => {
    expect(errorOf(readJson(nested(10_001)))).toMatchObject({ reason: 'too_deep', offset: 10_000 });
  });

  test('reports too_deep for 100,000 unclosed levels quickly', () => {
    const started = Date.now();
    expect(errorOf(readJson('['.repeat(100_000)))).toMatchObject({ reason: 'too_deep', offset: 10_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('survives 1,000,000 levels of nesting', () => {
    expect(errorOf(readJson(nested(1_000_000))).reason).toBe('too_deep');
    expect(errorOf(readJson('{"a":'.repeat(1_000_000))).reason).toBe('too_deep');
  });

  test('reports a syntax error before the depth limit rather than too_deep', () => {
    expect(errorOf(readJson(`[1 ${'['.repeat(20_000)}`))).toMatchObject({ reason: 'syntax', offset: 3 });
  });

  test('honours a custom maxDepth, where 0 allows only scalars', () => {
    expect(errorOf(readJson('[[[]]]', { maxDepth: 2 }))).toMatchObject({ reason: 'too_deep', offset: 2 });
    expect(readJson('[[]]', { maxDepth: 2 }).ok).toBe(true);
    expect(errorOf(readJson('{}', { maxDepth: 0 })).reason).toBe('too_deep');
    expect(readValue(readJson('7', { maxDepth: 0 }))).toBe(7);
  });

  test('finds duplicates deeper than the recursive fast count reaches', () => {
    const depth = 3_000;
    const text = `${'{"k":'.repeat(depth)}{"d": 1, "d": 2}${'}'.repeat(depth)}`;
    const result = readJson(text);
    expect(result).toMatchObject({ ok: true, duplicates: [{ key: 'd' }] });
    expect(result.ok && result.duplicates[0]?.path).toBe('/k'.repeat(depth));
  });

  test('reports too_large before any parsing work', () => {
    expect(errorOf(readJson('not json at all', { maxBytes: 4 })).reason).toBe('too_large');
    expect(errorOf(readJson(new Uint8Array([0xff, 0xff, 0xff]), { maxBytes: 2 })).reason).toBe('too_large');
    expect(readJson('[1]', { maxBytes: 3 }).ok).toBe(true);
  });

  test('throws a VerdictError for a limit that is not a non-negative integer', () => {
    for (const options of [{ maxDepth: -1 }, { maxDepth: 1.5 }, { maxBytes: Number.NaN }]) {
      let thrown: unknown;
      try {
        readJson('1', options);
      } catch (error) {
        thrown = error;
      }
      expect(isVerdictError(thrown) && thrown.code).toBe('invalid_argument');
    }
  });

  test('reads a 50 MB document', () => {
    const item = '{"id": 12345, "name": "a fairly ordinary string: with a colon", "tags": ["x", "y"]},';
    const count = Math.ceil((50 * 1024 * 1024) / item.length);
    const text = `[${item.repeat(count)}{"last": true}]`;
    expect(text.length).toBeGreaterThan(50 * 1024 * 1024);
    const result = readJson(encode(text));
    expect(result.ok && result.duplicates).toEqual([]);
    expect(result.ok && (result.value as unknown[]).length).toBe(count + 1);
  });
});
