import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createKey, type GatewayStore, migrateStore, openStore } from '../../src/gateway/store/index.js';
import { fixture, type ReplayAnswer, type ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

/**
 * Same-format forwarding (docs/gateway.md, "Same-format forwarding"), driven by the official `openai` and
 * `@anthropic-ai/sdk` clients before replay providers: the provider gets the client's own body with only the
 * documented changes, the client gets the provider's own answer, event for event, and the gateway still counts,
 * prices, logs, retries, falls back and answers failures in the client's shape.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'gateway-key-for-forwarding-tests';

function gatewayOf(options: Partial<GatewayOptions> = {}) {
  const lines: string[] = [];
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    keys: [KEY],
    retries: 0,
    log: (line) => lines.push(line),
    ...options,
  });
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { gateway, logged };
}

type Gateway = ReturnType<typeof gatewayOf>['gateway'];

function openaiOf(gateway: Gateway, apiKey = KEY): OpenAI {
  return new OpenAI({
    apiKey,
    baseURL: 'http://localhost/openai/v1',
    maxRetries: 0,
    fetch: async (input, init) => gateway.request(String(input), init as RequestInit),
  });
}

function anthropicOf(gateway: Gateway): Anthropic {
  return new Anthropic({
    apiKey: KEY,
    baseURL: 'http://localhost/anthropic',
    maxRetries: 0,
    fetch: async (input, init) => gateway.request(String(input), init as RequestInit),
  });
}

/** A raw POST to the gateway, as a client sends it. */
function post(gateway: Gateway, path: string, body: unknown, headers: Record<string, string> = {}) {
  return gateway.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The body the provider received in request `index`. */
function received(index = 0): Record<string, unknown> {
  return replay.requests[index]?.body as Record<string, unknown>;
}

/** OpenAI Chat server-sent events of `events`, then `[DONE]`, as OpenAI writes them. */
function openAiSse(events: readonly unknown[]): string {
  return `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** Anthropic's server-sent events of `events`, each named by its type. */
function anthropicSse(events: readonly { type: string }[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** The events of a recorded stream fixture. */
function eventsOf(path: string): Record<string, unknown>[] {
  return (fixture(path).events ?? []) as Record<string, unknown>[];
}

const OPENAI_STREAM = eventsOf('openai.chat/success/stream-text.json');
const ANTHROPIC_STREAM = eventsOf('anthropic.messages/success/stream-text-and-tool.json') as {
  type: string;
}[];

describe('an OpenAI client in front of an OpenAI-compatible provider', () => {
  const request = {
    model: 'openai:gpt-4.1-mini',
    messages: [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
    ],
    temperature: 0.2,
    user: 'user-42',
    store: false,
    metadata: { team: 'search' },
    max_completion_tokens: 100,
    seed: 7,
  };
  /** The request in the members every OpenAI-compatible provider takes, for aliases that fall back to one. */
  const portable = {
    model: 'openai:gpt-4.1-mini',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
    ],
    temperature: 0.2,
    user: 'user-42',
    max_tokens: 100,
    seed: 7,
  };

  test('the provider gets the client body, members in order, with only the model id changed', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', request);
    expect(answer.status).toBe(200);
    const body = received();
    expect(body).toEqual({ ...request, model: 'gpt-4.1-mini' });
    expect(Object.keys(body)).toEqual(Object.keys(request));
    const headers = replay.requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer sk-replay-openai-secret');
    expect(JSON.stringify(headers)).not.toContain(KEY);
    expect(headers['x-trace-id']).toBe(answer.headers.get('x-trace-id'));
    expect(replay.requests[0]?.path).toBe('/v1/chat/completions');
  });

  test("a plain answer is the provider's body as it sent it, with the gateway's headers and cost", async () => {
    const recorded = fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json');
    replay.enqueue(recorded);
    const { gateway, logged } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', request);
    expect(await answer.text()).toBe(JSON.stringify(recorded.body));
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toBe(answer.headers.get('x-trace-id'));
    expect(answer.headers.get('x-verdict-cost-usd')).toMatch(/^(\d+(\.\d+)?|unknown)$/);
    expect(logged().at(-1)).toMatchObject({
      route: '/openai/v1/chat/completions',
      status: 200,
      code: 'ok',
      provider: 'openai',
      target: 'openai:gpt-4.1-mini',
      model: 'gpt-4.1-mini-2025-04-14',
      surface: 'openai',
      usage: { input_tokens: 1200, output_tokens: 80 },
      cost: { usd: expect.any(Number) },
    });
  });

  test('the official client reads the forwarded answer', async () => {
    const { gateway } = gatewayOf();
    const completion = await openaiOf(gateway).chat.completions.create({
      model: 'openrouter:meta-llama/llama-3.3-70b-instruct',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    expect(completion.id).toBe('chatcmpl-AbC123');
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(completion._request_id).toMatch(/^[0-9a-f]{32}$/);
    expect(received().model).toBe('meta-llama/llama-3.3-70b-instruct');
    expect(replay.requests[0]?.headers.authorization).toBe('Bearer sk-or-replay-secret');
  });

  test('a packaged OpenAI-compatible type (Groq) is forwarded to as well', async () => {
    const { gateway } = gatewayOf({
      providers: {
        groq: { type: 'groq', baseURL: replay.baseURL.compatible, apiKey: 'gsk-replay-groq-secret' },
      },
    });
    const body = {
      model: 'groq:llama-3.3-70b-versatile',
      messages: [{ role: 'user', content: 'Hi' }],
      seed: 1,
    };
    const answer = await post(gateway, '/openai/v1/chat/completions', body);
    expect(((await answer.json()) as { id: string }).id).toBe('chatcmpl-AbC123');
    expect(received()).toEqual({ ...body, model: 'llama-3.3-70b-versatile' });
    expect(replay.requests[0]?.headers.authorization).toBe('Bearer gsk-replay-groq-secret');
  });

  test('a stream asks for its usage, and the client gets every event but the usage chunk it did not ask for', async () => {
    replay.enqueue({ sse: openAiSse(OPENAI_STREAM) });
    const { gateway, logged } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...request, stream: true });
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    const withoutUsage = OPENAI_STREAM.filter(
      (event) => !(Array.isArray(event.choices) && event.choices.length === 0),
    );
    expect(withoutUsage).toHaveLength(OPENAI_STREAM.length - 1);
    expect(await answer.text()).toBe(openAiSse(withoutUsage));
    expect(received()).toEqual({
      ...request,
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
    });
    // The usage chunk the client did not see still counts.
    expect(logged().at(-1)).toMatchObject({
      status: 200,
      code: 'ok',
      usage: { input_tokens: 9, output_tokens: 2 },
    });
  });

  test('a stream whose client asked for its usage passes through byte for byte', async () => {
    const sse = openAiSse(OPENAI_STREAM);
    replay.enqueue({ sse });
    const { gateway } = gatewayOf();
    const asked = { ...request, stream: true, stream_options: { include_usage: true } };
    const answer = await post(gateway, '/openai/v1/chat/completions', asked);
    expect(await answer.text()).toBe(sse);
    expect(received()).toEqual({ ...asked, model: 'gpt-4.1-mini' });
  });

  test('the official client streams the forwarded events', async () => {
    replay.enqueue(fixture('openai.chat/success/stream-text.json'));
    const { gateway } = gatewayOf();
    const stream = await openaiOf(gateway).chat.completions.create({
      model: 'openai:gpt-4.1-nano',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual(OPENAI_STREAM);
  });

  test('a stream cut short ends with an OpenAI error event after the text it got', async () => {
    const cut = `${OPENAI_STREAM.slice(0, 3)
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join('')}`;
    replay.enqueue({ sse: cut });
    const { gateway, logged } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...request, stream: true });
    const text = await answer.text();
    expect(text.startsWith(cut)).toBe(true);
    const last = JSON.parse(text.slice(cut.length).replace(/^data: /, ''));
    // The same code `verdict normalize` gives the same bytes (docs/unified.md, "Streams").
    expect(last.error).toMatchObject({ verdict_code: 'INVALID_PROVIDER_RESPONSE', type: 'server_error' });
    expect(logged().at(-1)).toMatchObject({ code: 'INVALID_PROVIDER_RESPONSE' });
  });

  test('a client that goes away mid-stream lets the provider request go, and is logged as client_closed', async () => {
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { stallAfterEvents: 2 }));
    const { gateway, logged } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...request, stream: true });
    const reader = answer.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('chat.completion.chunk');
    await reader?.cancel();
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => logged().at(-1)?.code, { timeout: 15_000 }).toBe('client_closed');
  });

  test("a stream past the route's deadline ends with an OpenAI error event naming PROVIDER_TIMEOUT", async () => {
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { stallAfterEvents: 2 }));
    const { gateway } = gatewayOf({ timeoutMs: 300 });
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...request, stream: true });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const frames = text.trim().split('\n\n');
    expect(frames).toHaveLength(3);
    expect(JSON.parse(frames[2]?.replace(/^data: /, '') ?? '{}').error).toMatchObject({
      verdict_code: 'PROVIDER_TIMEOUT',
    });
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
  });

  test("the gateway's stop ends a forwarded stream with an error event naming the shutdown, and waits for it", async () => {
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { stallAfterEvents: 2 }));
    const { gateway, logged } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...request, stream: true });
    const reader = answer.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let text = new TextDecoder().decode((await reader.read()).value);
    expect(gateway.inFlight()).toBe(1);
    gateway.close();
    gateway.abortInFlight();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += new TextDecoder().decode(next.value);
    }
    const last = JSON.parse(
      text
        .trim()
        .split('\n\n')
        .at(-1)
        ?.replace(/^data: /, '') ?? '{}',
    );
    expect(last.error).toMatchObject({ verdict_code: 'PROVIDER_UNAVAILABLE' });
    await gateway.idle();
    expect(logged().at(-1)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
  });

  test("a provider's error before the answer is the client's error, with verdict's code and status", async () => {
    replay.enqueue(fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'));
    const { gateway } = gatewayOf();
    const error = await openaiOf(gateway)
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      verdict_code: 'RATE_LIMITED',
    });
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.APIError>).error)).not.toContain('sk-replay');
  });

  test('an error event mid-stream ends the stream with an OpenAI error event the client raises', async () => {
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/stream-mid-error.json'));
    const { gateway } = gatewayOf();
    const stream = await openaiOf(gateway).chat.completions.create({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(text).toBe('Partial answer');
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      verdict_code: 'PROVIDER_ERROR',
    });
  });

  test('a failed target falls back to the next, which gets the body with its own model id', async () => {
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/server-error-500.json'));
    const { gateway, logged } = gatewayOf({
      aliases: { fast: ['openai:gpt-4.1-mini', 'openrouter:meta-llama/llama-3.3-70b-instruct'] },
    });
    const answer = await post(gateway, '/openai/v1/chat/completions', { ...portable, model: 'fast' });
    expect(answer.status).toBe(200);
    expect(replay.requests.map((sent) => (sent.body as { model: string }).model)).toEqual([
      'gpt-4.1-mini',
      'meta-llama/llama-3.3-70b-instruct',
    ]);
    expect(logged().at(-1)).toMatchObject({ target: 'openrouter:meta-llama/llama-3.3-70b-instruct' });
  });

  test('a stream that fails before its first event falls back too', async () => {
    replay.enqueue(fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'), {
      sse: openAiSse(OPENAI_STREAM),
    });
    const { gateway } = gatewayOf({
      aliases: { fast: ['openai:gpt-4.1-mini', 'openrouter:meta-llama/llama-3.3-70b-instruct'] },
    });
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      ...portable,
      model: 'fast',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(await answer.text()).toBe(openAiSse(OPENAI_STREAM));
    expect(replay.requests).toHaveLength(2);
  });
});

describe('an Anthropic client in front of Anthropic', () => {
  const request = {
    model: 'anthropic:claude-sonnet-4-5',
    max_tokens: 256,
    system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
    thinking: { type: 'enabled', budget_tokens: 2048 },
    metadata: { user_id: 'user-42' },
  };

  test('the provider gets the client body, cache hints and thinking included, with its own key', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/anthropic/v1/messages', request, { 'x-api-key': KEY });
    expect(answer.status).toBe(200);
    expect(received()).toEqual({ ...request, model: 'claude-sonnet-4-5' });
    const headers = replay.requests[0]?.headers ?? {};
    expect(headers['x-api-key']).toBe('sk-ant-replay-secret');
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.authorization).toBeUndefined();
  });

  test("the official client gets Anthropic's own message", async () => {
    const recorded = fixture('anthropic.messages/success/text-with-prompt-cache.json');
    replay.enqueue(recorded);
    const { gateway, logged } = gatewayOf();
    const message = await anthropicOf(gateway).messages.create({
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const { _request_id: requestId, ...rest } = message as typeof message & { _request_id?: unknown };
    expect(rest).toEqual(recorded.body);
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    const usage = (recorded.body as { usage: Record<string, number> }).usage;
    expect(logged().at(-1)).toMatchObject({
      route: '/anthropic/v1/messages',
      code: 'ok',
      provider: 'anthropic',
      usage: {
        input_tokens:
          (usage.input_tokens ?? 0) +
          (usage.cache_creation_input_tokens ?? 0) +
          (usage.cache_read_input_tokens ?? 0),
        output_tokens: usage.output_tokens,
      },
    });
  });

  test('a stream reaches the client event for event', async () => {
    const sse = anthropicSse(ANTHROPIC_STREAM);
    replay.enqueue({ sse });
    const { gateway } = gatewayOf();
    const answer = await post(
      gateway,
      '/anthropic/v1/messages',
      { ...request, stream: true },
      { 'x-api-key': KEY },
    );
    expect(await answer.text()).toBe(sse);
    expect(received()).toEqual({ ...request, model: 'claude-sonnet-4-5', stream: true });
    expect(answer.headers.get('request-id')).toBe(answer.headers.get('x-trace-id'));
  });

  test('the official client streams the forwarded events', async () => {
    replay.enqueue({ sse: anthropicSse(ANTHROPIC_STREAM) });
    const { gateway } = gatewayOf();
    const stream = anthropicOf(gateway).messages.stream({
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const events = [];
    for await (const event of stream) events.push(event);
    // The SDK's stream leaves out Anthropic's keep-alive `ping` (and builds its message in place, in the
    // message_start event's object): every other event arrives in order, each delta as the provider sent it.
    const sent = ANTHROPIC_STREAM.filter((event) => event.type !== 'ping');
    expect(events.map((event) => event.type)).toEqual(sent.map((event) => event.type));
    const deltas = (list: readonly { type: string }[]) =>
      list.flatMap((event) => (event.type === 'content_block_delta' ? [JSON.stringify(event)] : []));
    expect(deltas(events)).toEqual(deltas(sent));
    expect(deltas(sent).length).toBeGreaterThan(1);
    expect(await stream.finalMessage()).toMatchObject({ stop_reason: 'tool_use' });
  });

  test('an overloaded Anthropic is an overloaded_error in Anthropic shape, with the status of verdict', async () => {
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json'));
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/anthropic/v1/messages', request, { 'x-api-key': KEY });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-verdict-error-code')).toBe('PROVIDER_UNAVAILABLE');
    expect(await answer.json()).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', verdict_code: 'PROVIDER_UNAVAILABLE' },
    });
  });

  test("an error event mid-stream ends the stream with Anthropic's error event", async () => {
    replay.enqueue(fixture('anthropic.messages/PROVIDER_UNAVAILABLE/stream-overloaded.json'));
    const { gateway, logged } = gatewayOf();
    const answer = await post(
      gateway,
      '/anthropic/v1/messages',
      { ...request, stream: true },
      { 'x-api-key': KEY },
    );
    const text = await answer.text();
    const frames = text.trim().split('\n\n');
    expect(frames.at(-1)).toMatch(/^event: error\n/);
    expect(JSON.parse(frames.at(-1)?.split('data: ')[1] ?? '{}')).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', verdict_code: 'PROVIDER_UNAVAILABLE' },
    });
    expect(logged().at(-1)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });
});

describe('when the gateway translates instead', () => {
  const question = { messages: [{ role: 'user', content: 'Capital of France?' }] };

  /** True when the answer is the gateway's rendering (its id names the trace), not the provider's body. */
  async function translated(answer: Response): Promise<boolean> {
    const body = (await answer.json()) as { id: string };
    return body.id === `chatcmpl-${answer.headers.get('x-trace-id')}`;
  }

  test('a plain request to the same format is forwarded (the control case)', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openai:gpt-4.1',
      ...question,
    });
    expect(await translated(answer)).toBe(false);
  });

  test('a JSON answer the gateway checks is translated', async () => {
    replay.enqueue(fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json'));
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openai:gpt-4.1',
      ...question,
      response_format: { type: 'json_object' },
    });
    // The gateway checks the answer is JSON; the recorded text is not, so it is refused, as without forwarding.
    expect(answer.status).toBe(502);
    expect((await answer.json()).error.verdict_code).toBe('INVALID_PROVIDER_RESPONSE');
  });

  test('an alias whose fallbacks mix formats is translated', async () => {
    const { gateway } = gatewayOf({ aliases: { mixed: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'] } });
    const answer = await post(gateway, '/openai/v1/chat/completions', { model: 'mixed', ...question });
    expect(await translated(answer)).toBe(true);
  });

  test('with the response cache on, requests are translated', async () => {
    const { gateway } = gatewayOf({ cache: { ttl_s: 60 } });
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openai:gpt-4.1',
      ...question,
    });
    expect(await translated(answer)).toBe(true);
  });

  test('members only OpenAI takes, sent to another provider, are translated', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openrouter:meta-llama/llama-3.3-70b-instruct',
      ...question,
      store: false,
    });
    expect(await translated(answer)).toBe(true);
    expect(received()).not.toHaveProperty('store');
  });

  test('a developer message, sent to another provider, is translated to its system message', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openrouter:meta-llama/llama-3.3-70b-instruct',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
    });
    expect(await translated(answer)).toBe(true);
    expect((received().messages as { role: string }[])[0]?.role).toBe('system');
  });

  test('an Anthropic client in front of OpenAI is translated', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(
      gateway,
      '/anthropic/v1/messages',
      { model: 'openai:gpt-4.1', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] },
      { 'x-api-key': KEY },
    );
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { type: string }).type).toBe('message');
    expect(received()).toHaveProperty('messages');
    expect(replay.requests[0]?.path).toBe('/v1/chat/completions');
  });

  test('a request the gateway refuses is refused before forwarding, as before', async () => {
    const { gateway } = gatewayOf();
    const answer = await post(gateway, '/openai/v1/chat/completions', {
      model: 'openai:gpt-4.1',
      ...question,
      top_k: 5,
    });
    expect(answer.status).toBe(400);
    expect(replay.requests).toHaveLength(0);
  });
});

describe('usage records of forwarded requests', () => {
  let store: GatewayStore;
  // PGlite runs initdb when it creates a database, which takes seconds: one per file.
  beforeAll(async () => {
    store = await openStore(':memory:');
    await migrateStore(store);
  }, 180_000);
  afterAll(async () => {
    await store.close();
  });

  test('a forwarded plain answer and a forwarded stream each leave their record, tokens and cost', async () => {
    const { key } = await createKey(store, 'team-forward');
    const gateway = createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      store,
      retries: 0,
    });
    replay.enqueue(fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json'), {
      sse: anthropicSse(ANTHROPIC_STREAM),
    } satisfies ReplayAnswer);
    await openaiOf(gateway, key).chat.completions.create({
      model: 'openai:gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    const answer = await gateway.request('/anthropic/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'anthropic:claude-sonnet-4-5',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
    await answer.text();
    expect(await gateway.flush()).toBe(0);
    const rows = await store.query<Record<string, unknown>>(
      'SELECT route, surface, code, input_tokens, output_tokens FROM verdict_usage ORDER BY route',
    );
    expect(rows).toEqual([
      {
        route: '/anthropic/v1/messages',
        surface: 'anthropic',
        code: 'ok',
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
      },
      {
        route: '/openai/v1/chat/completions',
        surface: 'openai',
        code: 'ok',
        input_tokens: 1200,
        output_tokens: 80,
      },
    ]);
    expect((rows[0]?.output_tokens as number) > 0).toBe(true);
  });
});
