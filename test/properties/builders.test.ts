import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fail, isVerdictError, ok, validateResult } from '../../src/index.js';
import { blankString, errorCode, nonBlankString } from './arbitraries.js';

const CORE = new Set(['success', 'message', 'error', 'error_code', 'details', 'warnings', 'meta']);

/** Domain fields: any JSON values under any names but the contract's own members. */
const domainFields = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString')),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 4, noNullPrototype: true },
);

const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });

/** The optional members every result may carry, each valid or absent. */
const optionalMembers = fc.record(
  {
    details: jsonObject,
    warnings: fc.array(nonBlankString, { maxLength: 3 }),
    meta: fc.record(
      {
        schema_version: fc.constant(1 as const),
        command: nonBlankString,
        duration_ms: fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
        command_maturity: jsonObject,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

function withoutCore(fields: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (!CORE.has(key)) Object.defineProperty(copy, key, { value, enumerable: true, writable: true });
  }
  return copy;
}

/** `{ error }`, `{ error_code }` or both. */
const failureFields = fc.oneof(
  fc.record({ error: nonBlankString }),
  fc.record({ error_code: errorCode }),
  fc.record({ error: nonBlankString, error_code: errorCode }),
);

describe('ok and fail', () => {
  test('whatever ok builds validates and keeps every field', () => {
    fc.assert(
      fc.property(nonBlankString, domainFields, optionalMembers, (message, domain, optional) => {
        const fields = { ...withoutCore(domain), ...optional };
        const result = ok(message, fields);
        expect(validateResult(result).valid).toBe(true);
        expect(result.success).toBe(true);
        expect(result.message).toBe(message);
        for (const key of Object.keys(fields)) expect(Object.hasOwn(result, key)).toBe(true);
        expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      }),
      { numRuns: 500 },
    );
  });

  test('whatever fail builds validates and carries its error fields', () => {
    fc.assert(
      fc.property(
        nonBlankString,
        failureFields,
        domainFields,
        optionalMembers,
        (message, failure, domain, optional) => {
          const result = fail(message, { ...withoutCore(domain), ...optional, ...failure });
          expect(validateResult(result).valid).toBe(true);
          expect(result.success).toBe(false);
          const expected = failure as { error?: string; error_code?: string };
          expect(result.error).toBe(expected.error);
          expect(result.error_code).toBe(expected.error_code);
          expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('a blank message is refused with a VerdictError, never built', () => {
    fc.assert(
      fc.property(blankString, failureFields, (message, failure) => {
        expect(() => ok(message)).toThrow(expect.objectContaining({ code: 'invalid_builder_input' }));
        let thrown: unknown;
        try {
          fail(message, failure);
        } catch (error) {
          thrown = error;
        }
        expect(isVerdictError(thrown)).toBe(true);
      }),
    );
  });

  test('an error code outside ^[a-z][a-z0-9_]*$ is refused', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }).filter((code) => !/^[a-z][a-z0-9_]*$/.test(code)),
        (code) => {
          expect(() => fail('Broke.', { error_code: code })).toThrow(
            expect.objectContaining({ code: 'invalid_builder_input' }),
          );
        },
      ),
    );
  });
});
