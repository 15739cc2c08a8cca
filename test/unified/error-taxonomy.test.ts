import { describe, expect, test } from 'vitest';
import {
  checkHttpCoherence,
  codeForProviderStatus,
  createUnifiedFailure,
  createUnifiedSuccess,
  statusForCode,
  UNIFIED_ERROR_CODES,
  type UnifiedErrorCode,
} from '../../src/unified/index.js';

/** The taxonomy table of docs/unified.md, written out again so that a change to the code table has to change this test too. */
const TAXONOMY_TABLE: [UnifiedErrorCode, number][] = [
  ['VALIDATION_ERROR', 400],
  ['CONTEXT_LENGTH_EXCEEDED', 400],
  ['AUTHENTICATION_ERROR', 401],
  ['INSUFFICIENT_CREDITS', 402],
  ['PERMISSION_DENIED', 403],
  ['NOT_FOUND', 404],
  ['REQUEST_TIMEOUT', 408],
  ['PAYLOAD_TOO_LARGE', 413],
  ['CONTENT_FILTERED', 422],
  ['RATE_LIMITED', 429],
  ['INTERNAL_ERROR', 500],
  ['PROVIDER_ERROR', 502],
  ['INVALID_PROVIDER_RESPONSE', 502],
  ['PROVIDER_UNAVAILABLE', 503],
  ['PROVIDER_TIMEOUT', 504],
];

describe('statusForCode', () => {
  test('the code table holds exactly the codes of the documented taxonomy', () => {
    expect(Object.keys(UNIFIED_ERROR_CODES).sort()).toEqual(TAXONOMY_TABLE.map(([code]) => code).sort());
  });

  test.each(TAXONOMY_TABLE)('%s is served with %i', (code, status) => {
    expect(statusForCode(code)).toBe(status);
    const failure = createUnifiedFailure({ code, message: 'x', metadata: { trace_id: 't' } });
    expect(checkHttpCoherence(status, failure)).toEqual({ ok: true, expected: status });
    expect(checkHttpCoherence(status === 500 ? 502 : 500, failure).ok).toBe(false);
  });

  test('a code outside the taxonomy has no status', () => {
    expect(statusForCode('TEAPOT')).toBeUndefined();
  });
});

describe('codeForProviderStatus', () => {
  test.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'AUTHENTICATION_ERROR'],
    [402, 'INSUFFICIENT_CREDITS'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [408, 'REQUEST_TIMEOUT'],
    [409, 'VALIDATION_ERROR'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [418, 'VALIDATION_ERROR'],
    [422, 'VALIDATION_ERROR'],
    [429, 'RATE_LIMITED'],
    [500, 'PROVIDER_ERROR'],
    [502, 'PROVIDER_ERROR'],
    [503, 'PROVIDER_UNAVAILABLE'],
    [504, 'PROVIDER_TIMEOUT'],
    [520, 'PROVIDER_ERROR'],
    [529, 'PROVIDER_UNAVAILABLE'],
  ] as const)('HTTP %i from a provider is %s', (status, code) => {
    expect(codeForProviderStatus(status)).toBe(code);
  });
});

describe('checkHttpCoherence', () => {
  const success = createUnifiedSuccess({ content: 'ok', provider: 'openai', metadata: { trace_id: 't' } });

  test('a success is coherent with 200 only', () => {
    expect(checkHttpCoherence(200, success).ok).toBe(true);
    expect(checkHttpCoherence(201, success)).toMatchObject({ ok: false, expected: 200 });
  });

  test('reports values that are not envelopes instead of throwing', () => {
    expect(checkHttpCoherence(200, null)).toMatchObject({ ok: false, expected: undefined });
    expect(checkHttpCoherence(200, { success: 'yes' }).ok).toBe(false);
    expect(checkHttpCoherence(400, { success: false, error: {} }).ok).toBe(false);
  });

  test('serves a code outside the taxonomy as an internal error, so such an envelope survives a round trip', () => {
    expect(checkHttpCoherence(500, { success: false, error: { code: 'TEAPOT' } })).toEqual({
      ok: true,
      expected: 500,
    });
    expect(checkHttpCoherence(400, { success: false, error: { code: 'TEAPOT' } })).toMatchObject({
      ok: false,
      expected: 500,
    });
  });
});
