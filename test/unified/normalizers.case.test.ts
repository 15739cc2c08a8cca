import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkHttpCoherence,
  codeForProviderStatus,
  normalizeResponse,
  normalizeStream,
  STREAM_FORMATS,
  UNIFIED_FORMATS,
  type UnifiedFormat,
  type UnifiedOutput,
  validateUnifiedOutput,
} from '../../src/unified/index.js';
import { FORMAT_SAMPLES } from './format-samples.js';
import { validateWithAjv } from './unified-schema.js';

/**
 * The shared case table: every case runs over every normalizer (as Hono's common router test runs one suite over
 * every router). A case that cannot apply to a format names the format and the reason in `skip`.
 */
interface Case {
  name: string;
  skip?: Partial<Record<UnifiedFormat, string>>;
  run(format: UnifiedFormat): void;
}

const NOT_STREAMING = 'the provider has no streaming form of this endpoint';
const nonStreaming = Object.fromEntries(
  UNIFIED_FORMATS.filter((format) => !STREAM_FORMATS.includes(format)).map((format) => [
    format,
    NOT_STREAMING,
  ]),
) as Partial<Record<UnifiedFormat, string>>;
const streaming = Object.fromEntries(
  STREAM_FORMATS.map((format) => [format, 'the format streams; the streaming cases cover it']),
) as Partial<Record<UnifiedFormat, string>>;

function expectValid(output: UnifiedOutput): void {
  expect(validateUnifiedOutput(output).violations).toEqual([]);
  expect(validateWithAjv(output), JSON.stringify(validateWithAjv.errors)).toBe(true);
}

function success(
  format: UnifiedFormat,
  extra: Partial<Parameters<typeof normalizeResponse>[0]> = {},
): UnifiedOutput {
  const sample = FORMAT_SAMPLES[format];
  const body = sample.success instanceof Uint8Array ? sample.success : JSON.stringify(sample.success);
  return normalizeResponse({ format, body, headers: sample.successHeaders, ...extra });
}

function codeOf(output: UnifiedOutput): string {
  return output.success ? 'success' : output.error.code;
}

const ERROR_STATUSES = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529] as const;

const CASES: Case[] = [
  {
    name: 'a success validates, is coherent with 200 and carries the trace id',
    run(format) {
      const output = success(format, { traceId: 'trace-case' });
      expect(output.success).toBe(true);
      expectValid(output);
      expect(output.metadata.trace_id).toBe('trace-case');
      expect(checkHttpCoherence(200, output).ok).toBe(true);
    },
  },
  {
    name: 'a trace id is generated when none is given',
    run(format) {
      const first = success(format);
      const second = success(format);
      expect(first.metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(first.metadata.trace_id).not.toBe(second.metadata.trace_id);
    },
  },
  {
    name: 'unknown extra fields are tolerated',
    skip: { 'openai.speech': 'the success body is audio bytes and has no fields' },
    run(format) {
      const body = {
        ...(FORMAT_SAMPLES[format].success as object),
        zz_future_field: { nested: [1, 2] },
        another: null,
      };
      const output = normalizeResponse({ format, body: JSON.stringify(body) });
      expect(output).toMatchObject({ success: true });
      expect(JSON.stringify(output)).not.toContain('zz_future_field');
    },
  },
  {
    name: 'an already parsed body gives the same envelope as its JSON text',
    skip: { 'openai.speech': 'the success body is bytes, never parsed JSON' },
    run(format) {
      const sample = FORMAT_SAMPLES[format].success;
      const fromText = normalizeResponse({ format, body: JSON.stringify(sample), traceId: 't' });
      const fromValue = normalizeResponse({ format, body: sample, traceId: 't' });
      expect(fromValue).toEqual(fromText);
    },
  },
  {
    name: "the provider's request id goes to metadata.provider_request_id, never to trace_id",
    run(format) {
      const sample = FORMAT_SAMPLES[format];
      const output = success(format, {
        headers: { ...sample.successHeaders, [sample.requestIdHeader]: 'prov-req-42' },
        traceId: 'trace-mine',
      });
      expect(output.metadata.provider_request_id).toBe('prov-req-42');
      expect(output.metadata.trace_id).toBe('trace-mine');
      const failed = normalizeResponse({
        format,
        status: 500,
        headers: { [sample.requestIdHeader]: 'prov-req-43' },
        body: JSON.stringify(sample.errorBody('x')),
      });
      expect(failed.metadata.provider_request_id).toBe('prov-req-43');
    },
  },
  {
    name: 'latency is copied to metadata.latency_ms',
    run(format) {
      expect(success(format, { latencyMs: 812 }).metadata.latency_ms).toBe(812);
    },
  },
  {
    name: 'every HTTP error status maps to its taxonomy code with a coherent status',
    run(format) {
      for (const status of ERROR_STATUSES) {
        const body = JSON.stringify(FORMAT_SAMPLES[format].errorBody('Something went wrong upstream.'));
        const output = normalizeResponse({ format, status, body });
        expect(codeOf(output), `HTTP ${status}`).toBe(codeForProviderStatus(status));
        expectValid(output);
        if (!output.success) {
          expect(output.error.message).toBe('Something went wrong upstream.');
          expect(output.error.details.http_status).toBe(status);
          expect(output.provider).not.toBe('system');
        }
      }
    },
  },
  {
    name: 'an error status with a body that is not JSON still maps by status',
    run(format) {
      const output = normalizeResponse({
        format,
        status: 503,
        body: 'upstream connect error or disconnect/reset before headers',
      });
      expect(codeOf(output)).toBe('PROVIDER_UNAVAILABLE');
      expect(output.success ? '' : output.error.message).toContain('upstream connect error');
    },
  },
  {
    name: 'an unparseable 200 body is INVALID_PROVIDER_RESPONSE',
    skip: { 'openai.transcription': 'plain text is a valid transcription (response_format=text)' },
    run(format) {
      const output = normalizeResponse({ format, body: '{"truncated": ' });
      expect(codeOf(output)).toBe('INVALID_PROVIDER_RESPONSE');
      expectValid(output);
    },
  },
  {
    name: 'a 200 body of the wrong shape is INVALID_PROVIDER_RESPONSE, never a half-filled success',
    run(format) {
      for (const body of [
        {},
        [],
        null,
        42,
        'text',
        [1, 2],
        { choices: 'no' },
        { content: {} },
        { output: [{}] },
      ]) {
        const output = normalizeResponse({ format, body: JSON.stringify(body) });
        expect(codeOf(output), JSON.stringify(body)).toBe('INVALID_PROVIDER_RESPONSE');
        expectValid(output);
      }
    },
  },
  {
    name: 'a status that is not final (1xx, 3xx) is INVALID_PROVIDER_RESPONSE',
    run(format) {
      expect(codeOf(normalizeResponse({ format, status: 302, body: '{}' }))).toBe(
        'INVALID_PROVIDER_RESPONSE',
      );
    },
  },
  {
    name: 'never throws and always validates, whatever the body and status',
    run(format) {
      fc.assert(
        fc.property(
          fc.oneof(fc.jsonValue(), fc.string(), fc.uint8Array()),
          fc.integer({ min: 100, max: 599 }),
          (body, status) => {
            const output = normalizeResponse({ format, status, body });
            return validateUnifiedOutput(output).valid && validateWithAjv(output) === true;
          },
        ),
        { numRuns: 150 },
      );
    },
  },
  {
    name: 'a stream folds into the same envelope as the equivalent response',
    skip: nonStreaming,
    run(format) {
      const stream = FORMAT_SAMPLES[format].stream;
      if (stream === undefined) throw new Error(`no stream sample for ${format}`);
      const streamed = normalizeStream({ format, events: stream.events, traceId: 't' });
      const whole = normalizeResponse({ format, body: stream.equivalent, traceId: 't' });
      expect(streamed.success).toBe(true);
      expect(streamed).toMatchObject({
        content: (whole as { content: string }).content,
        usage: (whole as { usage: object }).usage,
      });
      expect(streamed.metadata.finish_reason).toBe(whole.metadata.finish_reason);
      expectValid(streamed);
    },
  },
  {
    name: 'raw SSE text, JSON lines and JSON text events give the same envelope as parsed events',
    skip: nonStreaming,
    run(format) {
      const stream = FORMAT_SAMPLES[format].stream;
      if (stream === undefined) throw new Error(`no stream sample for ${format}`);
      const parsed = normalizeStream({ format, events: stream.events, traceId: 't' });
      expect(normalizeStream({ format, events: stream.sse, traceId: 't' })).toEqual(parsed);
      expect(
        normalizeStream({
          format,
          events: stream.events.map((event) => JSON.stringify(event)).join('\n'),
          traceId: 't',
        }),
      ).toEqual(parsed);
      expect(
        normalizeStream({
          format,
          events: stream.events.map((event) => JSON.stringify(event)),
          traceId: 't',
        }),
      ).toEqual(parsed);
    },
  },
  {
    name: 'an error event in the middle of a stream yields a failure',
    skip: nonStreaming,
    run(format) {
      const stream = FORMAT_SAMPLES[format].stream;
      if (stream === undefined) throw new Error(`no stream sample for ${format}`);
      const output = normalizeStream({ format, events: stream.withError });
      expect(output.success).toBe(false);
      expect(codeOf(output)).toBe('PROVIDER_ERROR');
      expect(JSON.stringify(output)).not.toContain('"content"');
      expectValid(output);
    },
  },
  {
    name: 'a stream that stops before its end is INVALID_PROVIDER_RESPONSE',
    skip: nonStreaming,
    run(format) {
      const stream = FORMAT_SAMPLES[format].stream;
      if (stream === undefined) throw new Error(`no stream sample for ${format}`);
      expect(codeOf(normalizeStream({ format, events: stream.truncated }))).toBe('INVALID_PROVIDER_RESPONSE');
      expect(codeOf(normalizeStream({ format, events: [] }))).toBe('INVALID_PROVIDER_RESPONSE');
    },
  },
  {
    name: 'a stream refused before it started is read as an error body',
    skip: nonStreaming,
    run(format) {
      const output = normalizeStream({
        format,
        status: 429,
        events: [FORMAT_SAMPLES[format].errorBody('slow down')],
      });
      expect(codeOf(output)).toBe('RATE_LIMITED');
    },
  },
  {
    name: 'a refused stream captured as raw text (a pretty-printed or non-JSON error body) maps by status',
    skip: nonStreaming,
    run(format) {
      const pretty = JSON.stringify(FORMAT_SAMPLES[format].errorBody('slow down'), null, 2);
      const output = normalizeStream({ format, status: 429, events: pretty });
      expect(codeOf(output)).toBe('RATE_LIMITED');
      expect(output.success ? '' : output.error.message).toBe('slow down');
      const html = normalizeStream({ format, status: 503, events: '<html>Service Unavailable</html>' });
      expect(codeOf(html)).toBe('PROVIDER_UNAVAILABLE');
      expectValid(html);
    },
  },
  {
    name: 'normalizeStream on a format without streams is a VALIDATION_ERROR from system',
    skip: streaming,
    run(format) {
      const output = normalizeStream({ format, events: [] });
      expect(output).toMatchObject({
        success: false,
        provider: 'system',
        error: { code: 'VALIDATION_ERROR' },
      });
    },
  },
];

describe('normalizeResponse', () => {
  for (const format of UNIFIED_FORMATS) {
    describe(format, () => {
      for (const testCase of CASES) {
        const reason = testCase.skip?.[format];
        if (reason !== undefined) {
          test.skip(`${testCase.name} (skipped: ${reason})`, () => {});
        } else {
          test(testCase.name, () => testCase.run(format));
        }
      }
    });
  }

  test('every skip names a format of the registry and gives a reason', () => {
    for (const testCase of CASES) {
      for (const [format, reason] of Object.entries(testCase.skip ?? {})) {
        expect(UNIFIED_FORMATS).toContain(format);
        expect(reason.length).toBeGreaterThan(10);
      }
    }
  });

  test('an unknown format is a VALIDATION_ERROR from system, never a throw', () => {
    const output = normalizeResponse({ format: 'acme.chat' as UnifiedFormat, body: '{}', traceId: 't' });
    expect(output).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'VALIDATION_ERROR' },
      metadata: { trace_id: 't' },
    });
  });

  test('a provider override names the provider of an OpenAI-compatible endpoint', () => {
    const output = normalizeResponse({
      format: 'openai-compatible.chat',
      provider: 'groq',
      body: FORMAT_SAMPLES['openai.chat'].success,
    });
    expect(output.provider).toBe('groq');
  });
});
