import { describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMA_URL } from '../contract/codes.js';
import { RESULT_CONTRACT_SCHEMA } from '../contract/contract-schema.js';
import { classifyOutputSchema } from './classify-output-schema.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit deep copies of JSON schemas freely.
type Editable = any;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** An independent copy of the canonical schema: other annotations, other member and item order, no $id. */
function independentCopy(): Record<string, unknown> {
  const copy = clone(RESULT_CONTRACT_SCHEMA) as Editable;
  delete copy.$id;
  copy.$schema = 'https://json-schema.org/draft/2020-12/schema#';
  copy.title = 'Result envelope';
  copy.description = 'Written by another team.';
  copy.$comment = 'copied by hand';
  copy.properties.message.description = 'What happened, in words.';
  copy.properties.message.examples = ['Done.'];
  copy.properties.details.default = {};
  copy.properties.meta.properties.duration_ms.readOnly = true;
  copy.required = ['message', 'success'];
  copy.allOf = [...copy.allOf]
    .reverse()
    .map((item: Record<string, unknown>) => ({ ...item, description: 'rule' }));
  copy.additionalProperties = true;
  return Object.fromEntries(Object.entries(copy).reverse());
}

const structuralCore = {
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string', minLength: 1, pattern: '\\S' },
    error_code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    output: { type: 'string' },
  },
};

describe('classifyOutputSchema', () => {
  const nestInAllOf = (inner: unknown, levels: number) => {
    let schema = inner;
    for (let i = 0; i < levels; i++) schema = { allOf: [schema] };
    return schema;
  };

  test('classifies an allOf chain nested 20,000 deep without overflowing the stack', () => {
    expect(classifyOutputSchema(nestInAllOf({ $ref: CONTRACT_SCHEMA_URL }, 20_000)).mode).toBe(
      'canonical_allof',
    );
    expect(classifyOutputSchema(nestInAllOf({ type: 'object' }, 20_000))).toMatchObject({
      mode: null,
      violations: expect.arrayContaining([expect.objectContaining({ code: 'output_schema_not_contract' })]),
    });
  });

  test('still finds the canonical schema inline at the bottom of a deep allOf chain', () => {
    expect(classifyOutputSchema(nestInAllOf(RESULT_CONTRACT_SCHEMA, 5_000)).mode).toBe('canonical_allof');
  });

  test('recognises a $ref to the canonical URL as canonical_ref and warns that SDK clients reject it', () => {
    const result = classifyOutputSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $ref: CONTRACT_SCHEMA_URL,
    });
    expect(result.mode).toBe('canonical_ref');
    expect(result.warnings.map((w) => w.code)).toEqual(['output_schema_not_portable']);
  });

  test('recognises the canonical schema itself as canonical_inline', () => {
    expect(classifyOutputSchema(RESULT_CONTRACT_SCHEMA).mode).toBe('canonical_inline');
  });

  test('recognises an independent copy with other descriptions and no $id as canonical_inline', () => {
    const result = classifyOutputSchema(independentCopy());
    expect(result).toEqual({ mode: 'canonical_inline', violations: [], warnings: [] });
  });

  test('does not take a changed constraint for the canonical schema', () => {
    const loosened = clone(RESULT_CONTRACT_SCHEMA) as Editable;
    loosened.properties.details = {};
    expect(classifyOutputSchema(loosened).mode).toBe('structural_core');
    loosened.properties.message.minLength = 0;
    expect(classifyOutputSchema(loosened).mode).toBeNull();
    const dropped = clone(RESULT_CONTRACT_SCHEMA) as Editable;
    dropped.allOf.pop();
    expect(classifyOutputSchema(dropped).mode).not.toBe('canonical_inline');
  });

  test('treats member names under properties as data, not as annotations', () => {
    const extra = clone(RESULT_CONTRACT_SCHEMA) as Editable;
    extra.properties.title = { type: 'integer' };
    expect(classifyOutputSchema(extra).mode).toBe('structural_core');
  });

  test('recognises the SDK adapter form (type object + allOf with the canonical schema without $id) as canonical_allof', () => {
    const { $id: _id, ...inline } = RESULT_CONTRACT_SCHEMA;
    const schema = {
      type: 'object',
      required: ['success', 'message'],
      properties: { success: { type: 'boolean' }, message: { type: 'string' }, files: { type: 'array' } },
      allOf: [inline],
    };
    expect(classifyOutputSchema(schema)).toEqual({ mode: 'canonical_allof', violations: [], warnings: [] });
  });

  test('finds a canonical allOf item recursively, by reference too', () => {
    const nested = {
      type: 'object',
      allOf: [{ allOf: [{ minProperties: 2 }, { $ref: CONTRACT_SCHEMA_URL }] }],
    };
    expect(classifyOutputSchema(nested).mode).toBe('canonical_allof');
  });

  test('classifies the structural core with a warning that it proves less', () => {
    const result = classifyOutputSchema(structuralCore);
    expect(result.mode).toBe('structural_core');
    expect(result.warnings.map((w) => w.code)).toEqual(['output_schema_structural_only']);
  });

  test('accepts error as the failure field of the structural core', () => {
    const { error_code: _code, ...properties } = structuralCore.properties;
    const schema = {
      ...structuralCore,
      properties: { ...properties, error: { type: 'string', minLength: 2, pattern: '\\S' } },
    };
    expect(classifyOutputSchema(schema).mode).toBe('structural_core');
  });

  test.each([
    ['success typed as a list', { success: { type: ['boolean'] } }, '/properties/success'],
    ['message without pattern', { message: { type: 'string', minLength: 1 } }, '/properties/message'],
    [
      'message with a fractional minLength',
      { message: { type: 'string', minLength: 1.5, pattern: '\\S' } },
      '/properties/message',
    ],
    ['no failure field', { error_code: { type: 'string' } }, '/properties'],
  ])('reports output_schema_not_contract for %s', (_name, override, path) => {
    const schema = { ...structuralCore, properties: { ...structuralCore.properties, ...override } };
    const result = classifyOutputSchema(schema);
    expect(result.mode).toBeNull();
    expect(result.violations.map((v) => `${v.code} ${v.path}`)).toEqual([
      `output_schema_not_contract ${path}`,
    ]);
  });

  test('reports every structural gap at once', () => {
    const result = classifyOutputSchema({ properties: {} });
    expect(result.violations.map((v) => v.path)).toEqual([
      '/type',
      '/required',
      '/required',
      '/properties/success',
      '/properties/message',
      '/properties',
    ]);
  });

  test('reports output_schema_not_object for a schema that is not an object', () => {
    for (const schema of [true, null, [], 'object']) {
      const result = classifyOutputSchema(schema);
      expect(result.mode).toBeNull();
      expect(result.violations.map((v) => v.code)).toEqual(['output_schema_not_object']);
    }
  });
});
