import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { fail, ok } from '../contract/builders.js';
import { classifyOutputSchema } from './classify-output-schema.js';
import { resultOutputSchema } from './result-output-schema.js';

const HASH = {
  type: 'object',
  required: ['hash'],
  properties: { hash: { type: 'string', pattern: '^[0-9a-f]+$' }, size: { $ref: '#/$defs/count' } },
  $defs: { count: { type: 'integer', minimum: 0 } },
};

function compile(schema: object) {
  return new Ajv2020({ strict: false, logger: false }).compile(schema);
}

describe('resultOutputSchema', () => {
  test('is an object schema requiring the core, classified canonical_allof', () => {
    const schema = resultOutputSchema();
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['success', 'message']);
    expect(Object.keys(schema.properties as object)).toEqual([
      'success',
      'message',
      'error',
      'error_code',
      'details',
      'warnings',
      'meta',
    ]);
    expect(classifyOutputSchema(schema).mode).toBe('canonical_allof');
    expect(classifyOutputSchema(resultOutputSchema(HASH)).mode).toBe('canonical_allof');
  });

  test('carries no $id or $schema anywhere, so many tools can share one Ajv instance', () => {
    const text = JSON.stringify(resultOutputSchema(HASH));
    expect(text).not.toContain('$id');
    expect(text).not.toContain('$schema');
    const ajv = new Ajv2020({ strict: false, logger: false });
    expect(() => {
      ajv.compile(resultOutputSchema(HASH));
      ajv.compile(resultOutputSchema());
    }).not.toThrow();
  });

  test('lists the domain properties and keeps $defs resolvable', () => {
    const schema = resultOutputSchema(HASH);
    expect(schema.properties).toMatchObject({ hash: HASH.properties.hash, size: { $ref: '#/$defs/count' } });
    const check = compile(schema);
    expect(check(ok('Hashed.', { hash: 'ab', size: 2 }))).toBe(true);
    expect(check(ok('Hashed.', { hash: 'ab', size: -1 }))).toBe(false);
  });

  test('applies the domain required list to successes only', () => {
    const check = compile(resultOutputSchema(HASH));
    expect(check(ok('Hashed.'))).toBe(false);
    expect(check(fail('No file.', { error_code: 'path_not_found' }))).toBe(true);
  });

  test('a closed domain schema (additionalProperties or unevaluatedProperties false) still accepts its successes', () => {
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
      const check = compile(resultOutputSchema({ ...HASH, [keyword]: false }));
      expect(check(ok('Hashed.', { hash: 'ab', size: 2 })), keyword).toBe(true);
      expect(check(ok('Hashed.', { hash: 'ab', extra: 1 })), keyword).toBe(false);
      expect(check(fail('No file.', { error_code: 'path_not_found' })), keyword).toBe(true);
    }
  });

  test('keeps the contract rules: a success with error_code or a bare failure is rejected', () => {
    const check = compile(resultOutputSchema(HASH));
    expect(check({ success: true, message: 'Hashed.', hash: 'ab', error_code: 'x' })).toBe(false);
    expect(check({ success: false, message: 'No.' })).toBe(false);
    expect(check({ success: false, message: ' ', error: 'x' })).toBe(false);
  });

  test('a domain schema cannot redefine the core members', () => {
    const schema = resultOutputSchema({ type: 'object', properties: { success: { type: 'string' } } });
    expect((schema.properties as Record<string, unknown>).success).toEqual({
      description: 'True only when the requested operation completed successfully.',
      type: 'boolean',
    });
  });
});
