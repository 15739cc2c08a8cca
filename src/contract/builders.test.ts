import { describe, expect, test } from 'vitest';
import { fail, ok } from './builders.js';
import { CONTRACT_SCHEMA_URL } from './codes.js';
import { ensureResult } from './ensure-result.js';
import { isVerdictError, VerdictError } from './errors.js';
import { resultContractSchema } from './standard-schema.js';

const thrownCode = (build: () => unknown) => {
  try {
    build();
  } catch (thrown) {
    return isVerdictError(thrown) ? thrown.code : `not a VerdictError: ${String(thrown)}`;
  }
  return 'nothing thrown';
};

describe('ok', () => {
  test('builds a success with domain fields after the core members', () => {
    const result = ok('Found 2 files.', { matches: ['a', 'b'], details: { root: '.' } });
    expect(result).toEqual({
      success: true,
      message: 'Found 2 files.',
      matches: ['a', 'b'],
      details: { root: '.' },
    });
    expect(Object.keys(result).slice(0, 2)).toEqual(['success', 'message']);
  });

  test('drops members whose value is undefined instead of inventing them', () => {
    expect(ok('x', { size: undefined, name: 'a' })).toEqual({ success: true, message: 'x', name: 'a' });
  });

  test('throws invalid_builder_input for a blank message', () => {
    expect(thrownCode(() => ok('   '))).toBe('invalid_builder_input');
  });

  test('throws when a domain field would overwrite a core member', () => {
    for (const core of ['success', 'message', 'error', 'error_code']) {
      expect(thrownCode(() => ok('x', { [core]: 'boom' } as never))).toBe('invalid_builder_input');
    }
  });

  test('throws when an optional member has the wrong type', () => {
    expect(thrownCode(() => ok('x', { details: [] as never }))).toBe('invalid_builder_input');
    expect(thrownCode(() => ok('x', { warnings: [''] }))).toBe('invalid_builder_input');
  });

  test('keeps a __proto__ domain field as an ordinary member', () => {
    const fields = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const result = ok('x', fields) as Record<string, unknown>;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});

describe('fail', () => {
  test('builds a failure with error and error_code first', () => {
    const result = fail('No such file.', {
      error_code: 'path_not_found',
      error: 'a.txt is missing',
      path: 'a.txt',
    });
    expect(Object.keys(result)).toEqual(['success', 'message', 'error', 'error_code', 'path']);
  });

  test('throws when neither error nor error_code is given', () => {
    expect(thrownCode(() => fail('x', {} as never))).toBe('invalid_builder_input');
    expect(thrownCode(() => fail('x', { error: undefined } as never))).toBe('invalid_builder_input');
  });

  test('throws for an error_code that does not match ^[a-z][a-z0-9_]*$', () => {
    expect(thrownCode(() => fail('x', { error_code: 'NotFound' }))).toBe('invalid_builder_input');
  });

  test('throws for a blank error and a blank message', () => {
    expect(thrownCode(() => fail('x', { error: ' ' }))).toBe('invalid_builder_input');
    expect(thrownCode(() => fail('', { error: 'e' }))).toBe('invalid_builder_input');
  });

  test('throws when a field would overwrite success or message', () => {
    expect(thrownCode(() => fail('x', { error: 'e', success: true } as never))).toBe('invalid_builder_input');
  });
});

describe('ensureResult', () => {
  test('returns a conforming result unchanged, the same object', () => {
    const result = { success: true, message: 'ok' };
    expect(ensureResult(result)).toBe(result);
  });

  test('replaces a non-conforming result with an invalid_result_contract failure that lists the violations', () => {
    const replaced = ensureResult({ success: true, message: 'ok', error_code: 'oops' });
    expect(replaced).toMatchObject({
      success: false,
      error_code: 'invalid_result_contract',
      details: {
        contract: CONTRACT_SCHEMA_URL,
        violations: [{ code: 'success_with_error', path: '/error_code' }],
      },
      meta: { schema_version: 1 },
    });
    expect(ensureResult(replaced)).toBe(replaced);
  });

  test('replaces values that are not objects at all', () => {
    expect(ensureResult(undefined)).toMatchObject({ success: false, error_code: 'invalid_result_contract' });
  });
});

describe('resultContractSchema', () => {
  test('validates through the Standard Schema interface with paths as keys', () => {
    const standard = resultContractSchema['~standard'];
    expect(standard.validate({ success: true, message: 'ok' })).toEqual({
      value: { success: true, message: 'ok' },
    });
    const failed = standard.validate({ success: true, message: 'ok', warnings: ['fine', ''] });
    expect(failed.issues?.[0]?.path).toEqual(['warnings', 1]);
  });

  test('gives its JSON Schema for draft-2020-12 and draft-07 and refuses other targets', () => {
    const { jsonSchema } = resultContractSchema['~standard'];
    expect(jsonSchema.output({ target: 'draft-2020-12' }).$id).toBe(CONTRACT_SCHEMA_URL);
    expect(jsonSchema.input({ target: 'draft-07' }).$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(() => jsonSchema.input({ target: 'openapi-3.0' })).toThrow(VerdictError);
  });
});
