import { describe, expect, test } from 'vitest';
import { locatePointer } from './locate-pointer.js';

const TEXT = [
  '{',
  '  "success": false,',
  '  "message": "héllo 🙂", "error": null,',
  '  "details": {"list": [1, {"a/b": [true, "x"]}, 3], "empty": []},',
  '  "meta": {"a~b": 1}',
  '}',
].join('\n');

describe('locatePointer', () => {
  test('points at the document for the root pointer', () => {
    expect(locatePointer(`  \n ${TEXT}`, '')).toEqual({ line: 2, column: 2 });
  });

  test('points at the member name of an object member', () => {
    expect(locatePointer(TEXT, '/success')).toEqual({ line: 2, column: 3 });
    // Columns count characters: the emoji before "error" is one column.
    expect(locatePointer(TEXT, '/error')).toEqual({ line: 3, column: 25 });
  });

  test('points at array elements and unescapes ~0 and ~1', () => {
    expect(locatePointer(TEXT, '/details/list/2')).toEqual({ line: 4, column: 49 });
    expect(locatePointer(TEXT, '/details/list/1/a~1b/1')).toEqual({ line: 4, column: 42 });
    expect(locatePointer(TEXT, '/meta/a~0b')).toEqual({ line: 5, column: 12 });
  });

  test('falls back to the nearest existing value for a missing member or element', () => {
    expect(locatePointer(TEXT, '/details/missing')).toEqual({ line: 4, column: 3 });
    expect(locatePointer(TEXT, '/details/empty/0')).toEqual({ line: 4, column: 53 });
    expect(locatePointer(TEXT, '/details/list/9')).toEqual({ line: 4, column: 15 });
  });

  test('points at the last of repeated member names, the one a parser keeps', () => {
    expect(locatePointer('{"a": 1,\n "a": 2}', '/a')).toEqual({ line: 2, column: 2 });
  });

  test('ignores a byte order mark', () => {
    expect(locatePointer('\ufeff{"a": 1}', '/a')).toEqual({ line: 1, column: 2 });
  });
});
