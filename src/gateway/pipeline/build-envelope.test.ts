import { describe, expect, test } from 'vitest';
import { assembleFailure } from '../../unified/assemble-output.js';
import type { UnifiedSuccess } from '../../unified/types.js';
import { createRedactor } from '../basics/redact-secrets.js';
import { createProviderModels } from '../providers/providers.js';
import { buildEnvelope, withMetadata } from './build-envelope.js';
import type { Target } from './call-with-fallbacks.js';

const SECRET = 'sk-the-provider-key-1234';

function success(): UnifiedSuccess {
  return {
    success: true,
    content: 'Hi',
    provider: 'demo',
    usage: { input_tokens: 1, output_tokens: 1 },
    metadata: { trace_id: 'trace-b', usage_reported: true },
    images: [],
    files: [],
    videos: [],
  };
}

const demo = createProviderModels('demo', {}, {});
const target: Target = { provider: demo, modelId: 'chat', label: 'demo:chat', model: { provider: 'demo' } };

describe('buildEnvelope', () => {
  test("adds the call's facts to a copy, leaving the draft as it was", () => {
    const draft = success();
    const before = structuredClone(draft);
    const built = buildEnvelope(
      draft,
      {
        startedAt: performance.now(),
        attempts: 2,
        fallbackFrom: [{ target: 'x:y', code: 'RATE_LIMITED' }],
        target,
      },
      undefined,
    );
    expect(draft).toEqual(before);
    expect(built.metadata).toMatchObject({
      trace_id: 'trace-b',
      attempts: 2,
      target: 'demo:chat',
      demo: true,
      fallback_from: [{ target: 'x:y', code: 'RATE_LIMITED' }],
    });
    expect(built.metadata.latency_ms).toBeGreaterThanOrEqual(0);
  });

  test("drops a failure's upstream URL and address, and redacts its secrets", () => {
    const draft = assembleFailure(
      'openai',
      'PROVIDER_UNAVAILABLE',
      'Cannot connect to API: getaddrinfo ENOTFOUND llm.internal',
      { url: 'http://llm.internal/v1/chat', echoed: SECRET },
      { trace_id: 'trace-f' },
    );
    const built = buildEnvelope(
      draft,
      { startedAt: performance.now(), attempts: 1, fallbackFrom: [] },
      createRedactor([SECRET]),
    );
    expect(built.success).toBe(false);
    if (built.success) return;
    expect(built.error.message).toBe('Cannot connect to the provider (ENOTFOUND).');
    expect(built.error.details).toEqual({ echoed: '[redacted]' });
    expect(draft.error.details.url).toBe('http://llm.internal/v1/chat');
    expect(built.metadata).not.toHaveProperty('target');
  });

  test('answers an envelope that does not validate as INTERNAL_ERROR naming its violations', () => {
    const invalid = withMetadata(success(), { usage_reported: 'yes' });
    const built = buildEnvelope(invalid, undefined, undefined);
    expect(built).toMatchObject({ success: false, provider: 'system', error: { code: 'INTERNAL_ERROR' } });
    expect(built.success ? [] : built.error.details.violations).not.toEqual([]);
    expect(built.metadata.trace_id).toBe('trace-b');
  });

  test("answers a provider's success that does not validate as INVALID_PROVIDER_RESPONSE, with the call's facts", () => {
    const invalid: UnifiedSuccess = {
      ...success(),
      usage: { input_tokens: -1, output_tokens: 1 },
      metadata: { trace_id: 'trace-p', usage_reported: true, usage_details: { total_tokens: 2 } },
    };
    const built = buildEnvelope(
      invalid,
      { startedAt: performance.now(), attempts: 1, fallbackFrom: [], target },
      undefined,
    );
    expect(built).toMatchObject({
      success: false,
      provider: 'demo',
      error: {
        code: 'INVALID_PROVIDER_RESPONSE',
        details: { violations: [expect.objectContaining({ path: '/usage/input_tokens' })] },
      },
      metadata: { trace_id: 'trace-p', attempts: 1, target: 'demo:chat' },
    });
    expect(built.metadata).not.toHaveProperty('usage_reported');
    expect(built.metadata).not.toHaveProperty('usage_details');
  });

  test('leaves a draft without call facts as it is, apart from validating it', () => {
    const draft = success();
    expect(buildEnvelope(draft, undefined, undefined)).toEqual(draft);
  });
});
