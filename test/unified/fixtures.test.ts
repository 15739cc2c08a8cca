import { describe, expect, test } from 'vitest';
import {
  checkHttpCoherence,
  isUnifiedErrorCode,
  isUnifiedFormat,
  normalizeResponse,
  normalizeStream,
  toHttpResponse,
  UNIFIED_FORMATS,
  type UnifiedOutput,
  validateUnifiedOutput,
} from '../../src/unified/index.js';
import { fromBase64, loadFixtures, type ProviderFixture } from './fixture-corpus.js';
import { validateWithAjv } from './unified-schema.js';

const TRACE_ID = 'trace-fixture-0001';

function run(fixture: ProviderFixture): UnifiedOutput {
  if (!isUnifiedFormat(fixture.format)) throw new Error(`unknown format folder ${fixture.format}`);
  const common = {
    format: fixture.format,
    status: fixture.status,
    headers: fixture.headers,
    traceId: TRACE_ID,
    latencyMs: 123,
  };
  if (fixture.stream === true) {
    const raw = fixture.body_base64 === undefined ? undefined : fromBase64(fixture.body_base64);
    return normalizeStream({ ...common, events: raw ?? fixture.sse ?? fixture.events ?? [] });
  }
  const body =
    fixture.body_base64 !== undefined
      ? fromBase64(fixture.body_base64)
      : typeof fixture.body === 'string'
        ? fixture.body
        : JSON.stringify(fixture.body);
  return normalizeResponse({ ...common, body });
}

const fixtures = loadFixtures();

describe('the provider fixture corpus', () => {
  test('maps every folder to a format and an expectation (no silent skips)', () => {
    const unknown = fixtures.filter(
      (fixture) =>
        !isUnifiedFormat(fixture.format) ||
        (fixture.expectation !== 'success' && !isUnifiedErrorCode(fixture.expectation)),
    );
    expect(unknown.map((fixture) => fixture.name)).toEqual([]);
  });

  test('covers every format with successes and failures', () => {
    const formats = new Set(fixtures.map((fixture) => fixture.format));
    expect([...formats].sort()).toEqual([...UNIFIED_FORMATS].sort());
    for (const format of formats) {
      const own = fixtures.filter((fixture) => fixture.format === format);
      expect(
        own.some((fixture) => fixture.expectation === 'success'),
        format,
      ).toBe(true);
      expect(
        own.some((fixture) => fixture.expectation !== 'success'),
        format,
      ).toBe(true);
    }
  });
});

describe('normalizeResponse', () => {
  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const output = run(fixture);
    if (fixture.expectation === 'success') {
      expect(output.success, JSON.stringify(output.success ? '' : output.error)).toBe(true);
    } else {
      expect(output.success).toBe(false);
      if (!output.success) expect(output.error.code).toBe(fixture.expectation);
    }
    expect(validateUnifiedOutput(output).violations).toEqual([]);
    expect(validateWithAjv(output), JSON.stringify(validateWithAjv.errors)).toBe(true);
    expect(output.metadata.trace_id).toBe(TRACE_ID);
    expect(output.metadata.latency_ms).toBe(123);
    if (fixture.expect !== undefined) expect(output).toMatchObject(fixture.expect);
    const response = toHttpResponse(output);
    expect(checkHttpCoherence(response.status, output).ok).toBe(true);
    expect(response.headers.get('x-trace-id')).toBe(TRACE_ID);
  });
});
