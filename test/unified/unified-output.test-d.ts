import { describe, expectTypeOf, test } from 'vitest';
import type {
  UnifiedFailure,
  UnifiedOutput,
  UnifiedSuccess,
  UnifiedViolationCode,
} from '../../src/unified/index.js';

describe('UnifiedOutput', () => {
  test('narrows on success', () => {
    const output = {} as UnifiedOutput;
    if (output.success) {
      expectTypeOf(output).toEqualTypeOf<UnifiedSuccess>();
      expectTypeOf(output.content).toBeString();
    } else {
      expectTypeOf(output).toEqualTypeOf<UnifiedFailure>();
      expectTypeOf(output.error.message).toBeString();
    }
  });

  test('a success cannot carry error and a failure cannot carry success-only members', () => {
    expectTypeOf<UnifiedSuccess['error']>().toEqualTypeOf<undefined>();
    expectTypeOf<UnifiedFailure['content']>().toEqualTypeOf<undefined>();
    expectTypeOf<UnifiedFailure['images']>().toEqualTypeOf<undefined>();
    const bad: UnifiedSuccess = {
      success: true,
      content: '',
      provider: 'openai',
      usage: { input_tokens: 0, output_tokens: 0 },
      metadata: { trace_id: 't' },
      images: [],
      files: [],
      videos: [],
      // @ts-expect-error: a success with an error member does not type-check.
      error: { code: 'X', message: 'm', details: {} },
    };
    void bad;
  });

  test('violation codes are a union of string literals', () => {
    expectTypeOf<'usage_tokens_invalid'>().toExtend<UnifiedViolationCode>();
    expectTypeOf<'nope'>().not.toExtend<UnifiedViolationCode>();
  });
});
