import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { DuplicateMember } from './index.js';
import { readJson } from './index.js';
import { scanJson } from './scan-json.js';
import { findInvalidUtf8 } from './utf8.js';

/** JSON.parse's verdict on a text, with a leading BOM removed as readJson removes it. */
function parseNative(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    return { ok: false };
  }
}

const JSON_CHARACTERS = [...'{}[]:,"\\ \n\t0123456789-+.eEtrufalsnx/*\'', '\u0000', '\ufeff', 'é', '😀'];

/** Valid JSON texts with one random edit, so that most are near misses of the grammar. */
const nearJson = fc
  .tuple(
    fc.json(),
    fc.nat(),
    fc.constantFrom(...JSON_CHARACTERS),
    fc.constantFrom('insert', 'delete', 'replace', 'keep'),
  )
  .map(([text, at, character, edit]) => {
    const i = at % (text.length + 1);
    if (edit === 'insert') return text.slice(0, i) + character + text.slice(i);
    if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'replace') return text.slice(0, i) + character + text.slice(i + 1);
    return text;
  });

const anyText = fc.oneof(nearJson, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }));

type Node =
  | { kind: 'leaf'; text: string }
  | { kind: 'array'; items: Node[] }
  | { kind: 'object'; members: { key: string; escaped: boolean; before: string; value: Node }[] };

const KEYS = ['a', 'b', 'a:', ':', ' :', '"', '\\":', 'a\\', '~/', '__proto__', 'é'];
const LEAVES = ['1', '"\\\\"', '"a:b"', '" : "', '"x\\": y"', 'null', '"\\u003a"', '[]', '{}'];

/** Objects whose member names repeat often, spelt plainly or as \u escapes, with varied whitespace. */
const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...LEAVES).map((text): Node => ({ kind: 'leaf', text })),
    fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ kind: 'array', items })),
    fc
      .array(
        fc.record({
          key: fc.constantFrom(...KEYS),
          escaped: fc.boolean(),
          before: fc.constantFrom('', ' ', '\n\t'),
          value: tie('node'),
        }),
        { maxLength: 5 },
      )
      .map((members): Node => ({ kind: 'object', members })),
  ),
})).node;

function serialize(node: Node): string {
  if (node.kind === 'leaf') return node.text;
  if (node.kind === 'array') return `[${node.items.map(serialize).join(',')}]`;
  const members = node.members.map((m) => {
    const key = m.escaped
      ? `"${[...m.key].map((c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(m.key);
    return `${key}${m.before}: ${serialize(m.value)}`;
  });
  return `{${members.join(', ')}}`;
}

/** The duplicates a correct reader reports, computed from the tree rather than from text. */
function expectedDuplicates(node: Node, path: string, found: DuplicateMember[]): DuplicateMember[] {
  if (node.kind === 'array') {
    for (const [i, item] of node.items.entries()) expectedDuplicates(item, `${path}/${i}`, found);
  }
  if (node.kind === 'object') {
    const seen = new Map<string, boolean>();
    for (const member of node.members) {
      const reported = seen.get(member.key);
      if (reported === false) found.push({ path, key: member.key });
      seen.set(member.key, reported !== undefined);
      const segment = member.key.replaceAll('~', '~0').replaceAll('/', '~1');
      expectedDuplicates(member.value, `${path}/${segment}`, found);
    }
  }
  return found;
}

describe('readJson', () => {
  test('reads every serialized JSON value to what JSON.parse returns, with nothing to report', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(readJson(text)).toEqual({ ok: true, value: JSON.parse(text), duplicates: [], warnings: [] });
        expect(readJson(new TextEncoder().encode(text))).toEqual(readJson(text));
      }),
      { numRuns: 500 },
    );
  });

  test('never throws on any string and accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = readJson(text);
        const wellFormed = !/\p{Cs}/u.test(text);
        if (!wellFormed) {
          expect(result.ok || result.error.reason).toBe('not_utf8');
          return;
        }
        const native = parseNative(text);
        expect(result.ok).toBe(native.ok);
        if (result.ok && native.ok) expect(result.value).toEqual(native.value);
        if (!result.ok) expect(['empty', 'syntax', 'trailing_data']).toContain(result.error.reason);
      }),
      { numRuns: 3_000 },
    );
  });

  test('never throws on any bytes and rejects whatever a fatal UTF-8 decoder rejects', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const result = readJson(bytes);
        let decodes = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          decodes = false;
        }
        if (!decodes) expect(result.ok || result.error.reason).toBe('not_utf8');
      }),
      { numRuns: 2_000 },
    );
  });

  test('reports exactly the duplicate members present at any depth', () => {
    fc.assert(
      fc.property(tree, (node) => {
        const text = serialize(node);
        const result = readJson(text);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.value).toEqual(JSON.parse(text));
        expect(result.duplicates).toEqual(expectedDuplicates(node, '', []));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('scanJson', () => {
  test('accepts exactly the texts JSON.parse accepts', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
        const error = scanJson(text, start, 10_000);
        const accepted = error === undefined && text.slice(start).trim() !== '';
        expect(accepted).toBe(parseNative(text).ok);
      }),
      { numRuns: 3_000 },
    );
  });
});

const BOUNDARY_BYTES = [
  0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0,
];

/** UTF-8 text with a few bytes spliced in, biased towards the edges of Unicode Table 3-7. */
const nearUtf8 = fc
  .tuple(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.array(fc.constantFrom(...BOUNDARY_BYTES, 0xf4, 0xf5, 0xff), { maxLength: 3 }),
    fc.nat(),
  )
  .map(([text, inserted, at]) => {
    const bytes = [...new TextEncoder().encode(text)];
    bytes.splice(at % (bytes.length + 1), 0, ...inserted);
    return new Uint8Array(bytes);
  });

describe('findInvalidUtf8', () => {
  test('finds an ill-formed sequence exactly when a fatal TextDecoder refuses the bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.oneof(nearUtf8, fc.uint8Array({ maxLength: 12 })), (bytes) => {
        let decodes = true;
        try {
          decoder.decode(bytes);
        } catch {
          decodes = false;
        }
        expect(findInvalidUtf8(bytes) === bytes.length).toBe(decodes);
        if (!decodes) {
          const offset = findInvalidUtf8(bytes);
          expect(() => decoder.decode(bytes.subarray(0, offset))).not.toThrow();
        }
      }),
      { numRuns: 5_000 },
    );
  });
});
