import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { AGENT_TOOLS } from './agent-wire.js';
import { expectOwnWords, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
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

/** Content parts, valid and not: text, images by URL and data, audio, files, unknown types. */
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.oneof(fc.string(), fc.jsonValue()) }),
  fc.record({
    type: fc.constant('image_url'),
    image_url: fc.record({
      url: fc.constantFrom(
        'https://example.com/a.png',
        'data:image/png;base64,iVBORw0KGgo=',
        'http://x',
        'ftp:x',
        '',
      ),
    }),
  }),
  fc.record({
    type: fc.constant('input_audio'),
    input_audio: fc.record({
      data: fc.constantFrom('UklGRg==', '!!'),
      format: fc.constantFrom('wav', 'mp3', 'ogg'),
    }),
  }),
  fc.record(
    {
      type: fc.constant('file'),
      file: fc.record(
        {
          file_data: fc.constantFrom('JVBERi0=', 'data:application/pdf;base64,JVBERi0=', '%%'),
          media_type: fc.constantFrom('application/pdf', 'text/csv', 'nope'),
        },
        { requiredKeys: ['file_data'] },
      ),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.string(), extra: fc.jsonValue() }),
);

/** Messages of every role, with parts, tool calls and tool results, valid and not. */
const message = fc.oneof(
  fc.record({
    role: fc.constantFrom('system', 'developer', 'user'),
    content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 })),
  }),
  fc.record(
    {
      role: fc.constant('assistant'),
      content: fc.oneof(fc.string(), fc.constant(null)),
      tool_calls: fc.array(
        fc.record({
          id: fc.constantFrom('call_1', 'call_2', ''),
          type: fc.constant('function'),
          function: fc.record({
            name: fc.constantFrom('get_weather', 'convert_units'),
            arguments: fc.constantFrom('{}', '{"city":"Oslo"}', 'not json'),
          }),
        }),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: ['role'] },
  ),
  fc.record(
    {
      role: fc.constant('tool'),
      tool_call_id: fc.constantFrom('call_1', 'call_9'),
      content: fc.oneof(fc.string(), fc.jsonValue()),
    },
    { requiredKeys: ['role'] },
  ),
  fc.jsonValue(),
);

/** Chat requests over the new members: messages, tools, tool choice, structured output, sampling options. */
const chatRequest = fc.record(
  {
    model: fc.constantFrom(
      'openai:gpt-4o-mini',
      'anthropic:claude-x',
      'google:gemini-2.5-flash',
      'openrouter:m',
    ),
    messages: fc.oneof(fc.array(message, { maxLength: 4 }), fc.jsonValue()),
    input: fc.oneof(fc.string(), fc.array(message, { maxLength: 2 })),
    tools: fc.oneof(fc.constant(AGENT_TOOLS), fc.array(fc.jsonValue(), { maxLength: 2 })),
    tool_choice: fc.oneof(
      fc.constantFrom('auto', 'none', 'required', 'sometimes'),
      fc.record({
        type: fc.constant('function'),
        function: fc.record({ name: fc.constantFrom('get_weather', 'missing') }),
      }),
    ),
    parallel_tool_calls: fc.oneof(fc.boolean(), fc.jsonValue()),
    response_format: fc.oneof(
      fc.constant({ type: 'json_object' }),
      fc.constant({ type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } }),
      fc.constant({ type: 'json_schema', json_schema: { name: 'w', schema: { type: 'nope' } } }),
      fc.jsonValue(),
    ),
    top_p: fc.oneof(fc.double(), fc.jsonValue()),
    stop: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 6 })),
    seed: fc.oneof(fc.integer(), fc.double(), fc.constant(1e300)),
    presence_penalty: fc.double(),
    max_tokens: fc.oneof(fc.integer(), fc.jsonValue()),
    reasoning_effort: fc.constantFrom('low', 'high', 'huge'),
    provider_options: fc.oneof(fc.constant({ openai: { user: 'u' } }), fc.jsonValue()),
    stream: fc.boolean(),
  },
  { requiredKeys: ['model'] },
);

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
  chatRequest.map((value) => JSON.stringify(value)),
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
        const { envelope } = await readEnvelope(response);
        expectOwnWords(envelope);
      },
    ),
    { numRuns: 300 },
  );
  const health = await readEnvelope(await gateway.request('/healthz'));
  expect(health.envelope.success).toBe(true);
});

test('any chat request to POST /v1/text gets a valid envelope whose problems are in verdict words', async () => {
  const gateway = createGateway({
    providers: replay().providers() as GatewayOptions['providers'],
    retries: 0,
  });
  await fc.assert(
    fc.asyncProperty(chatRequest, async (request) => {
      const response = await gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify(request),
        headers: { 'content-type': 'application/json' },
      });
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        expect(response.status).toBe(200);
        readStreamEnvelope(await response.text());
        return;
      }
      const { envelope } = await readEnvelope(response);
      expectOwnWords(envelope);
      // A request refused by its schema never reaches a provider.
      if (!envelope.success && envelope.provider === 'system')
        expect(envelope.error.code).not.toBe('INTERNAL_ERROR');
    }),
    { numRuns: 150 },
  );
});
