import { afterEach, describe, expect, test, vi } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { postJson, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';

// Every module that validates an envelope calls this one function: counting its calls counts the checks (the
// assertion helpers validate too, so each count is read before them).
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/unified/validate-unified-output.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/unified/validate-unified-output.js')>();
  return {
    ...original,
    validateUnifiedOutput: (value: unknown) => {
      checks.count++;
      return original.validateUnifiedOutput(value);
    },
  };
});

const gateway = createGateway({ providers: { demo: {} } });

const post = (path: string, body: unknown) => postJson(gateway, path, body);

afterEach(() => {
  checks.count = 0;
});

describe('each answer of the gateway is validated once', () => {
  test.each([
    ['/v1/text', { model: 'demo:chat', input: 'Say hi' }],
    ['/v1/images', { model: 'demo:image', prompt: 'a lighthouse', n: 2 }],
    ['/v1/speech', { model: 'demo:tts', input: 'Hello' }],
    [
      '/v1/transcriptions',
      { model: 'demo:stt', audio: 'SUQzBAAAAAAAD//7kGQAAA==', media_type: 'audio/mpeg' },
    ],
    ['/v1/videos', { model: 'demo:video', prompt: 'a cat at a piano' }],
  ])('a provider success of %s', async (path, body) => {
    const response = await post(path, body);
    const counted = checks.count;
    const { envelope } = await readEnvelope(response);
    expect(envelope.success).toBe(true);
    expect(counted).toBe(1);
  });

  test("a streamed answer's final envelope", async () => {
    const response = await post('/v1/text', { model: 'demo:chat', input: 'Say hi', stream: true });
    const text = await response.text();
    const counted = checks.count;
    expect(readStreamEnvelope(text).envelope.success).toBe(true);
    expect(counted).toBe(1);
  });

  test("a failure and the gateway's own answers", async () => {
    const unknown = await post('/v1/text', { model: 'nowhere:chat', input: 'Say hi' });
    expect(checks.count).toBe(1);
    expect((await readEnvelope(unknown)).envelope.success).toBe(false);
    checks.count = 0;
    const models = await gateway.request('/v1/models');
    expect(checks.count).toBe(1);
    expect((await readEnvelope(models)).envelope.success).toBe(true);
  });
});
