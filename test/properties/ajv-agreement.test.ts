import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RESULT_CONTRACT_SCHEMA, type ViolationCode, validateResultText } from '../../src/index.js';
import { documentText } from './arbitraries.js';

// The reference: Ajv on the project's own schema file, every error reported.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const ajvValidate = ajv.compile(RESULT_CONTRACT_SCHEMA);

const BY_PATH: Record<string, ViolationCode> = {
  '/success': 'success_not_boolean',
  '/message': 'message_invalid',
  '/error': 'error_invalid',
  '/error_code': 'error_code_invalid',
  '/details': 'details_not_object',
  '/warnings': 'warnings_not_array',
  '/meta': 'meta_not_object',
  '/meta/schema_version': 'meta_schema_version_invalid',
  '/meta/command': 'meta_command_invalid',
  '/meta/duration_ms': 'meta_duration_invalid',
  '/meta/command_maturity': 'meta_command_maturity_not_object',
};

/** The verdict code an Ajv error stands for, or undefined for Ajv's summary errors (`if`, `anyOf` items). */
function codeOf(error: ErrorObject): ViolationCode | undefined {
  const { instancePath: path, keyword, params, schemaPath } = error;
  if (path === '') {
    if (keyword === 'type') return 'not_an_object';
    if (keyword === 'required' && schemaPath === '#/required') {
      return params.missingProperty === 'success' ? 'success_not_boolean' : 'message_invalid';
    }
    if (keyword === 'anyOf' && schemaPath === '#/allOf/0/then/anyOf') return 'failure_without_error';
    if (keyword === 'not') return 'success_with_error';
    return undefined; // `if` and the `required` errors inside the anyOf only summarise the ones above
  }
  if (/^\/warnings\/\d+$/.test(path)) return 'warning_item_invalid';
  const code = BY_PATH[path];
  if (code === undefined) throw new Error(`Ajv reported an error at ${path} that no verdict code maps to.`);
  return code;
}

function hasNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasNonFinite);
}

const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

describe('verdict against Ajv (draft 2020-12) on the project schema', () => {
  test('gives the same verdict and the same set of violation codes for generated documents', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const parsed: unknown = JSON.parse(text);
        // Intentional differences, excluded here and listed in the README (Design notes): a literal that overflows
        // to Infinity is not a finite number for verdict but is a number >= 0 for Ajv; the generator never
        // writes duplicate member names, which JSON.parse silently drops and Ajv therefore never sees.
        fc.pre(!hasNonFinite(parsed));
        const ours = validateResultText(text);
        expect(ours.readError).toBeUndefined();
        const theirs = ajvValidate(parsed);
        expect(ours.valid).toBe(theirs);
        const ourCodes = sorted(ours.violations.map((v) => v.code));
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          // Ajv also evaluates the outcome rules on a non-object (`required` holds vacuously there), so it adds
          // a `not` error; the contract stops at not_an_object.
          expect(ourCodes).toEqual(['not_an_object']);
          return;
        }
        const ajvCodes = sorted((ajvValidate.errors ?? []).map(codeOf).filter((c) => c !== undefined));
        expect(ourCodes).toEqual(ajvCodes);
      }),
      { numRuns: 3000 },
    );
  });

  test('agrees on the edge cases the generator is meant to reach', () => {
    const cases = [
      '{"success":true,"message":"\\ufeff"}',
      '{"success":true,"message":"\\u001c"}',
      '{"success":true,"message":"\\u0085"}',
      '{"success":true,"message":"\\u3000\\u2028\\u00a0"}',
      '{"success":true,"message":"ok","meta":{"schema_version":1.0}}',
      '{"success":true,"message":"ok","meta":{"schema_version":1e0}}',
      '{"success":true,"message":"ok","meta":{"schema_version":true}}',
      '{"success":true,"message":"ok","meta":{"duration_ms":-0}}',
      '{"success":true,"message":"ok","meta":{"duration_ms":-1e-300}}',
      '{"success":true,"message":"ok","meta":{"duration_ms":1e308}}',
      '{"success":true,"message":"ok","error":null}',
      '{"success":false,"message":"no","error_code":"abc\\n"}',
      '{"success":"false","message":"no"}',
      '{"success":true,"message":"ok","details":null}',
      '{"success":true,"message":"ok","__proto__":{"success":false}}',
    ];
    const verdicts = cases.map((text) => [
      text,
      validateResultText(text).valid,
      ajvValidate(JSON.parse(text)),
    ]);
    for (const [text, ours, theirs] of verdicts) expect(ours, text as string).toBe(theirs);
    expect(verdicts.map(([, ours]) => ours)).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });
});

describe('intentional differences from Ajv (README, Design notes)', () => {
  test('a duplicate member is a violation for verdict; JSON.parse keeps the last one and Ajv never sees it', () => {
    // The last `success` wins for JSON.parse: a conforming failure for Ajv, an ambiguous result for verdict.
    const text = '{"success":true,"message":"ok","success":false,"error_code":"x"}';
    expect(ajvValidate(JSON.parse(text))).toBe(true);
    expect(validateResultText(text).violations.map((v) => v.code)).toEqual(['duplicate_member']);
  });

  test('a number literal that overflows is not finite for verdict; Ajv sees Infinity as a number >= 0', () => {
    const text = '{"success":true,"message":"ok","meta":{"duration_ms":1e400}}';
    expect(ajvValidate(JSON.parse(text))).toBe(true);
    expect(validateResultText(text).violations.map((v) => v.code)).toEqual(['meta_duration_invalid']);
  });
});
