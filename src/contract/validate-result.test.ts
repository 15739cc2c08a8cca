import { describe, expect, test } from 'vitest';
import { VIOLATION_CODES } from './codes.js';
import { validateResult } from './validate-result.js';
import { validateResultText } from './validate-result-text.js';

const codesOf = (value: unknown) => validateResult(value).violations.map((v) => `${v.code}@${v.path}`);

describe('validateResult', () => {
  test('accepts the success example of the contract page', () => {
    const report = validateResult({
      success: true,
      message: 'Current local date and time returned in ISO 8601 format.',
      output: '2026-08-07T21:45:00-05:00',
      meta: { command: 'getCurrentDateTime', duration_ms: 2.4, schema_version: 1 },
    });
    expect(report).toMatchObject({ valid: true, violations: [] });
  });

  test('accepts a failure with error_code only, and with error only', () => {
    expect(validateResult({ success: false, message: 'No file.', error_code: 'path_not_found' }).valid).toBe(
      true,
    );
    expect(validateResult({ success: false, message: 'No file.', error: 'a.txt does not exist' }).valid).toBe(
      true,
    );
  });

  test('allows unknown members at the top level and inside meta', () => {
    expect(
      validateResult({ success: true, message: 'ok', anything: [1, null], meta: { host: 'x' } }).valid,
    ).toBe(true);
  });

  test.each([null, [], 'text', 1, true])('reports not_an_object for %j', (value) => {
    expect(codesOf(value)).toEqual(['not_an_object@']);
  });

  test('reports success_not_boolean when success is missing or a string, and skips the outcome rules', () => {
    expect(codesOf({ message: 'ok' })).toEqual(['success_not_boolean@/success']);
    expect(codesOf({ success: 'true', message: 'ok', error: 'x' })).toEqual(['success_not_boolean@/success']);
    expect(codesOf({ success: null, message: 'ok' })).toEqual(['success_not_boolean@/success']);
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['spaces and tabs', ' \t\n'],
    ['only U+FEFF', '\uFEFF'],
    ['only U+00A0 and U+3000', '\u00A0\u3000'],
    ['a number', 7],
    ['null', null],
  ])('reports message_invalid for a message that is %s', (_, message) => {
    const value = message === undefined ? { success: true } : { success: true, message };
    expect(codesOf(value)).toEqual(['message_invalid@/message']);
  });

  test('treats U+001C, U+001F and U+0085 as visible, as ECMAScript \\S does', () => {
    for (const message of ['\u001C', '\u001F', '\u0085']) {
      expect(validateResult({ success: true, message }).valid).toBe(true);
    }
  });

  test('reports error_invalid for a blank or non-string error', () => {
    expect(codesOf({ success: false, message: 'x', error: '  ' })).toEqual(['error_invalid@/error']);
    expect(codesOf({ success: false, message: 'x', error: 3, error_code: 'a' })).toEqual([
      'error_invalid@/error',
    ]);
  });

  test.each(['Bad', '1abc', 'a-b', '', 'a b', 'é', 'abc\n'])('reports error_code_invalid for %j', (code) => {
    expect(codesOf({ success: false, message: 'x', error_code: code })).toEqual([
      'error_code_invalid@/error_code',
    ]);
  });

  test('accepts error codes with digits and underscores after the first letter', () => {
    expect(validateResult({ success: false, message: 'x', error_code: 'a1_b2_' }).valid).toBe(true);
  });

  test('reports failure_without_error when a failure carries neither error nor error_code', () => {
    expect(codesOf({ success: false, message: 'x' })).toEqual(['failure_without_error@']);
  });

  test('counts a present but invalid error as present for the failure rule, as the schema does', () => {
    expect(codesOf({ success: false, message: 'x', error: null })).toEqual(['error_invalid@/error']);
  });

  test('reports success_with_error for error and error_code on a success, even when null', () => {
    expect(codesOf({ success: true, message: 'x', error_code: 'boom' })).toEqual([
      'success_with_error@/error_code',
    ]);
    expect(codesOf({ success: true, message: 'x', error: null })).toEqual([
      'error_invalid@/error',
      'success_with_error@/error',
    ]);
  });

  test.each([null, [], 'x', 1])('reports details_not_object for details %j', (details) => {
    expect(codesOf({ success: true, message: 'x', details })).toEqual(['details_not_object@/details']);
  });

  test('reports warnings_not_array, and warning_item_invalid once per bad item', () => {
    expect(codesOf({ success: true, message: 'x', warnings: 'careful' })).toEqual([
      'warnings_not_array@/warnings',
    ]);
    expect(codesOf({ success: true, message: 'x', warnings: ['ok', ' ', 3, null, 'fine'] })).toEqual([
      'warning_item_invalid@/warnings/1',
      'warning_item_invalid@/warnings/2',
      'warning_item_invalid@/warnings/3',
    ]);
    expect(validateResult({ success: true, message: 'x', warnings: [] }).valid).toBe(true);
  });

  test('reports meta_not_object', () => {
    expect(codesOf({ success: true, message: 'x', meta: [] })).toEqual(['meta_not_object@/meta']);
  });

  test('accepts meta.schema_version 1 in every spelling and rejects true, "1" and 2', () => {
    for (const text of ['1', '1.0', '1e0', '10e-1']) {
      expect(
        validateResultText(`{"success":true,"message":"x","meta":{"schema_version":${text}}}`).valid,
      ).toBe(true);
    }
    for (const version of [true, '1', 2, null]) {
      expect(codesOf({ success: true, message: 'x', meta: { schema_version: version } })).toEqual([
        'meta_schema_version_invalid@/meta/schema_version',
      ]);
    }
  });

  test('reports meta_command_invalid for a blank command', () => {
    expect(codesOf({ success: true, message: 'x', meta: { command: '' } })).toEqual([
      'meta_command_invalid@/meta/command',
    ]);
  });

  test('accepts -0 and rejects negative, non-finite and non-number durations', () => {
    expect(validateResult({ success: true, message: 'x', meta: { duration_ms: -0 } }).valid).toBe(true);
    for (const duration_ms of [-1, Number.POSITIVE_INFINITY, Number.NaN, '5', null]) {
      expect(codesOf({ success: true, message: 'x', meta: { duration_ms } })).toEqual([
        'meta_duration_invalid@/meta/duration_ms',
      ]);
    }
  });

  test('reports a duration that overflows to Infinity when read from text', () => {
    const report = validateResultText('{"success":true,"message":"x","meta":{"duration_ms":1e400}}');
    expect(report.violations.map((v) => v.code)).toEqual(['meta_duration_invalid']);
  });

  test('reports meta_command_maturity_not_object', () => {
    expect(codesOf({ success: true, message: 'x', meta: { command_maturity: 'beta' } })).toEqual([
      'meta_command_maturity_not_object@/meta/command_maturity',
    ]);
  });

  test('reports every violation at once, never only the first', () => {
    const codes = validateResult({
      success: true,
      message: '',
      error: '',
      error_code: 'X',
      details: null,
      warnings: [''],
      meta: { schema_version: 2, command: ' ', duration_ms: -5, command_maturity: [] },
    }).violations.map((v) => v.code);
    expect(new Set(codes)).toEqual(
      new Set([
        'message_invalid',
        'error_invalid',
        'error_code_invalid',
        'success_with_error',
        'details_not_object',
        'warning_item_invalid',
        'meta_schema_version_invalid',
        'meta_command_invalid',
        'meta_duration_invalid',
        'meta_command_maturity_not_object',
      ]),
    );
  });

  test('never consults the prototype chain for members', () => {
    const inherited = Object.create({ error: 'inherited' }) as Record<string, unknown>;
    inherited.success = true;
    inherited.message = 'ok';
    expect(validateResult(inherited).valid).toBe(true);
  });

  test('has one example for every violation code in the table', () => {
    const examples: Record<string, string> = {
      not_an_object: '[]',
      success_not_boolean: '{"message":"x"}',
      message_invalid: '{"success":true,"message":""}',
      error_invalid: '{"success":false,"message":"x","error":""}',
      error_code_invalid: '{"success":false,"message":"x","error_code":"X"}',
      failure_without_error: '{"success":false,"message":"x"}',
      success_with_error: '{"success":true,"message":"x","error_code":"x"}',
      details_not_object: '{"success":true,"message":"x","details":null}',
      warnings_not_array: '{"success":true,"message":"x","warnings":{}}',
      warning_item_invalid: '{"success":true,"message":"x","warnings":[1]}',
      meta_not_object: '{"success":true,"message":"x","meta":1}',
      meta_schema_version_invalid: '{"success":true,"message":"x","meta":{"schema_version":true}}',
      meta_command_invalid: '{"success":true,"message":"x","meta":{"command":1}}',
      meta_duration_invalid: '{"success":true,"message":"x","meta":{"duration_ms":-1}}',
      meta_command_maturity_not_object: '{"success":true,"message":"x","meta":{"command_maturity":[]}}',
      duplicate_member: '{"success":true,"success":true,"message":"x"}',
    };
    expect(Object.keys(examples).sort()).toEqual(Object.keys(VIOLATION_CODES).sort());
    for (const [code, text] of Object.entries(examples)) {
      expect(validateResultText(text).violations.map((v) => v.code)).toContain(code);
    }
  });
});

describe('validateResultText', () => {
  test('reports duplicate_member at any depth with the path of the object', () => {
    const report = validateResultText('{"success":true,"message":"a","details":{"k":1,"k":2},"message":"b"}');
    expect(report.violations.map((v) => `${v.code}@${v.path}`).sort()).toEqual([
      'duplicate_member@',
      'duplicate_member@/details',
    ]);
  });

  test('returns a read error, not violations, for unreadable input', () => {
    const report = validateResultText('{"success": NaN}');
    expect(report.valid).toBe(false);
    expect(report.readError?.reason).toBe('syntax');
    expect(report.violations).toEqual([]);
  });

  test('accepts a UTF-8 byte order mark with the utf8_bom warning', () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('{"success":true,"message":"x"}'),
    ]);
    const report = validateResultText(bytes);
    expect(report.valid).toBe(true);
    expect(report.warnings.map((w) => w.code)).toEqual(['utf8_bom']);
  });

  test('keeps __proto__ an ordinary member and changes no prototype', () => {
    const report = validateResultText(
      '{"success":true,"message":"x","__proto__":{"polluted":true},"details":{"constructor":{"prototype":{"bad":1}}}}',
    );
    expect(report.valid).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('bad');
  });
});
