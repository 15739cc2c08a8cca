import { describe, expect, test } from 'vitest';
import { ok } from '../contract/builders.js';
import { runGuarded } from './run-guarded.js';

describe('runGuarded', () => {
  test('returns a conforming result unchanged when no clock is given', async () => {
    const result = ok('Done.', { n: 1 });
    expect(await runGuarded('job', () => result)).toBe(result);
  });

  test('turns a throw and a rejection into unexpected_error, naming the error', async () => {
    const thrown = await runGuarded('job', () => {
      throw new TypeError('boom');
    });
    expect(thrown).toEqual({
      success: false,
      message: 'job failed unexpectedly.',
      error: 'TypeError: boom',
      error_code: 'unexpected_error',
    });
    const rejected = await runGuarded('job', () => Promise.reject(new Error('late')));
    expect(rejected).toMatchObject({ error: 'Error: late', error_code: 'unexpected_error' });
  });

  test('replaces a result that breaks the contract with invalid_result_contract', async () => {
    const result = await runGuarded('job', () => ({ success: true, message: 'ok', error: 'x' }));
    expect(result).toMatchObject({ success: false, error_code: 'invalid_result_contract' });
  });

  test('adds meta measured on the given clock from the given start', async () => {
    let clock = 100;
    const result = await runGuarded(
      'job',
      () => {
        clock = 142;
        return ok('Done.');
      },
      { now: () => clock, started: 90 },
    );
    expect(result.meta).toEqual({ command: 'job', duration_ms: 52, schema_version: 1 });
  });
});
