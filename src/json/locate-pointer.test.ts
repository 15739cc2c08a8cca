import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapePointerToken } from '../contract/validate-result.js';
import { locatePointer } from './locate-pointer.js';

/** Every JSON Pointer of a value, with the value it names. */
function pointersOf(value: unknown, prefix = ''): [string, unknown][] {
  const found: [string, unknown][] = [[prefix, value]];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      found.push(...pointersOf(item, `${prefix}/${index}`));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      found.push(...pointersOf(item, `${prefix}/${escapePointerToken(key)}`));
    }
  }
  return found;
}

describe('locatePointer', () => {
  test('spans a member from its name to the end of its value, with line and column', () => {
    const text = '{\n  "success": true,\n  "details": {"a": [1, {"b": "x"}]}\n}';
    expect(locatePointer(text, '/success')).toEqual({ start: 4, end: 19, line: 2, column: 3, exact: true });
    const b = locatePointer(text, '/details/a/1/b');
    expect(text.slice(b.start, b.end)).toBe('"b": "x"');
    expect(b).toMatchObject({ line: 3, column: 25, exact: true });
  });

  test('points at the nearest ancestor that is there when a member or element is missing', () => {
    const text = '{"details": {"list": [1]}}';
    expect(locatePointer(text, '/error_code')).toMatchObject({ start: 0, end: 1, exact: false });
    expect(locatePointer(text, '/details/list/5')).toMatchObject({ start: 21, end: 22, exact: false });
    expect(locatePointer(text, '/details/list/0/deeper')).toMatchObject({ start: 22, end: 23, exact: false });
  });

  test('takes the last of repeated member names and decodes escaped names and pointer tokens', () => {
    const text = '{"a": 1, "a": 2, "x/y~": 3, "\\u0071": 4}';
    expect(text.slice(locatePointer(text, '/a').start)).toMatch(/^"a": 2/);
    expect(text.slice(locatePointer(text, '/x~1y~0').start)).toMatch(/^"x\/y~": 3/);
    expect(text.slice(locatePointer(text, '/q').start)).toMatch(/^"\\u0071": 4/);
  });

  test('skips a byte order mark and counts columns in code points', () => {
    const text = '\uFEFF{"😀": 1, "b": 2}';
    expect(locatePointer(text, '/b')).toMatchObject({ line: 1, column: 10, exact: true });
    expect(locatePointer(text, '')).toMatchObject({ start: 1, end: text.length, line: 1, column: 1 });
  });

  test('every pointer of any document lands on the text of the value it names', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        for (const [pointer, expected] of pointersOf(JSON.parse(text))) {
          const span = locatePointer(text, pointer);
          expect(span.exact).toBe(true);
          const piece = text.slice(span.start, span.end);
          const inObject = /\/[^/]*$/.test(pointer) && !Array.isArray(parentOf(JSON.parse(text), pointer));
          const parsed = inObject ? Object.values(JSON.parse(`{${piece}}`))[0] : JSON.parse(piece);
          expect(parsed).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});

function parentOf(root: unknown, pointer: string): unknown {
  const tokens = pointer.split('/').slice(1, -1);
  let node = root as Record<string, unknown>;
  for (const token of tokens)
    node = node[token.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>;
  return node;
}
