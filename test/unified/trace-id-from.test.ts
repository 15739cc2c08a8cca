import { describe, expect, test, vi } from 'vitest';
import { createTraceId, parseTraceparent, traceIdFrom } from '../../src/unified/index.js';
import { randomHex } from '../../src/unified/trace-id-from.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const VALID = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('traceIdFrom', () => {
  test('takes the trace-id of a valid traceparent first', () => {
    expect(traceIdFrom({ traceparent: VALID, 'x-request-id': 'req-1' })).toBe(TRACE);
  });

  test('reads Web Headers, plain records with any case, and pairs', () => {
    expect(traceIdFrom(new Headers({ Traceparent: VALID }))).toBe(TRACE);
    expect(traceIdFrom({ TraceParent: VALID })).toBe(TRACE);
    expect(traceIdFrom([['traceparent', VALID]])).toBe(TRACE);
  });

  test('falls back to x-request-id, then x-trace-id', () => {
    expect(traceIdFrom({ 'x-request-id': 'req-1', 'x-trace-id': 'trc-1' })).toBe('req-1');
    expect(traceIdFrom({ 'X-Trace-Id': 'trc-1' })).toBe('trc-1');
    expect(traceIdFrom({ traceparent: 'garbage', 'x-trace-id': 'trc-2' })).toBe('trc-2');
  });

  test('generates a 32-hex id when no header gives one', () => {
    const generated = traceIdFrom({});
    expect(generated).toMatch(/^[0-9a-f]{32}$/);
    expect(generated).not.toBe('0'.repeat(32));
    expect(traceIdFrom()).not.toBe(generated);
  });

  test('ignores request ids with spaces, control characters or over 256 characters', () => {
    expect(traceIdFrom({ 'x-request-id': 'has space' })).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdFrom({ 'x-request-id': 'a'.repeat(257) })).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdFrom({ 'x-request-id': 'a'.repeat(256) })).toBe('a'.repeat(256));
  });
});

describe('parseTraceparent', () => {
  test.each([
    ['valid version 00', VALID, TRACE],
    ['surrounding whitespace', `  ${VALID} `, TRACE],
    ['a later version with extra fields', `01-${TRACE}-00f067aa0ba902b7-01-future`, TRACE],
    ['version ff', `ff-${TRACE}-00f067aa0ba902b7-01`, undefined],
    ['version 00 with extra fields', `${VALID}-extra`, undefined],
    ['all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, undefined],
    ['all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`, undefined],
    ['uppercase hex', VALID.toUpperCase(), undefined],
    ['short trace id', `00-${TRACE.slice(1)}-00f067aa0ba902b7-01`, undefined],
    ['one-digit version', `0-${TRACE}-00f067aa0ba902b7-01`, undefined],
    ['missing flags', `00-${TRACE}-00f067aa0ba902b7`, undefined],
    ['absent', undefined, undefined],
  ])('%s', (_name, value, expected) => {
    expect(parseTraceparent(value)).toBe(expected);
  });
});

describe('createTraceId', () => {
  test('is a valid W3C trace-id', () => {
    const id = createTraceId();
    expect(parseTraceparent(`00-${id}-00f067aa0ba902b7-01`)).toBe(id);
  });

  test('ids drawn across several blocks of random bytes are well-formed and all different', () => {
    const ids = Array.from({ length: 1000 }, () => createTraceId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('an all-zero draw never becomes an id (invalid in W3C Trace Context)', () => {
    const fill = vi
      .spyOn(globalThis.crypto, 'getRandomValues')
      .mockImplementation((array) => (array as Uint8Array).fill(0) as never);
    try {
      // Enough draws to use up the block in hand and reach a refill of zeros.
      const ids = Array.from({ length: 600 }, () => randomHex(8));
      expect(ids).not.toContain('0'.repeat(16));
      expect(ids.at(-1)).toBe('0000000000000001');
    } finally {
      fill.mockRestore();
    }
  });
});
