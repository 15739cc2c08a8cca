import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isVerdictError } from '../../src/errors.js';
import {
  createUnifiedFailure,
  createUnifiedSuccess,
  FINISH_REASONS,
  UNIFIED_ERROR_CODES,
  UNIFIED_OUTPUT_SCHEMA,
  UNIFIED_OUTPUT_SCHEMA_URL,
  UNIFIED_VIOLATION_CODES,
  type UnifiedViolationCode,
  validateUnifiedOutput,
  validateUnifiedText,
} from '../../src/unified/index.js';
import { schema, validateWithAjv } from './unified-schema.js';

const hex = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength });

const SUCCESS = {
  success: true,
  content: 'Hello',
  provider: 'openai',
  usage: { input_tokens: 3, output_tokens: 1 },
  metadata: { trace_id: 'trc_123', model: 'gpt-x', latency_ms: 540 },
  images: [],
  files: [],
  videos: [],
};
const FAILURE = {
  success: false,
  error: { code: 'VALIDATION_ERROR', message: 'Invalid request payload', details: {} },
  provider: 'system',
  metadata: { trace_id: 'trc_123' },
};

/**
 * One invalid envelope per violation code; the table must name every code of UNIFIED_VIOLATION_CODES except
 * `duplicate_member`, which only text can show (tested with validateUnifiedText).
 */
const INVALID: Record<Exclude<UnifiedViolationCode, 'duplicate_member'>, [unknown, string]> = {
  not_an_object: [[SUCCESS], ''],
  success_not_boolean: [{ ...SUCCESS, success: 'true' }, '/success'],
  unknown_member: [{ ...SUCCESS, model: 'gpt-x' }, '/model'],
  provider_invalid: [{ ...SUCCESS, provider: 'OpenAI' }, '/provider'],
  content_invalid: [{ ...SUCCESS, content: null }, '/content'],
  usage_invalid: [{ ...SUCCESS, usage: [] }, '/usage'],
  usage_tokens_invalid: [
    { ...SUCCESS, usage: { input_tokens: 1.5, output_tokens: 1 } },
    '/usage/input_tokens',
  ],
  usage_counted_but_unreported: [
    {
      ...SUCCESS,
      usage: { input_tokens: 0, output_tokens: 4 },
      metadata: { trace_id: 't', usage_reported: false },
    },
    '/usage/output_tokens',
  ],
  metadata_invalid: [{ ...FAILURE, metadata: 'trc' }, '/metadata'],
  trace_id_invalid: [{ ...FAILURE, metadata: { trace_id: ' ' } }, '/metadata/trace_id'],
  metadata_member_invalid: [
    { ...SUCCESS, metadata: { trace_id: 't', latency_ms: -1 } },
    '/metadata/latency_ms',
  ],
  finish_reason_invalid: [
    { ...SUCCESS, metadata: { trace_id: 't', finish_reason: 'end_turn' } },
    '/metadata/finish_reason',
  ],
  media_not_array: [{ ...SUCCESS, videos: undefined }, '/videos'],
  media_item_invalid: [{ ...SUCCESS, images: [{ data: 'iVBO' }] }, '/images/0'],
  media_member_invalid: [
    { ...SUCCESS, files: [{ url: 'https://x/a.mp3', duration_s: '3' }] },
    '/files/0/duration_s',
  ],
  success_with_error: [{ ...SUCCESS, error: FAILURE.error }, '/error'],
  failure_with_success_member: [{ ...FAILURE, images: [] }, '/images'],
  error_invalid: [{ ...FAILURE, error: 'boom' }, '/error'],
  error_code_invalid: [{ ...FAILURE, error: { ...FAILURE.error, code: 'validation_error' } }, '/error/code'],
  error_message_invalid: [{ ...FAILURE, error: { ...FAILURE.error, message: '' } }, '/error/message'],
  error_details_invalid: [{ ...FAILURE, error: { code: 'X', message: 'm' } }, '/error/details'],
};

describe('validateUnifiedOutput', () => {
  test('accepts the documented success and failure', () => {
    expect(validateUnifiedOutput(SUCCESS)).toEqual({ valid: true, value: SUCCESS, violations: [] });
    expect(validateUnifiedOutput(FAILURE).valid).toBe(true);
  });

  test('the table of invalid envelopes names every violation code', () => {
    expect([...Object.keys(INVALID), 'duplicate_member'].sort()).toEqual(
      Object.keys(UNIFIED_VIOLATION_CODES).sort(),
    );
  });

  test.each(Object.entries(INVALID))('reports %s', (code, [value, path]) => {
    const result = validateUnifiedOutput(value);
    expect(result.valid).toBe(false);
    expect(result.violations).toContainEqual(expect.objectContaining({ code, path }));
    expect(validateWithAjv(value)).toBe(false);
  });

  test('reports every violation, not only the first', () => {
    const result = validateUnifiedOutput({
      success: false,
      provider: 'X',
      metadata: {},
      content: 'hi',
      usage: {},
    });
    expect(result.violations.map((violation) => violation.code).sort()).toEqual(
      [
        'error_invalid',
        'failure_with_success_member',
        'failure_with_success_member',
        'provider_invalid',
        'trace_id_invalid',
      ].sort(),
    );
  });

  test('tolerates unknown metadata keys and media facts', () => {
    const value = {
      ...SUCCESS,
      metadata: { trace_id: 't', vendor_specific: { a: 1 }, finish_reason: 'tool_calls' },
      images: [
        { data: 'iVBORw0KGgo=', media_type: 'image/png', width: 512, height: 512, revised_prompt: '' },
      ],
      videos: [{ url: 'https://cdn.example/v.mp4', duration_s: 4.5 }],
    };
    expect(validateUnifiedOutput(value).violations).toEqual([]);
  });

  test('rejects hostile values with a verdict instead of throwing', () => {
    for (const value of [undefined, null, 0, '', Symbol('x'), () => 1, [SUCCESS]]) {
      expect(validateUnifiedOutput(value)).toEqual({
        valid: false,
        violations: [{ code: 'not_an_object', path: '', message: expect.any(String) }],
      });
    }
    const cyclic: Record<string, unknown> = { ...SUCCESS };
    cyclic.metadata = cyclic;
    const verdicts = [new Date(), cyclic, Object.create(null)].map((value) => validateUnifiedOutput(value));
    for (const verdict of verdicts) expect(verdict.valid).toBe(false);
    // The cyclic one is a valid success but for its metadata, which is itself and so carries no trace id.
    expect(verdicts[1]?.violations.map((v) => v.path)).toContain('/metadata/trace_id');
  });
});

describe('validateUnifiedText', () => {
  test('reports a repeated member as duplicate_member at the path of its object, naming the key', () => {
    const text = JSON.stringify(FAILURE).replace('"trace_id":"trc_123"', '"trace_id":"a","trace_id":"b"');
    expect(validateUnifiedText(text)).toEqual({
      valid: false,
      violations: [
        { code: 'duplicate_member', path: '/metadata', message: expect.stringContaining('"trace_id"') },
      ],
    });
  });

  test('returns why text that is not JSON could not be read', () => {
    expect(validateUnifiedText('{"success": tru}')).toMatchObject({
      valid: false,
      readError: { reason: 'syntax', line: 1 },
    });
  });

  test('agrees with validateUnifiedOutput on parsed text', () => {
    expect(validateUnifiedText(JSON.stringify(SUCCESS))).toEqual({ valid: true, violations: [] });
    expect(validateUnifiedText(JSON.stringify({ ...SUCCESS, usage: null })).violations).toEqual(
      validateUnifiedOutput({ ...SUCCESS, usage: null }).violations,
    );
  });
});

describe('unified-output-v1.schema.json', () => {
  test('is the document UNIFIED_OUTPUT_SCHEMA exports', () => {
    expect(schema).toEqual(UNIFIED_OUTPUT_SCHEMA);
  });

  test("has verdict's own $id and draft 2020-12", () => {
    expect(schema.$id).toBe(UNIFIED_OUTPUT_SCHEMA_URL);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(UNIFIED_OUTPUT_SCHEMA_URL).toMatch(/^https:\/\/verdict\./);
  });

  const media = fc.oneof(
    fc.record({ url: fc.webUrl() }),
    fc.record({
      data: fc.base64String({ minLength: 4, maxLength: 12 }),
      media_type: fc.constantFrom('image/png', 'audio/mpeg'),
    }),
    fc.record({
      url: fc.webUrl(),
      width: fc.integer({ min: 1, max: 4096 }),
      duration_s: fc.double({ min: 0, max: 100, noNaN: true }),
    }),
  );
  const validSuccess = fc.record({
    success: fc.constant(true),
    content: fc.string({ maxLength: 5 }),
    provider: fc.constantFrom('openai', 'x.y-z', 'replicate'),
    usage: fc.record({ input_tokens: fc.nat({ max: 10_000 }), output_tokens: fc.nat({ max: 10_000 }) }),
    metadata: fc.record(
      {
        trace_id: hex(8),
        finish_reason: fc.constantFrom(...FINISH_REASONS),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['trace_id'] },
    ),
    images: fc.array(media, { maxLength: 2 }),
    files: fc.array(media, { maxLength: 1 }),
    videos: fc.array(media, { maxLength: 1 }),
  });
  const validFailure = fc.record({
    success: fc.constant(false),
    error: fc.record({
      code: fc.constantFrom(...Object.keys(UNIFIED_ERROR_CODES), 'CUSTOM_CODE'),
      message: fc.constantFrom('boom', 'Rate limited.'),
      details: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    }),
    provider: fc.constantFrom('system', 'anthropic'),
    metadata: fc.record({ trace_id: hex(8), latency_ms: fc.nat() }, { requiredKeys: ['trace_id'] }),
  });
  const DELETE = Symbol('delete');
  // Each mutation breaks (or keeps) one rule; zero to two are applied to a valid envelope.
  const mutation = fc.constantFrom<[string[], unknown]>(
    [['success'], 'yes'],
    [['success'], DELETE],
    [['provider'], 'Open AI'],
    [['provider'], ''],
    [['content'], null],
    [['content'], 'added'],
    [['usage'], { input_tokens: -1, output_tokens: 0 }],
    [['usage'], { input_tokens: 0.5, output_tokens: 0 }],
    [['usage'], { input_tokens: 1, output_tokens: 2 }],
    [['metadata', 'trace_id'], ''],
    [['metadata', 'trace_id'], DELETE],
    [['metadata', 'latency_ms'], -3],
    [['metadata', 'finish_reason'], 'eos'],
    [['metadata', 'usage_reported'], 'no'],
    [['metadata', 'usage_details'], { cached: -1 }],
    [['metadata', 'usage_details'], { cached: 4 }],
    [['metadata', 'model'], ''],
    [['metadata', 'cache'], { status: 'hit', trace_id: 'trc_1', age_s: 3 }],
    [['metadata', 'cache'], { status: 'miss', trace_id: 'trc_1', age_s: 3 }],
    [['metadata', 'cache'], { status: 'hit', trace_id: ' ', age_s: 3 }],
    [['metadata', 'cache'], { status: 'hit', trace_id: 'trc_1', age_s: 1.5 }],
    [['metadata', 'cache'], { status: 'hit', age_s: 0 }],
    [['metadata', 'cache'], 'hit'],
    [['images'], {}],
    [['images'], [{ data: 'iVBO' }]],
    [['images'], [{ url: '' }]],
    [['images'], [{ url: 'https://x/y.png', width: 1.5 }]],
    [['files'], [{ data: 'not base64!', media_type: 'audio/mpeg' }]],
    [['files'], [{ url: 'https://x/a', media_type: 'png' }]],
    [['videos'], DELETE],
    [['error'], { code: 'bad_code', message: 'm', details: {} }],
    [['error'], { code: 'A__B', message: 'm', details: {} }],
    [['error'], { code: 'OK', message: ' ', details: {} }],
    [['error'], { code: 'OK', message: 'm', details: [] }],
    [['error'], DELETE],
    [['surprise'], 1],
  );
  function mutate(base: Record<string, unknown>, mutations: [string[], unknown][]): Record<string, unknown> {
    const copy = structuredClone(base);
    for (const [path, value] of mutations) {
      let target: Record<string, unknown> = copy;
      for (const key of path.slice(0, -1)) {
        if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
        target = target[key] as Record<string, unknown>;
      }
      const last = path.at(-1) as string;
      if (value === DELETE) delete target[last];
      else target[last] = value;
    }
    return copy;
  }
  const envelope = fc
    .tuple(fc.oneof(validSuccess, validFailure), fc.array(mutation, { maxLength: 2 }))
    .map(([base, mutations]) => mutate(base, mutations));

  test('verdict agrees with Ajv on the schema for every generated envelope', () => {
    let accepted = 0;
    fc.assert(
      fc.property(envelope, (value) => {
        const ours = validateUnifiedOutput(value).valid;
        const ajv = validateWithAjv(value) === true;
        if (ours) accepted += 1;
        return ours === ajv;
      }),
      { numRuns: 3000 },
    );
    // The generator must reach valid envelopes too, or agreement would only be shown on rejections.
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('createUnifiedSuccess', () => {
  test('fills every member: empty modality arrays, zero usage marked unreported, a trace id', () => {
    const output = createUnifiedSuccess({ content: 'Hi', provider: 'anthropic' });
    expect(output).toMatchObject({
      success: true,
      usage: { input_tokens: 0, output_tokens: 0 },
      images: [],
      files: [],
      videos: [],
    });
    expect(output.metadata.usage_reported).toBe(false);
    expect(output.metadata.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test('every envelope the builders produce validates', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.nat(), hex(32), (content, input, output, traceId) => {
        const built = createUnifiedSuccess({
          content,
          provider: 'google',
          usage: { input_tokens: input, output_tokens: output },
          metadata: { trace_id: traceId },
        });
        return validateUnifiedOutput(built).valid && validateWithAjv(built) === true;
      }),
    );
  });

  test('throws a VerdictError for input that cannot make a valid envelope', () => {
    let caught: unknown;
    try {
      createUnifiedSuccess({
        content: 'x',
        provider: 'Bad Provider',
        usage: { input_tokens: -1, output_tokens: 0 },
      });
    } catch (error) {
      caught = error;
    }
    expect(isVerdictError(caught)).toBe(true);
    expect((caught as { code: string }).code).toBe('invalid_builder_input');
    expect((caught as Error).message).toContain('provider_invalid');
  });
});

describe('createUnifiedFailure', () => {
  test('builds the documented failure with system as the default provider', () => {
    const output = createUnifiedFailure({
      code: 'RATE_LIMITED',
      message: 'Slow down',
      metadata: { trace_id: 't1' },
    });
    expect(output).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: 'Slow down', details: {} },
      provider: 'system',
      metadata: { trace_id: 't1' },
    });
  });

  test('throws for an empty message', () => {
    expect(() => createUnifiedFailure({ code: 'INTERNAL_ERROR', message: ' ' })).toThrow(
      /error_message_invalid/,
    );
  });
});
