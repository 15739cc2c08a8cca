import { readFileSync } from 'node:fs';
import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import type { UnifiedOutput } from '../../src/unified/index.js';
import { fixture, providersWithResponses, type ReplayProviders } from '../helpers/replay-providers.js';
import { FAMILIES, FINAL_TEXT, WEATHER_ARGS } from './agent-wire.js';
import { parseSse, postJson, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The Anthropic surface driven by the official clients: `@anthropic-ai/sdk` and the AI SDK's
 * `@ai-sdk/anthropic`, pointed at the gateway by base URL, in front of the replay providers answering recorded
 * bodies of every family. The replay server records what each provider received.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'gateway-key-of-the-anthropic-tests';

function gateway(options: GatewayOptions = {}) {
  return createGateway({
    providers: providersWithResponses(replay) as GatewayOptions['providers'],
    retries: 0,
    ...options,
  });
}

/** A fetch that serves the gateway in-process; the clients' URLs go to it unchanged. */
function fetchOf(app: ReturnType<typeof createGateway>): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init?: RequestInit) =>
    app.request(input instanceof Request ? input : String(input), init)) as typeof globalThis.fetch;
}

/** The official Anthropic client, its base URL the gateway's `/anthropic`. */
function client(app = gateway(), options: { apiKey?: string | null; authToken?: string } = {}) {
  return new Anthropic({
    baseURL: 'http://localhost/anthropic',
    apiKey: options.apiKey === undefined ? 'unused-without-gateway-keys' : options.apiKey,
    ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
    fetch: fetchOf(app),
    maxRetries: 0,
  });
}

const TOOLS: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Current temperature of a city in °C.',
    input_schema: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  {
    name: 'convert_units',
    description: 'Convert a temperature between C and F.',
    input_schema: {
      type: 'object',
      properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
      required: ['value', 'from', 'to'],
      additionalProperties: false,
    },
  },
];

/**
 * A request with sampling options: the Messages API takes `top_k`, `top_p` and `temperature`, and the SDK sends
 * them, though its newest types leave them out.
 */
function sampled(
  params: Anthropic.MessageCreateParamsNonStreaming & {
    top_k?: number;
    top_p?: number;
    temperature?: number;
  },
): Anthropic.MessageCreateParamsNonStreaming {
  return params;
}

/** The envelope `POST /v1/text` gives for the same answer, for the cross-checks. */
async function envelopeOf(app: ReturnType<typeof createGateway>, body: Record<string, unknown>) {
  return (await readEnvelope(await postJson(app, '/v1/text', body))).envelope;
}

/** The usage an Anthropic client sums to the envelope's input count. */
function totalInput(usage: Anthropic.Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

describe('POST /anthropic/v1/messages with the Anthropic SDK', () => {
  test.each(FAMILIES)('$name answers a Message with the envelope’s text and usage', async (family) => {
    const app = gateway();
    replay.enqueue(family.text(FINAL_TEXT), family.text(FINAL_TEXT));
    const message = await client(app)
      .messages.create({
        model: family.model,
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      .withResponse();
    expect(message.data).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: FINAL_TEXT }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(message.data.id).toMatch(/^msg_/);
    // The SDK's anthropic-version header is not passed on to other providers; the provider gets its own key.
    const received = replay.requests[0]?.headers ?? {};
    if (family.name !== 'Anthropic') expect(received['anthropic-version']).toBeUndefined();
    expect(JSON.stringify(received)).not.toContain('unused-without-gateway-keys');
    // The trace id is the request id the SDK reads.
    expect(message.request_id).toBe(message.response.headers.get('x-trace-id'));
    const envelope = await envelopeOf(app, { model: family.model, input: 'Weather?' });
    if (!envelope.success) throw new Error(envelope.error.message);
    expect(message.data.content[0]).toMatchObject({ text: envelope.content });
    expect(totalInput(message.data.usage)).toBe(envelope.usage.input_tokens);
    expect(message.data.usage.output_tokens).toBe(envelope.usage.output_tokens);
  });

  test.each(FAMILIES)(
    '$name: tool calls come back as tool_use blocks, the same as the envelope’s',
    async (family) => {
      const app = gateway();
      replay.enqueue(family.toolCalls(true), family.toolCalls(true));
      const message = await client(app).messages.create({
        model: family.model,
        max_tokens: 256,
        tools: TOOLS,
        messages: [{ role: 'user', content: 'Weather in Oslo, in F?' }],
      });
      expect(message.stop_reason).toBe('tool_use');
      const uses = message.content.filter((block) => block.type === 'tool_use');
      expect(uses.map((block) => [block.name, block.input])).toEqual([
        ['get_weather', WEATHER_ARGS],
        ['convert_units', { value: 12, from: 'C', to: 'F' }],
      ]);
      if (family.givesIds) expect(uses[0]?.id).toMatch(/weather_1$/);
      const envelope = await envelopeOf(app, {
        model: family.model,
        input: 'Weather in Oslo, in F?',
        tools: TOOLS.map((entry) => ({
          type: 'function',
          function: { name: entry.name, description: entry.description, parameters: entry.input_schema },
        })),
      });
      const calls = (envelope.metadata.tool_calls as { name: string; arguments: unknown }[]).map((call) => [
        call.name,
        call.arguments,
      ]);
      expect(uses.map((block) => [block.name, block.input])).toEqual(calls);
    },
  );

  test.each(FAMILIES)('$name receives tool results sent back as tool_result blocks', async (family) => {
    replay.enqueue(family.text(FINAL_TEXT));
    const message = await client().messages.create({
      model: family.model,
      max_tokens: 256,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_sent_1', name: 'get_weather', input: WEATHER_ARGS },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_sent_1', content: '{"celsius":12}' }],
        },
      ],
    });
    expect(message.content).toEqual([{ type: 'text', text: FINAL_TEXT }]);
    expect(replay.requests).toHaveLength(1);
    const sent = JSON.stringify(replay.requests[0]?.body);
    // The call and its result reach the provider in its own format, tied together by the call's id (Gemini ties
    // them by name, having no ids).
    expect(sent).toContain('get_weather');
    expect(sent).toContain('celsius');
    if (family.name !== 'Gemini') expect(sent.match(/toolu_sent_1/g)?.length).toBeGreaterThanOrEqual(2);
  });

  test('Anthropic receives the system blocks, stop sequences, images and the thinking budget', async () => {
    await client().messages.create({
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      stop_sequences: ['END'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      metadata: { user_id: 'user-7' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    });
    const body = replay.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      stop_sequences: ['END'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    });
    // The provider gets its own key, never the client's.
    expect(replay.requests[0]?.headers['x-api-key']).toBe('sk-ant-replay-secret');
  });

  test('with thinking on, Anthropic’s thinking comes back as a thinking block before the tool_use', async () => {
    replay.enqueue(fixture('anthropic.messages/success/tool-use-with-thinking.json'));
    const message = await client().messages.create({
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: TOOLS,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });
    expect(message.content[0]?.type).toBe('thinking');
    expect(message.content.at(-1)?.type).toBe('tool_use');
    expect(message.stop_reason).toBe('tool_use');
  });

  test('top_k reaches Anthropic; with thinking on, top_k and temperature are refused as Anthropic refuses them', async () => {
    await client().messages.create(
      sampled({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        top_k: 40,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    );
    expect(replay.requests[0]?.body).toMatchObject({ top_k: 40 });
    const refused = (await client()
      .messages.create(
        sampled({
          model: 'anthropic:claude-sonnet-4-5',
          max_tokens: 2048,
          top_k: 40,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      )
      .catch((error: unknown) => error)) as InstanceType<typeof Anthropic.BadRequestError>;
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(refused.message).toContain('"top_k" cannot be combined with "thinking"');
    expect(replay.requests).toHaveLength(1);
  });

  test('an option the target cannot honour is a 400 naming it, before any provider is called', async () => {
    const refused = await client()
      .messages.create(
        sampled({
          model: 'openai:gpt-4.1',
          max_tokens: 64,
          top_k: 40,
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    const error = refused as InstanceType<typeof Anthropic.BadRequestError>;
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', verdict_code: 'VALIDATION_ERROR' },
    });
    expect(error.message).toContain('top_k');
    expect(error.headers?.get('x-verdict-error-code')).toBe('VALIDATION_ERROR');
    expect(replay.requests).toHaveLength(0);
  });

  test('server tools, unknown members and bad blocks are refused by name', async () => {
    const app = gateway();
    const cases: [Record<string, unknown>, string][] = [
      [{ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, '/tools/0/type'],
      [{ container: 'c-1' }, ''],
      [{ messages: [{ role: 'user', content: [{ type: 'video', data: 'x' }] }] }, '/messages/0/content/0'],
    ];
    for (const [change, path] of cases) {
      const response = await postJson(app, '/anthropic/v1/messages', {
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
        ...change,
      });
      expect(response.status, JSON.stringify(change)).toBe(400);
      const body = (await response.json()) as {
        type: string;
        error: { type: string; details: { problems: { path: string }[] } };
      };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.details.problems.map((problem) => problem.path).join(' ')).toContain(path);
    }
    expect(replay.requests).toHaveLength(0);
  });
});

describe('streamed Messages', () => {
  test.each(FAMILIES)('$name streams text whose Message equals the envelope’s answer', async (family) => {
    const app = gateway();
    const stream = client(app).messages.stream({
      model: family.model,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const pieces: string[] = [];
    stream.on('text', (text) => pieces.push(text));
    const message = await stream.finalMessage();
    const streamed = await postJson(app, '/v1/text', {
      model: family.model,
      input: 'Say hello',
      stream: true,
    });
    const { envelope } = readStreamEnvelope(await streamed.text());
    if (!envelope.success) throw new Error(envelope.error.message);
    const text = message.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('');
    expect(text).toBe(envelope.content);
    expect(pieces.join('')).toBe(envelope.content);
    expect(totalInput(message.usage)).toBe(envelope.usage.input_tokens);
    expect(message.usage.output_tokens).toBe(envelope.usage.output_tokens);
    expect(message.stop_reason).toBe(
      envelope.metadata.finish_reason === 'tool_calls' ? 'tool_use' : 'end_turn',
    );
  });

  test.each(FAMILIES)('$name streams a tool call as a tool_use block with its input', async (family) => {
    replay.enqueue(family.streamedToolCall());
    const message = await client()
      .messages.stream({
        model: family.model,
        max_tokens: 256,
        tools: TOOLS,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      })
      .finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.filter((block) => block.type === 'tool_use')).toMatchObject([
      { type: 'tool_use', name: 'get_weather', input: WEATHER_ARGS },
    ]);
  });

  test('the event sequence is Anthropic’s: message_start, ping, blocks, message_delta, message_stop', async () => {
    const response = await postJson(gateway(), '/anthropic/v1/messages', {
      model: 'openai:gpt-4.1-nano',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('request-id')).toBe(response.headers.get('x-trace-id'));
    const events = parseSse(await response.text());
    const names = events.map((event) => event.event);
    expect(names.slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);
  });

  test('an error event after the stream began ends it with an error event the SDK throws', async () => {
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/stream-overloaded.json'));
    const response = await postJson(gateway(), '/anthropic/v1/messages', {
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const events = parseSse(await response.text());
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', verdict_code: 'PROVIDER_UNAVAILABLE' },
    });
    expect(events.map((event) => event.event)).not.toContain('message_stop');

    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/stream-overloaded.json'));
    const failed = await client()
      .messages.stream({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .finalMessage()
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Anthropic.APIError);
    expect(String((failed as Error).message)).toContain('overloaded_error');
  });

  test('a stream cut short ends with an error event, never a message_stop', async () => {
    // The recorded stream up to its first block's end: text came, then the connection closed without message_stop.
    const { events: recorded } = fixture('anthropic.messages/success/stream-text-and-tool.json');
    const sse = (recorded ?? [])
      .slice(0, 6)
      .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join('');
    replay.enqueue({ sse });
    const response = await postJson(gateway(), '/anthropic/v1/messages', {
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const events = parseSse(await response.text());
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)?.data ?? '{}').error.verdict_code).toBe('INVALID_PROVIDER_RESPONSE');
    expect(events.map((event) => event.event)).not.toContain('message_stop');
  });
});

describe('errors in Anthropic’s shape', () => {
  test.each([
    ['VALIDATION_ERROR/invalid-request-400.json', 400, 'invalid_request_error', Anthropic.BadRequestError],
    [
      'AUTHENTICATION_ERROR/authentication-401.json',
      401,
      'authentication_error',
      Anthropic.AuthenticationError,
    ],
    ['PERMISSION_DENIED/permission-403.json', 403, 'permission_error', Anthropic.PermissionDeniedError],
    ['NOT_FOUND/not-found-404.json', 404, 'not_found_error', Anthropic.NotFoundError],
    ['RATE_LIMITED/rate-limit-429.json', 429, 'rate_limit_error', Anthropic.RateLimitError],
    ['PROVIDER_ERROR/api-error-500.json', 502, 'api_error', Anthropic.InternalServerError],
    ['PROVIDER_UNAVAILABLE/overloaded-529.json', 503, 'overloaded_error', Anthropic.InternalServerError],
  ])('a provider %s is status %i, type %s, the envelope’s code', async (path, status, type, kind) => {
    const app = gateway();
    replay.enqueue(fixture(`anthropic.messages/${path}`));
    const error = (await client(app)
      .messages.create({
        model: 'openai-responses:gpt-5-mini',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    // An Anthropic failure body served behind an OpenAI target is still read by the wire format it came in on;
    // the answer is the same code /v1/text gives.
    replay.enqueue(fixture(`anthropic.messages/${path}`));
    const envelope = (await envelopeOf(app, {
      model: 'openai-responses:gpt-5-mini',
      input: 'Hi',
    })) as UnifiedOutput;
    expect(envelope.success).toBe(false);
    expect(error).toBeInstanceOf(kind);
    expect(error.status).toBe(status);
    expect(error.error).toMatchObject({
      type: 'error',
      error: { type, verdict_code: envelope.success ? '' : envelope.error.code },
    });
    expect(error.headers?.get('x-verdict-error-code')).toBe(envelope.success ? '' : envelope.error.code);
    expect(error.requestID).toBe(error.headers?.get('x-trace-id'));
  });

  test('an Anthropic 429 passes its retry-after on, and a 529 is overloaded_error', async () => {
    replay.enqueue(fixture('anthropic.messages/RATE_LIMITED/rate-limit-429.json'));
    const limited = (await client()
      .messages.create({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(limited.status).toBe(429);
    expect(limited.headers?.get('retry-after')).toBe('20');
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json'));
    const overloaded = (await client()
      .messages.create({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect(overloaded.error).toMatchObject({
      error: { type: 'overloaded_error', verdict_code: 'PROVIDER_UNAVAILABLE' },
    });
  });

  test('an unknown model is not_found_error naming what is configured', async () => {
    const error = (await client()
      .messages.create({
        model: 'nowhere:model',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.NotFoundError>;
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.error).toMatchObject({ error: { type: 'not_found_error', verdict_code: 'NOT_FOUND' } });
  });
});

describe('gateway keys on the Anthropic surface', () => {
  test('the key is taken from x-api-key (the SDK’s apiKey), Authorization (authToken) or api-key', async () => {
    const app = gateway({ keys: [KEY] });
    const ask = (anthropic: Anthropic) =>
      anthropic.messages.create({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      });
    expect((await ask(client(app, { apiKey: KEY }))).type).toBe('message');
    expect((await ask(client(app, { apiKey: null, authToken: KEY }))).type).toBe('message');
    const viaApiKey = await app.request('/anthropic/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': KEY },
      body: JSON.stringify({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
    expect(viaApiKey.status).toBe(200);
    // The provider only ever sees its own key.
    for (const request of replay.requests) {
      expect(request.headers['x-api-key']).toBe('sk-ant-replay-secret');
      expect(JSON.stringify(request.headers)).not.toContain(KEY);
    }
  });

  test('a wrong or missing key is authentication_error (401) in Anthropic’s shape', async () => {
    const app = gateway({ keys: [KEY] });
    for (const anthropic of [
      client(app, { apiKey: `${KEY}-wrong` }),
      client(app, { apiKey: null, authToken: 'nope' }),
    ]) {
      const error = (await anthropic.messages
        .create({
          model: 'anthropic:claude-sonnet-4-5',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hi' }],
        })
        .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.AuthenticationError>;
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(error.error).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error', verdict_code: 'AUTHENTICATION_ERROR' },
      });
    }
    expect(replay.requests).toHaveLength(0);
  });
});

describe('browsers', () => {
  test('a CORS preflight lets the Anthropic SDK’s headers through and exposes request-id', async () => {
    const app = gateway({ keys: [KEY], cors: { origins: ['https://app.example'] } });
    const preflight = await app.request('/anthropic/v1/messages', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, anthropic-version, content-type',
      },
    });
    const allowed = preflight.headers.get('access-control-allow-headers') ?? '';
    for (const header of ['x-api-key', 'api-key', 'anthropic-version', 'anthropic-beta']) {
      expect(allowed).toContain(header);
    }
    const answer = await app.request('/anthropic/v1/models', {
      headers: { origin: 'https://app.example', 'x-api-key': KEY },
    });
    expect(answer.headers.get('access-control-expose-headers')).toContain('request-id');
  });
});

describe('aliases and fallbacks', () => {
  test('an alias falls back to its next target and the Message says which model answered', async () => {
    const app = gateway({ aliases: { smart: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'] } });
    replay.enqueue({
      ...fixture('openai.chat/PROVIDER_UNAVAILABLE/overloaded-503.json'),
      match: '/chat/completions',
    });
    const message = await client(app).messages.create({
      model: 'smart',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.model).toBe('claude-sonnet-4-5-20250929');
    expect(replay.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/messages']);
    const models = await client(app).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['smart']);
  });
});

describe('POST /anthropic/v1/messages/count_tokens', () => {
  test('is forwarded to Anthropic with the provider key for an Anthropic target', async () => {
    replay.enqueue({ body: { input_tokens: 14 }, match: 'count_tokens' });
    const counted = await client().messages.countTokens({
      model: 'anthropic:claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hello, Claude' }],
    });
    expect(counted.input_tokens).toBe(14);
    expect(replay.requests).toHaveLength(1);
    expect(replay.requests[0]).toMatchObject({
      path: '/v1/messages/count_tokens',
      headers: { 'x-api-key': 'sk-ant-replay-secret' },
      body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hello, Claude' }] },
    });
  });

  test('Anthropic’s own failure comes back in its meaning', async () => {
    replay.enqueue({
      ...fixture('anthropic.messages/RATE_LIMITED/rate-limit-429.json'),
      match: 'count_tokens',
    });
    const error = (await client()
      .messages.countTokens({
        model: 'anthropic:claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(error.headers?.get('retry-after')).toBe('20');
  });

  test('another provider’s target is a 400 that says so, never a made-up count', async () => {
    const error = (await client()
      .messages.countTokens({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.BadRequestError>;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain('Anthropic targets only');
    expect(replay.requests).toHaveLength(0);
  });
});

describe('the AI SDK’s @ai-sdk/anthropic with baseURL', () => {
  const provider = (app: ReturnType<typeof createGateway>) =>
    createAnthropic({ baseURL: 'http://localhost/anthropic/v1', apiKey: KEY, fetch: fetchOf(app) });

  test('generateText and streamText reach OpenAI through the gateway', async () => {
    const app = gateway({ keys: [KEY] });
    const plain = await generateText({ model: provider(app)('openai:gpt-4.1-nano'), prompt: 'Say hello' });
    expect(plain.text.length).toBeGreaterThan(0);
    const streamed = streamText({ model: provider(app)('openai:gpt-4.1-nano'), prompt: 'Say hello' });
    expect(await streamed.text).toBe('Hello!');
    expect(
      replay.requests.every((request) => request.headers.authorization === 'Bearer sk-replay-openai-secret'),
    ).toBe(true);
  });

  test('a tool call made by Gemini comes back to the AI SDK as a tool call', async () => {
    const app = gateway({ keys: [KEY] });
    const gemini = FAMILIES.find((family) => family.name === 'Gemini');
    replay.enqueue(gemini?.toolCalls(false) ?? {});
    const result = await generateText({
      model: provider(app)('google:gemini-2.5-flash'),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: tool({ inputSchema: jsonSchema(TOOLS[0]?.input_schema ?? {}) }) },
    });
    expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['get_weather', WEATHER_ARGS],
    ]);
  });
});

describe('GET /openapi.json', () => {
  test('describes the Anthropic routes and their request bodies', async () => {
    const document = (await (await gateway().request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(document.paths['/anthropic/v1/messages']?.post?.requestBody).toBeDefined();
    expect(document.paths['/anthropic/v1/messages/count_tokens']?.post?.requestBody).toBeDefined();
    expect(document.paths['/anthropic/v1/models']?.get).toBeDefined();
  });
});

describe('docs/gateway.md, "Anthropic clients"', () => {
  test('the curl example answers what the page shows, against the demo provider', async () => {
    const page = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
    const found =
      /```sh\ncurl -s localhost:8787(\/anthropic\S+) -H '([^:]+): ([^']+)' -H '([^:]+): ([^']+)' -d '([^']+)'\n```\n```json\n([^\n]+)\n```/.exec(
        page,
      );
    if (found === null)
      throw new Error('docs/gateway.md has no Anthropic curl example this test can replay.');
    const [, path, firstName, , secondName, secondValue, body, shown] = found as unknown as string[];
    const demo = createGateway({ providers: { demo: {} } });
    const response = await demo.request(path as string, {
      method: 'POST',
      headers: { [firstName as string]: 'any-key', [secondName as string]: secondValue as string },
      body: body as string,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toBe(secondValue);
    expect(await response.json()).toEqual(JSON.parse(shown as string));
  });
});
