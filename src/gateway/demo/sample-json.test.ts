import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { sampleJson } from './sample-json.js';

const ajv = new Ajv2020({ strict: false, validateFormats: false });

/** Schemas of the shapes tools and `json_schema` requests use; each sample must validate against its schema. */
const SCHEMAS: [string, Record<string, unknown>][] = [
  [
    'a flat object',
    {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    },
  ],
  [
    'bounds on numbers',
    {
      type: 'object',
      properties: {
        score: { type: 'number', minimum: 3.5, maximum: 4 },
        count: { type: 'integer', exclusiveMinimum: 10 },
        small: { type: 'integer', exclusiveMaximum: 0 },
        step: { type: 'integer', minimum: 5, multipleOf: 7 },
      },
      required: ['score', 'count', 'small', 'step'],
    },
  ],
  [
    'lengths of strings and arrays',
    {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 12, maxLength: 14 },
        tags: { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 2, maxItems: 2 },
      },
      required: ['code', 'tags'],
      additionalProperties: false,
    },
  ],
  [
    'enum, const, nullable types',
    {
      type: 'object',
      properties: {
        unit: { enum: ['celsius', 'fahrenheit'] },
        kind: { const: 'forecast' },
        note: { type: ['null', 'string'] },
      },
      required: ['unit', 'kind', 'note'],
    },
  ],
  [
    'local $ref and $defs',
    {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
      required: ['from', 'to'],
    },
  ],
  [
    'anyOf, oneOf and allOf',
    {
      type: 'object',
      properties: {
        either: { anyOf: [{ type: 'integer', minimum: 2 }, { type: 'string' }] },
        one: { oneOf: [{ type: 'boolean' }, { type: 'object' }] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'integer' } }, required: ['b'] },
          ],
        },
      },
      required: ['either', 'one', 'both'],
    },
  ],
  [
    'formats',
    {
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        id: { type: 'string', format: 'uuid' },
      },
      required: ['at', 'mail', 'id'],
    },
  ],
  [
    'a recursive schema, bounded',
    {
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    },
  ],
];

describe('sampleJson', () => {
  test.each(SCHEMAS)('makes a value that %s accepts', (_, schema) => {
    const value = sampleJson(schema);
    const validate = ajv.compile(schema);
    expect(validate(value), JSON.stringify({ value, errors: validate.errors })).toBe(true);
  });

  test('fills every declared property and takes strings from the hints by name', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, note: { type: 'string' } } };
    expect(sampleJson(schema, { city: 'Oslo' })).toEqual({ city: 'Oslo', note: 'demo note' });
  });

  test('stays small whatever a schema asks for: huge lengths, huge arrays nested deep', () => {
    const nested = (depth: number): Record<string, unknown> =>
      depth === 0
        ? { type: 'string', minLength: 1_000_000_000 }
        : { type: 'array', minItems: 1_000_000_000, items: nested(depth - 1) };
    const text = JSON.stringify(sampleJson(nested(8)));
    expect(text.length).toBeLessThan(5_000_000);
  });

  test('answers the same value for the same schema', () => {
    for (const [, schema] of SCHEMAS) expect(sampleJson(schema)).toEqual(sampleJson(schema));
  });
});
