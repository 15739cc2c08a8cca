import fc from 'fast-check';

/**
 * Generators of result documents as JSON text, valid and near-valid, for the property tests.
 * A document is generated as a tree of {@link JsonNode}s and rendered with chosen number spellings and JSON
 * whitespace, so the text holds what `JSON.stringify` never writes (`1.0`, `1e0`, `-0`, `\u` escapes).
 */
export type JsonNode =
  | { kind: 'literal'; text: string }
  | { kind: 'string'; value: string; escaped: boolean }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; members: [string, JsonNode][] };

/** Characters JSON Schema's `\S` (ECMAScript `\s`) counts as whitespace. */
export const ECMA_WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u000c',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];

/** Characters a careless `trim()` or `str.strip()` may call whitespace but ECMAScript `\s` does not. */
export const NOT_ECMA_WHITESPACE = ['\u001c', '\u001d', '\u001e', '\u001f', '\u0085', '\u180e', '\u200b'];

const lit = (text: string): JsonNode => ({ kind: 'literal', text });
const str = (value: string, escaped = false): JsonNode => ({ kind: 'string', value, escaped });

/** Strings that are blank by the contract's rule: empty or only ECMAScript whitespace. */
export const blankString = fc.oneof(
  fc.constant(''),
  fc.array(fc.constantFrom(...ECMA_WHITESPACE), { minLength: 1, maxLength: 4 }).map((cs) => cs.join('')),
);

/** Strings with at least one non-whitespace character, often odd ones. */
export const nonBlankString = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /\S/.test(s)),
  fc
    .tuple(
      fc.array(fc.constantFrom(...ECMA_WHITESPACE), { maxLength: 3 }),
      fc.constantFrom('a', 'Done.', 'é', '😀', ...NOT_ECMA_WHITESPACE),
      fc.array(fc.constantFrom(...ECMA_WHITESPACE), { maxLength: 3 }),
    )
    .map(([before, middle, after]) => before.join('') + middle + after.join('')),
);

/** Strings that match `^[a-z][a-z0-9_]*$`. */
export const errorCode = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);

const nearMissCode = fc.constantFrom(
  'A',
  'Abc',
  '1abc',
  '_abc',
  'abc-def',
  'abc ',
  ' abc',
  'abc\n',
  'ab.c',
  'é',
);

const stringNode = (arb: fc.Arbitrary<string>) =>
  fc.tuple(arb, fc.boolean()).map(([value, escaped]) => str(value, escaped));

/** Member names that are ordinary data but look special to JavaScript. */
const memberName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'Success', ' message'),
  fc.string({ maxLength: 6 }),
);

/** A JSON value of any kind, a few levels deep, with edge-case numbers and odd member names. */
export const anyNode: fc.Arbitrary<JsonNode> = fc.letrec<{ node: JsonNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      lit('null'),
      lit('true'),
      lit('false'),
      lit('0'),
      lit('-0'),
      lit('1.0'),
      lit('1e0'),
      lit('-1'),
      lit('1e308'),
      lit('-1.5e-300'),
      lit('123456789012345678901234567890'),
    ),
    stringNode(fc.oneof(blankString, nonBlankString)),
    fc.array(tie('node'), { maxLength: 3 }).map((items): JsonNode => ({ kind: 'array', items })),
    fc
      .uniqueArray(fc.tuple(memberName, tie('node')), { maxLength: 3, selector: ([key]) => key })
      .map((members): JsonNode => ({ kind: 'object', members })),
  ),
})).node;

const object = (members: [string, JsonNode][]): JsonNode => ({ kind: 'object', members });
const nonObject = fc.constantFrom(lit('null'), lit('[]'), lit('"x"'), lit('1'), lit('true'), lit('[{}]'));

/** A member value from a weighted pool, or absent (`undefined`). */
const member = (
  ...pools: { weight: number; arbitrary: fc.Arbitrary<JsonNode | undefined> }[]
): fc.Arbitrary<JsonNode | undefined> => fc.oneof(...pools);

const absent = { weight: 6, arbitrary: fc.constant(undefined) };
const wrongType = { weight: 1, arbitrary: fc.oneof(nonObject, anyNode) };

const textMember = (absentWeight: number) =>
  member(
    { weight: absentWeight, arbitrary: fc.constant(undefined) },
    { weight: 12, arbitrary: stringNode(nonBlankString) },
    { weight: 1, arbitrary: stringNode(blankString) },
    wrongType,
  );

const numberSpellingsOfOne = ['1', '1.0', '1e0', '1E0', '10e-1', '0.1e1', '1.00', '1.0000000000000001'];

const metaMember = fc
  .record({
    schema_version: member(
      absent,
      { weight: 6, arbitrary: fc.constantFrom(...numberSpellingsOfOne).map(lit) },
      { weight: 1, arbitrary: fc.constantFrom('true', '"1"', '2', '0', '-1', 'null', '0.9999').map(lit) },
    ),
    command: textMember(6),
    duration_ms: member(
      absent,
      {
        weight: 6,
        arbitrary: fc
          .constantFrom('0', '-0', '-0.0', '0e5', '1.5', '1e3', '1e308', '42', '4.9e-324')
          .map(lit),
      },
      { weight: 1, arbitrary: fc.constantFrom('-1', '-1e-300', '"5"', 'null', 'true', '[]').map(lit) },
    ),
    command_maturity: member(
      absent,
      { weight: 4, arbitrary: fc.constantFrom(lit('{}'), lit('{"a":1}')) },
      wrongType,
    ),
    // Inside meta, the names of top-level members and near misses of meta's own are ordinary extras.
    extra: fc.uniqueArray(
      fc.tuple(fc.oneof(memberName, fc.constantFrom('meta', 'success', 'error', 'schema_version ')), anyNode),
      { maxLength: 2, selector: ([key]) => key },
    ),
  })
  .map(({ extra, ...known }) => {
    const members: [string, JsonNode][] = [];
    for (const [key, value] of Object.entries(known)) if (value !== undefined) members.push([key, value]);
    for (const [key, value] of extra) if (!Object.hasOwn(known, key)) members.push([key, value]);
    return object(members);
  });

const CORE = ['success', 'message', 'error', 'error_code', 'details', 'warnings', 'meta'];

const TRUE = lit('true');
const FALSE = lit('false');

/** Mostly what the outcome calls for, sometimes what it forbids. */
const failureMembers = (success: JsonNode | undefined) => {
  const isSuccess = success === TRUE;
  const isFailure = success === FALSE;
  const expected = (weight: number) => ({ weight, arbitrary: fc.constant(undefined) });
  return fc.record({
    error: isSuccess
      ? member(expected(12), { weight: 1, arbitrary: stringNode(nonBlankString) }, wrongType)
      : textMember(isFailure ? 2 : 4),
    error_code: member(
      expected(isSuccess ? 12 : 2),
      { weight: isSuccess ? 1 : 4, arbitrary: stringNode(errorCode) },
      { weight: 1, arbitrary: stringNode(nearMissCode) },
      wrongType,
    ),
  });
};

const resultNode: fc.Arbitrary<JsonNode> = member(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 16, arbitrary: fc.constantFrom(TRUE, FALSE) },
  { weight: 2, arbitrary: fc.constantFrom('"true"', '1', '0', 'null', '{}', '[]').map(lit) },
).chain((success) =>
  fc
    .record({
      failure: failureMembers(success),
      message: textMember(1),
      details: member(
        absent,
        { weight: 4, arbitrary: fc.constantFrom(lit('{}'), lit('{"n":1}')) },
        wrongType,
      ),
      warnings: member(
        absent,
        {
          weight: 6,
          arbitrary: fc
            .array(
              fc.oneof(
                { weight: 12, arbitrary: stringNode(nonBlankString) },
                { weight: 1, arbitrary: stringNode(blankString) },
                { weight: 1, arbitrary: anyNode },
              ),
              { maxLength: 4 },
            )
            .map((items): JsonNode => ({ kind: 'array', items })),
        },
        wrongType,
      ),
      meta: member(absent, { weight: 8, arbitrary: metaMember }, wrongType),
      extra: fc.uniqueArray(fc.tuple(memberName, anyNode), { maxLength: 3, selector: ([key]) => key }),
      order: fc.array(fc.nat(), { minLength: CORE.length, maxLength: CORE.length }),
    })
    .map(({ failure, extra, order, ...rest }) => {
      const known: Record<string, JsonNode | undefined> = { success, ...failure, ...rest };
      const members: [string, JsonNode][] = [];
      for (const key of CORE) {
        const value = known[key];
        if (value !== undefined) members.push([key, value]);
      }
      // Member order must not matter: shuffle the core members by the generated ranks.
      const ranked = members.map((m, i) => [order[i] ?? 0, m] as const).sort((a, b) => a[0] - b[0]);
      const shuffled = ranked.map(([, m]) => m);
      for (const [key, value] of extra) if (!CORE.includes(key)) shuffled.push([key, value]);
      return object(shuffled);
    }),
);

/** A result document: valid, near-valid (one or more members wrong), or not an object at all. */
export const documentNode: fc.Arbitrary<JsonNode> = fc.oneof(
  { weight: 20, arbitrary: resultNode },
  { weight: 1, arbitrary: nonObject },
);

const JSON_WHITESPACE = ['', '', '', ' ', '\n', '\t', '\r\n'];

/** Escapes every character of a string as `\uXXXX`, a spelling JSON.stringify never uses. */
function escapeAll(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) out += `\\u${value.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return `${out}"`;
}

/** Renders a node as JSON text; `seed` picks the whitespace between tokens deterministically. */
export function renderJson(node: JsonNode, seed = 0): string {
  let turn = seed;
  const space = () => JSON_WHITESPACE[turn++ % JSON_WHITESPACE.length];
  const render = (n: JsonNode): string => {
    switch (n.kind) {
      case 'literal':
        return n.text;
      case 'string':
        return n.escaped ? escapeAll(n.value) : JSON.stringify(n.value);
      case 'array':
        return `[${space()}${n.items.map(render).join(`,${space()}`)}${space()}]`;
      case 'object':
        return `{${space()}${n.members.map(([k, v]) => `${JSON.stringify(k)}${space()}:${space()}${render(v)}`).join(`,${space()}`)}${space()}}`;
    }
  };
  return `${space()}${render(node)}${space()}`;
}

/** A generated document rendered as JSON text. */
export const documentText: fc.Arbitrary<string> = fc
  .tuple(documentNode, fc.nat({ max: 1000 }))
  .map(([node, seed]) => renderJson(node, seed));
