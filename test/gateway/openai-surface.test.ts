import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, providersWithResponses, type ReplayProviders } from '../helpers/replay-providers.js';
import { AGENT_TOOLS, FAMILIES, UNITS_ARGS, WEATHER_ARGS } from './agent-wire.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The OpenAI surface driven by the official `openai` package and the AI SDK's OpenAI-compatible provider,
 * before replay providers answering recorded bodies: every upstream family, plain and streamed, tools both
 * ways, errors in OpenAI's shape, keys, aliases and fallbacks.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'gateway-key-for-openai-clients';

function gatewayOf(options: Partial<GatewayOptions> = {}) {
  return createGateway({
    providers: providersWithResponses(replay) as GatewayOptions['providers'],
    keys: [KEY],
    retries: 0,
    ...options,
  });
}

type Gateway = ReturnType<typeof gatewayOf>;

/** The official OpenAI client pointed at the gateway, in process. */
function openaiOf(gateway: Gateway, apiKey = KEY, maxRetries = 0): OpenAI {
  return new OpenAI({
    apiKey,
    baseURL: 'http://localhost/openai/v1',
    maxRetries,
    fetch: async (input, init) => gateway.request(String(input), init as RequestInit),
  });
}

/** The body the provider received in its one request. */
function sent(): Record<string, unknown> {
  expect(replay.requests).toHaveLength(1);
  return replay.requests[0]?.body as Record<string, unknown>;
}

describe('POST /openai/v1/chat/completions', () => {
  for (const family of FAMILIES) {
    describe(family.name, () => {
      test('answers a chat.completion with the text and usage in OpenAI names', async () => {
        replay.enqueue(family.text('Hello from the gateway.'));
        const completion = await openaiOf(gatewayOf()).chat.completions.create({
          model: family.model,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Say hello.' },
          ],
        });
        expect(completion.object).toBe('chat.completion');
        expect(completion.choices[0]?.message.content).toBe('Hello from the gateway.');
        expect(completion.choices[0]?.finish_reason).toBe('stop');
        expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
        expect(completion.usage?.total_tokens).toBe(
          (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
        );
        // The provider got the system prompt and the user's text in its own format, with its own key.
        const body = JSON.stringify(sent());
        expect(body).toContain('Be brief.');
        expect(body).toContain('Say hello.');
        expect(JSON.stringify(replay.requests[0]?.headers)).not.toContain(KEY);
      });

      test('answers tool calls with JSON-string arguments, and takes tool results back', async () => {
        replay.enqueue(family.toolCalls(true));
        const client = openaiOf(gatewayOf());
        const first = await client.chat.completions.create({
          model: family.model,
          messages: [{ role: 'user', content: 'Weather in Oslo, in F?' }],
          tools: AGENT_TOOLS as unknown as OpenAI.ChatCompletionTool[],
        });
        const message = first.choices[0]?.message;
        expect(first.choices[0]?.finish_reason).toBe('tool_calls');
        const calls = (message?.tool_calls ?? []) as OpenAI.ChatCompletionMessageFunctionToolCall[];
        expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'convert_units']);
        expect(calls.map((call) => JSON.parse(call.function.arguments))).toEqual([WEATHER_ARGS, UNITS_ARGS]);
        for (const call of calls) expect(call.id).not.toBe('');

        replay.reset();
        replay.enqueue(family.text('It is 12 °C.'));
        // The message goes back as the SDK gave it (refusal, annotations and all), with the tool results.
        const second = await client.chat.completions.create({
          model: family.model,
          messages: [
            { role: 'user', content: 'Weather in Oslo, in F?' },
            message as OpenAI.ChatCompletionMessageParam,
            ...calls.map((call) => ({
              role: 'tool' as const,
              tool_call_id: call.id,
              content: JSON.stringify({ result: `done ${call.function.name}` }),
            })),
          ],
          tools: AGENT_TOOLS as unknown as OpenAI.ChatCompletionTool[],
        });
        expect(second.choices[0]?.message.content).toBe('It is 12 °C.');
        const body = JSON.stringify(sent());
        expect(body).toContain('done get_weather');
        expect(body).toContain('done convert_units');
      });

      test('streams chat.completion.chunks, the usage chunk and [DONE]', async () => {
        const stream = await openaiOf(gatewayOf()).chat.completions.create({
          model: family.model,
          messages: [{ role: 'user', content: 'Say hello.' }],
          stream: true,
          stream_options: { include_usage: true },
        });
        let text = '';
        const chunks: OpenAI.ChatCompletionChunk[] = [];
        for await (const chunk of stream) {
          chunks.push(chunk);
          text += chunk.choices[0]?.delta.content ?? '';
        }
        expect(text.length).toBeGreaterThan(0);
        expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
        expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
        // The finish chunk comes last before the usage chunk (some recorded streams end in a tool call).
        expect(chunks.at(-2)?.choices[0]?.finish_reason).toMatch(/^(stop|tool_calls)$/);
        expect(chunks.slice(0, -2).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
        expect(chunks.at(-1)?.choices).toEqual([]);
        expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
      });

      test('streams a tool call as tool_calls deltas whose arguments join into JSON', async () => {
        replay.enqueue(family.streamedToolCall());
        const stream = await openaiOf(gatewayOf()).chat.completions.create({
          model: family.model,
          messages: [{ role: 'user', content: 'Weather in Oslo?' }],
          tools: AGENT_TOOLS as unknown as OpenAI.ChatCompletionTool[],
          stream: true,
        });
        const calls = new Map<number, { id?: string | undefined; name?: string | undefined; args: string }>();
        let finish: string | null | undefined;
        for await (const chunk of stream) {
          finish = chunk.choices[0]?.finish_reason ?? finish;
          for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
            const call = calls.get(delta.index) ?? { args: '' };
            call.id ??= delta.id;
            call.name ??= delta.function?.name;
            call.args += delta.function?.arguments ?? '';
            calls.set(delta.index, call);
          }
        }
        expect([...calls.values()].map((call) => call.name)).toEqual(['get_weather']);
        expect(JSON.parse(calls.get(0)?.args ?? '')).toEqual(WEATHER_ARGS);
        expect(finish).toBe('tool_calls');
      });
    });
  }

  test('cached and reasoning tokens are named as OpenAI names them', async () => {
    const completion = await openaiOf(gatewayOf()).chat.completions.create({
      model: 'openai:gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    // An OpenAI target's answer is forwarded as OpenAI sent it (docs/gateway.md, "Same-format forwarding"): its
    // usage in OpenAI's own names, with whatever other counts OpenAI adds.
    expect(completion.usage).toMatchObject({
      prompt_tokens: 1200,
      completion_tokens: 80,
      total_tokens: 1280,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 32 },
    });
    expect(completion.model).toBe('gpt-4.1-mini-2025-04-14');
  });

  test('image parts, response_format and the fields clients send reach the provider', async () => {
    replay.enqueue(FAMILIES[0]?.text('{"animal":"cat"}') ?? {});
    await openaiOf(gatewayOf()).chat.completions.create({
      model: 'openai:gpt-4.1-mini',
      messages: [
        { role: 'developer', content: 'Answer in JSON.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          ],
        },
      ],
      response_format: { type: 'json_object' },
      user: 'user-7',
      n: 1,
      store: false,
      metadata: { team: 'a' },
      max_completion_tokens: 50,
      seed: 3,
      service_tier: 'default',
      parallel_tool_calls: true,
    });
    const body = sent();
    expect(body).toMatchObject({
      response_format: { type: 'json_object' },
      user: 'user-7',
      store: false,
      metadata: { team: 'a' },
      seed: 3,
      service_tier: 'default',
    });
    expect(JSON.stringify(body.messages)).toContain('https://example.com/cat.png');
  });

  test('a field the target cannot honour is a 400 naming it, before any provider call', async () => {
    const client = openaiOf(gatewayOf());
    const refused = await client.chat.completions
      .create({
        model: 'anthropic:claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Hi' }],
        seed: 3,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const error = refused as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error.message).toContain('does not take "seed"');
    expect(error.param).toBe('seed');
    expect(error.headers?.get('x-verdict-error-code')).toBe('VALIDATION_ERROR');
    const many = (await client.chat.completions
      .create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }], n: 2, logprobs: true })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(many.status).toBe(400);
    expect(many.message).toContain('/n: Must be 1');
    expect(many.message).toContain('/logprobs: Must be false');
    expect(replay.requests).toHaveLength(0);
  });

  test('the answer carries the trace id as x-request-id, which the SDK reads as _request_id', async () => {
    const completion = await openaiOf(gatewayOf()).chat.completions.create({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion._request_id).toMatch(/^[0-9a-f]{32}$/);
    // Forwarded to OpenAI, the completion is OpenAI's own, its id too; the trace id is in the header.
    expect(completion.id).toBe('chatcmpl-AbC123');
  });
});

describe('errors on the OpenAI surface', () => {
  test('a wrong key is an AuthenticationError in OpenAI shape; no provider is called', async () => {
    const error = await openaiOf(gatewayOf(), 'not-the-gateway-key-at-all')
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      verdict_code: 'AUTHENTICATION_ERROR',
    });
    expect(replay.requests).toHaveLength(0);
  });

  test.each([
    [
      'openai:gpt-4.1',
      'openai.chat/VALIDATION_ERROR/unsupported-parameter-400.json',
      400,
      'VALIDATION_ERROR',
    ],
    [
      'openai:gpt-4.1',
      'openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json',
      401,
      'AUTHENTICATION_ERROR',
    ],
    ['openai:gpt-4.1', 'openai.chat/PERMISSION_DENIED/unsupported-region-403.json', 403, 'PERMISSION_DENIED'],
    ['openai:gpt-4.1', 'openai.chat/NOT_FOUND/model-not-found-404.json', 404, 'NOT_FOUND'],
    ['openai:gpt-4.1', 'openai.chat/PROVIDER_ERROR/server-error-500.json', 502, 'PROVIDER_ERROR'],
    [
      'anthropic:claude-sonnet-4-5',
      'anthropic.messages/PROVIDER_UNAVAILABLE/overloaded-529.json',
      503,
      'PROVIDER_UNAVAILABLE',
    ],
  ])('%s answering %s is a %i with verdict code %s', async (model, path, status, code) => {
    replay.enqueue(fixture(path));
    const response = await gatewayOf().request('/openai/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-verdict-error-code')).toBe(code);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatchObject({ verdict_code: code });
    expect(typeof body.error.message).toBe('string');
    expect(body.error).toHaveProperty('type');
    expect(body.error).toHaveProperty('param');
    expect(body.error).toHaveProperty('code');
    expect(response.headers.get('x-request-id')).toBe(body.error.trace_id);
  });

  test("a 429 passes the provider's retry-after on, and the SDK waits for it before trying again", async () => {
    replay.enqueue(
      fixture('openai.chat/RATE_LIMITED/rate-limit-429.json', { headers: { 'retry-after': '0' } }),
    );
    const completion = await openaiOf(gatewayOf(), KEY, 1).chat.completions.create({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Paris is the capital of France.');
    expect(replay.requests).toHaveLength(2);
    replay.reset();
    replay.enqueue(
      fixture('openai.chat/RATE_LIMITED/rate-limit-429.json', { headers: { 'retry-after': '7' } }),
    );
    const error = (await openaiOf(gatewayOf())
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.code).toBe('rate_limit_exceeded');
  });

  test('an unknown route under the prefix is a 404 in OpenAI shape', async () => {
    const response = await gatewayOf().request('/openai/v1/images/generations', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { verdict_code: string } }).error.verdict_code).toBe(
      'NOT_FOUND',
    );
  });

  test('a stream that fails after it began ends with an OpenAI error event, which the SDK raises', async () => {
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/stream-mid-error.json'));
    const stream = await openaiOf(gatewayOf()).chat.completions.create({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(text).toBe('Partial answer');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      verdict_code: 'PROVIDER_ERROR',
    });
  });

  test('a provider stream cut short ends with an error event, not a silent close', async () => {
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { dropAfterEvents: 3, eventDelayMs: 30 }));
    const response = await gatewayOf().request('/openai/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai:gpt-4.1',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const last = text.trim().split('\n\n').at(-1) ?? '';
    expect(last.startsWith('data: {"error":')).toBe(true);
    expect(text).not.toContain('[DONE]');
  });
});

describe('aliases and fallbacks on the OpenAI surface', () => {
  test('an alias falls back to its next target and the answer says which model answered', async () => {
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/server-error-500.json'));
    const gateway = gatewayOf({
      aliases: { smart: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5'] },
    } as Partial<GatewayOptions>);
    const completion = await openaiOf(gateway).chat.completions.create({
      model: 'smart',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).not.toBe('');
    expect(replay.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/messages']);
    const models = await openaiOf(gateway).models.list();
    expect(models.data.map((model) => model.id)).toEqual([
      'smart',
      'openai:gpt-4.1',
      'anthropic:claude-sonnet-4-5',
    ]);
    expect((await openaiOf(gateway).models.retrieve('smart')).owned_by).toBe('verdict');
    expect((await openaiOf(gateway).models.retrieve('openrouter:meta/llama-3')).owned_by).toBe('openrouter');
    const missing = await openaiOf(gateway)
      .models.retrieve('nowhere:model')
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('the AI SDK OpenAI-compatible provider against the surface', () => {
  const providerOf = (gateway: Gateway) =>
    createOpenAICompatible({
      name: 'verdict',
      baseURL: 'http://localhost/openai/v1',
      apiKey: KEY,
      includeUsage: true,
      fetch: async (input, init) => gateway.request(String(input), init as RequestInit),
    });

  test('generateText and streamText reach Gemini through the gateway', async () => {
    const gateway = gatewayOf();
    const model = providerOf(gateway)('google:gemini-2.5-flash');
    const plain = await generateText({ model, prompt: 'Say hi', maxRetries: 0 });
    expect(plain.text.length).toBeGreaterThan(0);
    expect(plain.usage.inputTokens).toBeGreaterThan(0);
    const streamed = streamText({ model, prompt: 'Say hi', maxRetries: 0 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text.length).toBeGreaterThan(0);
    expect((await streamed.usage).outputTokens).toBeGreaterThan(0);
  });
});

describe('one normalized result behind both answers', () => {
  for (const family of FAMILIES) {
    test(`${family.name}: /v1/text and the chat completion carry the same text, tool calls and usage`, async () => {
      const gateway = gatewayOf();
      const request = {
        model: family.model,
        messages: [{ role: 'user', content: 'Weather in Oslo, in F?' }],
        tools: AGENT_TOOLS,
      };
      replay.enqueue(family.toolCalls(true));
      const { envelope } = await readEnvelope(
        await gateway.request('/v1/text', {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        }),
      );
      replay.enqueue(family.toolCalls(true));
      const completion = await openaiOf(gateway).chat.completions.create(
        request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
      );
      if (!envelope.success) throw new Error('The envelope is a failure.');
      expect(completion.choices[0]?.message.content ?? '').toBe(envelope.content);
      const calls = (completion.choices[0]?.message.tool_calls ??
        []) as OpenAI.ChatCompletionMessageFunctionToolCall[];
      expect(
        calls.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) })),
      ).toEqual(
        (envelope.metadata.tool_calls as { name: string; arguments: unknown }[]).map(
          ({ name, arguments: args }) => ({
            name,
            arguments: args,
          }),
        ),
      );
      expect(completion.usage?.prompt_tokens).toBe(envelope.usage.input_tokens);
      expect(completion.usage?.completion_tokens).toBe(envelope.usage.output_tokens);
    });
  }

  for (const family of FAMILIES) {
    test(`${family.name}: the streamed envelope and the streamed chunks carry the same text and usage`, async () => {
      const gateway = gatewayOf();
      const request = {
        model: family.model,
        messages: [{ role: 'user', content: 'Say hello.' }],
        stream: true,
      };
      const { deltas, envelope } = readStreamEnvelope(
        await (
          await gateway.request('/v1/text', {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify(request),
          })
        ).text(),
      );
      const stream = await openaiOf(gateway).chat.completions.create({
        ...(request as unknown as OpenAI.ChatCompletionCreateParamsStreaming),
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        usage = chunk.usage ?? usage;
      }
      if (!envelope.success) throw new Error('The envelope is a failure.');
      expect(text).toBe(deltas.join(''));
      expect(text).toBe(envelope.content);
      expect(usage?.prompt_tokens).toBe(envelope.usage.input_tokens);
      expect(usage?.completion_tokens).toBe(envelope.usage.output_tokens);
    });
  }

  test('the same provider failure has the same code in the envelope and the OpenAI error', async () => {
    const gateway = gatewayOf();
    const request = { model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] };
    replay.enqueue(fixture('openai.chat/CONTEXT_LENGTH_EXCEEDED/context-length-400.json'));
    const { status, envelope } = await readEnvelope(
      await gateway.request('/v1/text', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    );
    replay.enqueue(fixture('openai.chat/CONTEXT_LENGTH_EXCEEDED/context-length-400.json'));
    const error = (await openaiOf(gateway)
      .chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    if (envelope.success) throw new Error('The envelope is a success.');
    expect(error.status).toBe(status);
    expect(error.error).toMatchObject({
      verdict_code: envelope.error.code,
      code: 'context_length_exceeded',
      message: envelope.error.message,
    });
  });
});

describe('POST /openai/v1/responses', () => {
  const tools = AGENT_TOOLS.map(({ function: fn }) => ({ type: 'function' as const, ...fn, strict: false }));

  for (const family of FAMILIES) {
    describe(family.name, () => {
      test('answers a response with a message item, output_text and usage', async () => {
        replay.enqueue(family.text('Hello from the gateway.'));
        const response = await openaiOf(gatewayOf()).responses.create({
          model: family.model,
          instructions: 'Be brief.',
          input: 'Say hello.',
        });
        expect(response.object).toBe('response');
        expect(response.status).toBe('completed');
        expect(response.output_text).toBe('Hello from the gateway.');
        expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
        expect(response.usage?.total_tokens).toBeGreaterThan(0);
        const body = JSON.stringify(sent());
        expect(body).toContain('Be brief.');
        expect(body).toContain('Say hello.');
      });

      test('answers function_call items, and takes function_call_output back', async () => {
        replay.enqueue(family.toolCalls(true));
        const client = openaiOf(gatewayOf());
        const first = await client.responses.create({
          model: family.model,
          input: [{ role: 'user', content: 'Weather in Oslo, in F?' }],
          tools,
        });
        const calls = first.output.filter((item) => item.type === 'function_call');
        expect(calls.map((call) => call.name)).toEqual(['get_weather', 'convert_units']);
        expect(calls.map((call) => JSON.parse(call.arguments))).toEqual([WEATHER_ARGS, UNITS_ARGS]);
        replay.reset();
        replay.enqueue(family.text('It is 12 °C.'));
        const second = await client.responses.create({
          model: family.model,
          input: [
            { role: 'user', content: 'Weather in Oslo, in F?' },
            ...(first.output as OpenAI.Responses.ResponseInputItem[]),
            ...calls.map((call) => ({
              type: 'function_call_output' as const,
              call_id: call.call_id,
              output: `done ${call.name}`,
            })),
          ],
          tools,
        });
        expect(second.output_text).toBe('It is 12 °C.');
        const body = JSON.stringify(sent());
        expect(body).toContain('done get_weather');
        expect(body).toContain('done convert_units');
      });

      test('streams response.created, output_text deltas and response.completed', async () => {
        const stream = await openaiOf(gatewayOf()).responses.create({
          model: family.model,
          input: 'Say hello.',
          stream: true,
        });
        const types: string[] = [];
        let text = '';
        let completed: OpenAI.Responses.Response | undefined;
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'response.output_text.delta') text += event.delta;
          if (event.type === 'response.completed') completed = event.response;
        }
        expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
        expect(types.at(-1)).toBe('response.completed');
        expect(text.length).toBeGreaterThan(0);
        expect(completed?.output_text ?? '').toContain(text);
        expect(completed?.usage?.output_tokens).toBeGreaterThan(0);
      });

      test('streams a function call as function_call_arguments deltas', async () => {
        replay.enqueue(family.streamedToolCall());
        const stream = await openaiOf(gatewayOf()).responses.create({
          model: family.model,
          input: 'Weather in Oslo?',
          tools,
          stream: true,
        });
        let args = '';
        let done: OpenAI.Responses.ResponseFunctionToolCall | undefined;
        for await (const event of stream) {
          if (event.type === 'response.function_call_arguments.delta') args += event.delta;
          if (event.type === 'response.output_item.done' && event.item.type === 'function_call')
            done = event.item;
        }
        expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
        expect(done).toMatchObject({ name: 'get_weather', arguments: args });
      });
    });
  }

  test('previous_response_id is a 400 naming it: the gateway keeps no responses', async () => {
    const error = (await openaiOf(gatewayOf())
      .responses.create({ model: 'openai:gpt-4.1', input: 'Hi', previous_response_id: 'resp_1' })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe('previous_response_id');
    expect(error.message).toContain('keeps no responses');
  });

  test('a stream that fails after it began ends with an error event, which the SDK raises', async () => {
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/stream-mid-error.json'));
    const stream = await openaiOf(gatewayOf()).responses.create({
      model: 'openai:gpt-4.1',
      input: 'Hi',
      stream: true,
    });
    const types: string[] = [];
    const error = await (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((caught: unknown) => caught);
    expect(types).toContain('response.output_text.delta');
    expect(types).not.toContain('response.completed');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      verdict_code: 'PROVIDER_ERROR',
    });
  });
});

describe("the gateway's own guards on the OpenAI surface", () => {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

  test('a body over the bound is a 413 in OpenAI shape', async () => {
    const response = await gatewayOf({
      routes: { text: { maxBodyBytes: 1024 } },
    } as Partial<GatewayOptions>).request('/openai/v1/chat/completions', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'openai:gpt-4.1',
        messages: [{ role: 'user', content: 'x'.repeat(4096) }],
      }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: 'request_too_large', verdict_code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(replay.requests).toHaveLength(0);
  });

  test('a body that is not JSON, and a wrong method, are 400s in OpenAI shape', async () => {
    const gateway = gatewayOf();
    const broken = await gateway.request('/openai/v1/responses', {
      method: 'POST',
      headers,
      body: '{"model":',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(/not JSON/);
    const method = await gateway.request('/openai/v1/chat/completions', { headers });
    expect(method.status).toBe(400);
    expect(method.headers.get('allow')).toBe('POST');
  });

  test('a very long or strange model id is answered, never a crash', async () => {
    const client = openaiOf(gatewayOf());
    for (const id of ['x'.repeat(5000), 'a:b/c%2Fd', '::', 'openai:']) {
      const error = await client.models.retrieve(id).catch((caught: unknown) => caught);
      expect(error, id).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status, id).toBeLessThan(500);
    }
  });

  test('once the gateway is stopping, requests are refused with 503 in OpenAI shape', async () => {
    const gateway = gatewayOf();
    gateway.close();
    const error = await openaiOf(gateway)
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      verdict_code: 'PROVIDER_UNAVAILABLE',
    });
  });

  test('a web page may call the surface with the headers the OpenAI SDK adds (CORS)', async () => {
    const gateway = gatewayOf({ cors: { origins: ['https://app.example'] } } as Partial<GatewayOptions>);
    const asked = 'authorization,content-type,x-stainless-os,x-stainless-retry-count,x-stainless-timeout';
    const preflight = await gateway.request('/openai/v1/chat/completions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': asked,
      },
    });
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    for (const header of asked.split(',')) expect(allowed).toContain(header);
    const answer = await gateway.request('/openai/v1/models', {
      headers: { origin: 'https://app.example', authorization: `Bearer ${KEY}` },
    });
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });

  test('the log line names the route and the surface', async () => {
    const lines: Record<string, unknown>[] = [];
    const gateway = gatewayOf({
      log: (line: string) => lines.push(JSON.parse(line)),
    } as Partial<GatewayOptions>);
    await openaiOf(gateway).chat.completions.create({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(lines.at(-1)).toMatchObject({
      route: '/openai/v1/chat/completions',
      surface: 'openai',
      status: 200,
      code: 'ok',
      target: 'openai:gpt-4.1',
    });
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });
});

describe('POST /openai/v1/embeddings', () => {
  // Answers written from each provider's documented wire format (OpenAI embeddings, Gemini embedContent).
  const openaiEmbeddings = (vectors: number[][]) => ({
    body: {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    },
  });
  const VECTORS = [
    [0.25, -0.5, 0.125],
    [1, 0, -1],
  ];

  test.each([
    ['openai:text-embedding-3-small', '/v1/embeddings'],
    ['openrouter:openai/text-embedding-3-small', '/api/v1/embeddings'],
  ])('%s: floats for a list of inputs, with the usage', async (model, path) => {
    replay.enqueue(openaiEmbeddings(VECTORS));
    const answer = await openaiOf(gatewayOf()).embeddings.create({
      model,
      input: ['first text', 'second text'],
      encoding_format: 'float',
    });
    expect(answer.object).toBe('list');
    expect(answer.data.map((item) => item.embedding)).toEqual(VECTORS);
    expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
    expect(answer.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
    expect(replay.requests[0]?.path).toBe(path);
    expect(sent()).toMatchObject({ input: ['first text', 'second text'] });
  });

  test('base64 is little-endian float32, as the SDK decodes it by default', async () => {
    replay.enqueue(openaiEmbeddings([VECTORS[0] as number[]]));
    // The SDK asks for base64 when the caller gives no encoding, and decodes it to numbers itself.
    const decoded = await openaiOf(gatewayOf()).embeddings.create({
      model: 'openai:text-embedding-3-small',
      input: 'one text',
    });
    expect(decoded.data[0]?.embedding).toEqual(VECTORS[0]);
    replay.enqueue(openaiEmbeddings([VECTORS[0] as number[]]));
    const response = await gatewayOf().request('/openai/v1/embeddings', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai:text-embedding-3-small',
        input: 'one text',
        encoding_format: 'base64',
      }),
    });
    const raw = ((await response.json()) as { data: { embedding: string }[] }).data[0]?.embedding ?? '';
    const bytes = Buffer.from(raw, 'base64');
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)]).toEqual(VECTORS[0]);
  });

  test('Gemini embeds through the AI SDK Google provider, with fewer dimensions asked', async () => {
    replay.enqueue({ body: { embedding: { values: [0.5, 0.25] } } });
    const answer = await openaiOf(gatewayOf()).embeddings.create({
      model: 'google:gemini-embedding-001',
      input: 'one text',
      dimensions: 2,
      encoding_format: 'float',
    });
    expect(answer.data[0]?.embedding).toEqual([0.5, 0.25]);
    expect(replay.requests[0]?.path).toContain('gemini-embedding-001:embedContent');
    expect(sent()).toMatchObject({ outputDimensionality: 2 });
  });

  test('a target without embeddings, or without dimensions, is a 400 naming it; token arrays are refused', async () => {
    const client = openaiOf(gatewayOf());
    const anthropic = (await client.embeddings
      .create({ model: 'anthropic:claude-sonnet-4-5', input: 'x' })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(anthropic.status).toBeGreaterThanOrEqual(400);
    expect(anthropic.status).toBeLessThan(500);
    const tokens = (await client.embeddings
      .create({ model: 'openai:text-embedding-3-small', input: [[1, 2, 3]] })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(tokens.status).toBe(400);
    expect(tokens.message).toContain('/input/0: Must be a string, not a list.');
    expect(replay.requests).toHaveLength(0);
  });

  test('the demo embeds any text the same way every time', async () => {
    const gateway = createGateway({ providers: { demo: {} } });
    const client = openaiOf(gateway as Gateway);
    const first = await client.embeddings.create({
      model: 'demo:embed',
      input: ['cat', 'dog'],
      encoding_format: 'float',
    });
    const again = await client.embeddings.create({
      model: 'demo:embed',
      input: 'cat',
      encoding_format: 'float',
    });
    expect(first.data[0]?.embedding).toEqual(again.data[0]?.embedding);
    expect(first.data[0]?.embedding).not.toEqual(first.data[1]?.embedding);
    expect(first.data[0]?.embedding).toHaveLength(8);
  });
});
