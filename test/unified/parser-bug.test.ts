import { describe, expect, test } from 'vitest';
import { normalizeResponse, normalizeStream, validateUnifiedOutput } from '../../src/unified/index.js';

/**
 * A parser that throws something other than ShapeError has a bug: the answer says so (INTERNAL_ERROR from
 * system), instead of blaming the provider's body (INVALID_PROVIDER_RESPONSE) for it.
 */
describe('a parser bug', () => {
  /** A body whose reading throws a TypeError, as a parser bug would. */
  const buggy = {
    get choices(): unknown {
      throw new TypeError("Cannot read properties of undefined (reading 'message')");
    },
  };

  test('is INTERNAL_ERROR from system with a clear message, never "the response is not understood"', () => {
    const output = normalizeResponse({ format: 'openai.chat', body: buggy, traceId: 't-bug' });
    expect(validateUnifiedOutput(output).violations).toEqual([]);
    expect(output).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'INTERNAL_ERROR', details: { format: 'openai.chat', error: 'TypeError' } },
      metadata: { trace_id: 't-bug' },
    });
    const message = output.success ? '' : output.error.message;
    expect(message).toMatch(/^verdict failed to read this openai\.chat response/);
    expect(message).toContain("Cannot read properties of undefined (reading 'message')");
    expect(message).not.toMatch(/not understood/);
  });

  test('in a stream too', () => {
    const output = normalizeStream({ format: 'openai.chat', events: [buggy] });
    expect(output).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
  });

  test('a body of the wrong shape is still the provider’s INVALID_PROVIDER_RESPONSE', () => {
    const output = normalizeResponse({ format: 'openai.chat', body: { choices: 'no' } });
    expect(output).toMatchObject({ provider: 'openai', error: { code: 'INVALID_PROVIDER_RESPONSE' } });
  });
});
