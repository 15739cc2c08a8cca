import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expectTypeOf, test } from 'vitest';
import {
  type FailureResult,
  fail,
  ok,
  type ResultContract,
  resultContractSchema,
  type SuccessResult,
  validateResult,
} from '../../src/index.js';
import { defineCommand } from '../../src/producer/define-command.js';
import type { ParsedOptions } from '../../src/producer/types.js';

describe('ResultContract', () => {
  test('a success cannot carry error or error_code', () => {
    expectTypeOf<{ success: true; message: string }>().toExtend<ResultContract>();
    // @ts-expect-error a success must not carry error_code
    const withCode: ResultContract = { success: true, message: 'Done.', error_code: 'oops' };
    // @ts-expect-error a success must not carry error
    const withError: ResultContract = { success: true, message: 'Done.', error: 'oops' };
    expectTypeOf<{ success: true; message: string; error_code: string }>().not.toExtend<ResultContract>();
    void [withCode, withError];
  });

  test('a failure must carry error or error_code', () => {
    // @ts-expect-error a failure needs error or error_code
    const bare: ResultContract = { success: false, message: 'Broke.' };
    const coded: ResultContract = { success: false, message: 'Broke.', error_code: 'broke' };
    const explained: ResultContract = { success: false, message: 'Broke.', error: 'It broke.' };
    expectTypeOf<{ success: false; message: string }>().not.toExtend<ResultContract>();
    void [bare, coded, explained];
  });

  test('success narrows the union', () => {
    const result = validateResult({}) as unknown as ResultContract;
    if (result.success) {
      expectTypeOf(result).toEqualTypeOf<SuccessResult>();
      expectTypeOf(result.error).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result).toEqualTypeOf<FailureResult>();
      expectTypeOf(result.error).toEqualTypeOf<string | undefined>();
      expectTypeOf(result.error_code).toEqualTypeOf<string | undefined>();
    }
  });

  test('a validation report narrows to a ResultContract when valid', () => {
    const report = validateResult({ success: true, message: 'Done.' });
    if (report.valid) expectTypeOf(report.value).toEqualTypeOf<ResultContract>();
    else expectTypeOf(report).not.toHaveProperty('value');
  });
});

describe('ok and fail', () => {
  test('ok returns a success that keeps its domain fields', () => {
    const result = ok('Found 2 files.', { matches: ['a.txt', 'b.txt'] });
    expectTypeOf(result.success).toEqualTypeOf<true>();
    expectTypeOf(result.matches).toEqualTypeOf<readonly ['a.txt', 'b.txt']>();
    expectTypeOf(result).toExtend<ResultContract>();
  });

  test('ok rejects core members as domain fields', () => {
    // @ts-expect-error error_code is a core member
    ok('Done.', { error_code: 'nope' });
    // @ts-expect-error error is a core member
    ok('Done.', { error: 'nope' });
    // @ts-expect-error success is a core member
    ok('Done.', { success: false });
    // @ts-expect-error message is a core member
    ok('Done.', { message: 'other' });
  });

  test('fail requires error or error_code and keeps its domain fields', () => {
    const result = fail('Missing file.', { error_code: 'path_not_found', path: 'a.txt' });
    expectTypeOf(result.success).toEqualTypeOf<false>();
    expectTypeOf(result.path).toEqualTypeOf<'a.txt'>();
    expectTypeOf(result).toExtend<ResultContract>();
    // @ts-expect-error a failure needs error or error_code
    fail('Missing file.', { path: 'a.txt' });
    // @ts-expect-error fail takes a second argument
    fail('Missing file.');
  });

  test('fail rejects success and message as domain fields', () => {
    // @ts-expect-error success is a core member
    fail('Broke.', { error_code: 'broke', success: true });
    // @ts-expect-error message is a core member
    fail('Broke.', { error_code: 'broke', message: 'other' });
  });
});

describe('resultContractSchema', () => {
  test('is a Standard Schema whose output is a ResultContract', () => {
    expectTypeOf(resultContractSchema).toExtend<StandardSchemaV1>();
    expectTypeOf(resultContractSchema).toExtend<StandardSchemaV1<unknown, ResultContract>>();
    type Output = StandardSchemaV1.InferOutput<typeof resultContractSchema>;
    expectTypeOf<Output>().toEqualTypeOf<ResultContract>();
  });

  test('is a Standard JSON Schema', () => {
    expectTypeOf(resultContractSchema).toExtend<StandardJSONSchemaV1>();
    expectTypeOf(resultContractSchema).toExtend<StandardJSONSchemaV1<unknown, ResultContract>>();
  });
});

describe('defineCommand', () => {
  const command = defineCommand({
    name: 'find',
    description: 'Finds files.',
    options: {
      path: { type: 'string', description: 'Where.', required: true },
      depth: { type: 'integer', description: 'How deep.' },
      limit: { type: 'number', description: 'How many.', default: 10 },
      hidden: { type: 'boolean', description: 'Include hidden files.' },
      exclude: { type: 'string', description: 'Skip these.', multiple: true },
    },
    run: ({ options }) => ok(`Looked in ${options.path}.`),
  });

  test('types every option from its spec', () => {
    type Options = ParsedOptions<typeof command.options>;
    expectTypeOf<Options['path']>().toEqualTypeOf<string>();
    expectTypeOf<Options['depth']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Options['limit']>().toEqualTypeOf<number>();
    expectTypeOf<Options['hidden']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Options['exclude']>().toEqualTypeOf<string[]>();
  });

  test('run must return a contract result', () => {
    defineCommand({
      name: 'bad',
      description: 'Returns something else.',
      options: {},
      // @ts-expect-error a command returns a ResultContract
      run: () => ({ success: true, message: 'Done.', error_code: 'oops' }),
    });
  });
});
