import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const replay = useReplay();

const PATHS = [
  '/v1/text',
  '/v1/images',
  '/v1/speech',
  '/v1/transcriptions',
  '/v1/videos',
  '/v1/models',
  '/',
  '/v1/x',
];

/** Bodies from garbage to almost-valid requests. */
const body = fc.oneof(
  fc.string(),
  fc.uint8Array({ maxLength: 64 }),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        model: fc.oneof(
          fc.constantFrom('openai:gpt-4o-mini', 'anthropic:claude-x', 'nope:x', 'openai:'),
          fc.jsonValue(),
        ),
        input: fc.oneof(fc.string(), fc.jsonValue()),
        prompt: fc.oneof(fc.string(), fc.jsonValue()),
        stream: fc.oneof(fc.boolean(), fc.jsonValue()),
        temperature: fc.oneof(fc.double(), fc.jsonValue()),
        n: fc.oneof(fc.integer(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

test('any request, garbage included, gets a valid envelope with a coherent status, and the gateway stays up', async () => {
  const gateway = createGateway({
    providers: replay().providers() as GatewayOptions['providers'],
    retries: 0,
    maxBodyBytes: 4096,
  });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      fc.oneof(fc.constantFrom(...PATHS), fc.webPath()),
      body,
      fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', undefined),
      async (method, path, payload, contentType) => {
        const init: RequestInit = {
          method,
          headers: contentType === undefined ? {} : { 'content-type': contentType },
        };
        if (method !== 'GET') init.body = payload as BodyInit;
        const response = await gateway.request(path.startsWith('/') ? path : `/${path}`, init);
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
          expect(response.status).toBe(200);
          readStreamEnvelope(await response.text());
          return;
        }
        await readEnvelope(response);
      },
    ),
    { numRuns: 300 },
  );
  const health = await readEnvelope(await gateway.request('/healthz'));
  expect(health.envelope.success).toBe(true);
});
