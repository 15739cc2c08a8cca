import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

function ask(options: GatewayOptions) {
  const gateway = createGateway({ providers: replay.providers() as GatewayOptions['providers'], ...options });
  return gateway.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
    headers: { 'content-type': 'application/json' },
  });
}

describe("the provider's retry-after reaches the client", () => {
  test('a 429 whose retry-after is longer than the gateway waits is answered with it, at once', async () => {
    replay.enqueue({
      ...fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'),
      headers: { 'retry-after': '30' },
    });
    const answer = await readEnvelope(await ask({ retries: 2, maxRetryAfterMs: 1_000 }));
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('30');
    expect(answer.envelope).toMatchObject({
      provider: 'openai',
      error: { code: 'RATE_LIMITED', details: { retry_after_s: 30 } },
      metadata: { attempts: 1 },
    });
  });

  test('a 503 that still fails after the retries carries the last retry-after, in whole seconds', async () => {
    const overloaded = fixture('openai.chat/PROVIDER_UNAVAILABLE/overloaded-503.json');
    replay.enqueue(
      { ...overloaded, headers: { 'retry-after-ms': '1' } },
      { ...overloaded, headers: { 'retry-after-ms': '4200' } },
    );
    const answer = await readEnvelope(await ask({ retries: 1, maxRetryAfterMs: 20_000 }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.envelope).toMatchObject({ metadata: { attempts: 2 } });
  });

  test('a failure without retry-after, or of another code, has no retry-after header', async () => {
    replay.enqueue({ ...fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'), headers: {} });
    const plain = await readEnvelope(await ask({ retries: 0 }));
    expect(plain.headers.get('retry-after')).toBeNull();
    replay.enqueue({
      ...fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'),
      headers: { 'retry-after': '9' },
    });
    const auth = await readEnvelope(await ask({ retries: 0 }));
    expect(auth.status).toBe(401);
    expect(auth.headers.get('retry-after')).toBeNull();
  });
});
