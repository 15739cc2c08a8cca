import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, providersWithResponses, type ReplayProviders } from '../helpers/replay-providers.js';
import { AGENT_TOOLS, FAMILIES, type Family, UNITS_ARGS, WEATHER_ARGS } from './agent-wire.js';
import { parseSse, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

function gateway() {
  return createGateway({
    providers: providersWithResponses(replay) as GatewayOptions['providers'],
    retries: 0,
  });
}

function post(body: unknown) {
  return gateway().request('/v1/text', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

/** The body the provider received. */
function sent(): Record<string, unknown> {
  expect(replay.requests).toHaveLength(1);
  return replay.requests[0]?.body as Record<string, unknown>;
}

const PNG = 'iVBORw0KGgo=';
const PDF = 'JVBERi0xLjQK';

/** How each family's wire format carries what the tests send, as its API documents it. */
const WIRE: Record<
  string,
  {
    tools(body: Record<string, unknown>): unknown;
    namedChoice: unknown;
    toolResult(body: Record<string, unknown>): unknown;
    images(body: Record<string, unknown>): unknown;
    pdf: unknown;
    serialOnly: unknown;
  }
> = {
  'OpenAI chat': {
    tools: (body) => body.tools,
    namedChoice: { tool_choice: { type: 'function', function: { name: 'get_weather' } } },
    toolResult: (body) => (body.messages as unknown[]).slice(-2),
    images: (body) => (body.messages as { content: unknown }[]).at(-1)?.content,
    pdf: {
      type: 'file',
      file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
    },
    serialOnly: { parallel_tool_calls: false },
  },
  'OpenAI Responses': {
    tools: (body) => body.tools,
    namedChoice: { tool_choice: { type: 'function', name: 'get_weather' } },
    toolResult: (body) => (body.input as unknown[]).slice(-2),
    images: (body) => (body.input as { content: unknown }[]).at(-1)?.content,
    pdf: { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
    serialOnly: { parallel_tool_calls: false },
  },
  Anthropic: {
    tools: (body) => body.tools,
    namedChoice: { tool_choice: { type: 'tool', name: 'get_weather' } },
    toolResult: (body) => (body.messages as unknown[]).slice(-2),
    images: (body) => (body.messages as { content: unknown }[]).at(-1)?.content,
    pdf: {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
      title: 'report.pdf',
    },
    serialOnly: { tool_choice: { type: 'auto', disable_parallel_tool_use: true } },
  },
  Gemini: {
    tools: (body) => body.tools,
    namedChoice: {
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    },
    toolResult: (body) => (body.contents as unknown[]).slice(-2),
    images: (body) => (body.contents as { parts: unknown }[]).at(-1)?.parts,
    pdf: { inlineData: { mimeType: 'application/pdf', data: PDF } },
    serialOnly: undefined,
  },
  'OpenAI-compatible': {
    tools: (body) => body.tools,
    namedChoice: { tool_choice: { type: 'function', function: { name: 'get_weather' } } },
    toolResult: (body) => (body.messages as unknown[]).slice(-2),
    images: (body) => (body.messages as { content: unknown }[]).at(-1)?.content,
    pdf: {
      type: 'file',
      file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
    },
    serialOnly: undefined,
  },
};

/** The two tool definitions in each family's wire format. */
function expectedTools(family: Family): unknown {
  const [weather, units] = AGENT_TOOLS.map((entry) => entry.function);
  if (weather === undefined || units === undefined) throw new Error('two tools');
  switch (family.name) {
    case 'OpenAI Responses':
      return [weather, units].map((fn) => ({ type: 'function', ...fn, strict: false }));
    case 'Anthropic':
      return [weather, units].map((fn) => ({
        name: fn.name,
        description: fn.description,
        input_schema: fn.parameters,
      }));
    case 'Gemini':
      // Gemini's `parametersJsonSchema` takes a JSON Schema as it is.
      return [
        {
          functionDeclarations: [weather, units].map((fn) => ({
            name: fn.name,
            description: fn.description,
            parametersJsonSchema: fn.parameters,
          })),
        },
      ];
    default:
      return AGENT_TOOLS;
  }
}

/** A conversation whose last turn answers the model's `get_weather` call. */
const TOOL_TURN = [
  { role: 'user', content: 'Weather in Oslo, in °F?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_w0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_w0', content: '{"temp_c":12}' },
];

/** The tool-result turn in each family's wire format. */
function expectedToolResult(family: Family): unknown {
  switch (family.name) {
    case 'OpenAI Responses':
      return [
        { type: 'function_call', call_id: 'call_w0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_w0', output: '{"temp_c":12}' },
      ];
    case 'Anthropic':
      return [
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_w0', name: 'get_weather', input: WEATHER_ARGS }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_w0', content: '{"temp_c":12}' }],
        },
      ];
    case 'Gemini':
      return [
        {
          role: 'model',
          parts: [{ functionCall: { id: 'call_w0', name: 'get_weather', args: WEATHER_ARGS } }],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_w0',
                name: 'get_weather',
                response: { name: 'get_weather', content: { temp_c: 12 } },
              },
            },
          ],
        },
      ];
    default:
      return [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_w0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_w0', content: '{"temp_c":12}' },
      ];
  }
}

/** The three image parts (https URL, data URL) in each family's wire format. */
function expectedImages(family: Family): unknown {
  switch (family.name) {
    case 'OpenAI Responses':
      return [
        { type: 'input_text', text: 'Describe.' },
        { type: 'input_image', image_url: 'https://example.com/photo.png' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ];
    case 'Anthropic':
      return [
        { type: 'text', text: 'Describe.' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/photo.png' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ];
    case 'Gemini':
      return [
        { text: 'Describe.' },
        { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/photo.png' } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ];
    default:
      return [
        { type: 'text', text: 'Describe.' },
        { type: 'image_url', image_url: { url: 'https://example.com/photo.png' } },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ];
  }
}

describe.each(FAMILIES)('$name', (family) => {
  const wire = WIRE[family.name];
  if (wire === undefined) throw new Error(`No wire description for ${family.name}.`);

  test('sends the tools in its wire format with a named tool choice, and answers the tool call', async () => {
    replay.enqueue(family.toolCalls(false));
    const answer = await readEnvelope(
      await post({
        model: family.model,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: AGENT_TOOLS,
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      }),
    );
    const body = sent();
    expect(wire.tools(body)).toEqual(expectedTools(family));
    expect(body).toMatchObject(wire.namedChoice as Record<string, unknown>);
    expect(answer.envelope).toMatchObject({
      success: true,
      content: '',
      metadata: {
        finish_reason: 'tool_calls',
        tool_calls: [{ name: 'get_weather', arguments: WEATHER_ARGS }],
      },
    });
    const calls = answer.envelope.metadata.tool_calls as { id: string }[];
    expect(typeof calls[0]?.id).toBe('string');
    if (family.givesIds) expect(calls[0]?.id).toMatch(/weather_1$/);
  });

  test('sends a tool result attached to its call id', async () => {
    replay.enqueue(family.text('It is 12 °C in Oslo.'));
    const answer = await readEnvelope(
      await post({ model: family.model, messages: TOOL_TURN, tools: AGENT_TOOLS }),
    );
    expect(answer.envelope).toMatchObject({ success: true, content: 'It is 12 °C in Oslo.' });
    expect(wire.toolResult(sent())).toMatchObject(expectedToolResult(family) as unknown[]);
  });

  test('answers parallel tool calls; parallel_tool_calls false reaches the provider or is refused', async () => {
    replay.enqueue(family.toolCalls(true));
    const answer = await readEnvelope(
      await post({ model: family.model, input: 'Weather in Oslo, in °F?', tools: AGENT_TOOLS }),
    );
    expect(answer.envelope.metadata.tool_calls).toMatchObject([
      { name: 'get_weather', arguments: WEATHER_ARGS },
      { name: 'convert_units', arguments: UNITS_ARGS },
    ]);
    replay.reset();
    replay.enqueue(family.toolCalls(false));
    const serial = await readEnvelope(
      await post({ model: family.model, input: 'Weather?', tools: AGENT_TOOLS, parallel_tool_calls: false }),
    );
    if (wire.serialOnly === undefined) {
      expect(serial.envelope).toMatchObject({
        success: false,
        provider: 'system',
        error: { code: 'VALIDATION_ERROR', details: { problems: [{ path: '/parallel_tool_calls' }] } },
      });
      expect(replay.requests).toHaveLength(0);
    } else {
      expect(serial.envelope.success).toBe(true);
      expect(sent()).toMatchObject(wire.serialOnly as Record<string, unknown>);
    }
  });

  const forecast = {
    type: 'json_schema',
    json_schema: {
      name: 'forecast',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, temp_c: { type: 'number' } },
        required: ['city', 'temp_c'],
        additionalProperties: false,
      },
    },
  };

  test('structured output that matches the schema: content is the JSON text, metadata.object its value', async () => {
    replay.enqueue(family.text('{"city":"Oslo","temp_c":12}'));
    const answer = await readEnvelope(
      await post({ model: family.model, input: 'Oslo weather as JSON', response_format: forecast }),
    );
    expect(answer.envelope).toMatchObject({
      success: true,
      content: '{"city":"Oslo","temp_c":12}',
      metadata: { object: { city: 'Oslo', temp_c: 12 } },
    });
  });

  test('structured output that does not match is INVALID_PROVIDER_RESPONSE naming the violations', async () => {
    replay.enqueue(family.text('{"city":"Oslo","temp_c":"twelve"}'));
    const answer = await readEnvelope(
      await post({ model: family.model, input: 'Oslo weather as JSON', response_format: forecast }),
    );
    expect(answer.status).toBe(502);
    expect(answer.envelope).toMatchObject({
      success: false,
      error: {
        code: 'INVALID_PROVIDER_RESPONSE',
        details: {
          schema_name: 'forecast',
          violations: [{ path: '/temp_c', message: 'Must be a number, not a string.' }],
        },
      },
    });
    replay.reset();
    replay.enqueue(family.text('Sure! Here it is: {city: Oslo}'));
    const broken = await readEnvelope(
      await post({ model: family.model, input: 'JSON please', response_format: { type: 'json_object' } }),
    );
    expect(broken.envelope).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { violations: [{ path: '' }] } },
    });
  });

  test('image parts by https URL (passed as a URL) and by data URL, and a PDF file part', async () => {
    replay.enqueue(family.text('A lighthouse.'));
    await readEnvelope(
      await post({
        model: family.model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe.' },
              { type: 'image_url', image_url: { url: 'https://example.com/photo.png' } },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            ],
          },
        ],
      }),
    );
    expect(wire.images(sent())).toEqual(expectedImages(family));
    // Only the provider was called: the gateway fetched no URL.
    expect(replay.requests.map((request) => request.path)).toHaveLength(1);
    replay.reset();
    replay.enqueue(family.text('A report.'));
    await readEnvelope(
      await post({
        model: family.model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Summarize.' },
              {
                type: 'file',
                file: { file_data: PDF, media_type: 'application/pdf', filename: 'report.pdf' },
              },
            ],
          },
        ],
      }),
    );
    expect((wire.images(sent()) as unknown[])[1]).toEqual(wire.pdf);
  });

  test('streams tool-call start and argument events, then the envelope equal to the unstreamed one', async () => {
    replay.enqueue(family.streamedToolCall());
    const response = await post({ model: family.model, input: 'Weather?', tools: AGENT_TOOLS, stream: true });
    const text = await response.text();
    const { envelope } = readStreamEnvelope(text);
    const events = parseSse(text).filter((event) => event.event.startsWith('tool_call'));
    const start = JSON.parse(events[0]?.data ?? '{}') as { id: string; name: string };
    expect(events[0]?.event).toBe('tool_call_start');
    expect(start.name).toBe('get_weather');
    const pieces = events
      .filter((event) => event.event === 'tool_call_delta')
      .map((event) => JSON.parse(event.data) as { id: string; arguments: string });
    expect(pieces.every((piece) => piece.id === start.id)).toBe(true);
    expect(JSON.parse(pieces.map((piece) => piece.arguments).join(''))).toEqual(WEATHER_ARGS);
    expect(envelope).toMatchObject({
      success: true,
      metadata: {
        finish_reason: 'tool_calls',
        tool_calls: [{ id: start.id, name: 'get_weather', arguments: WEATHER_ARGS }],
      },
    });
  });
});

describe('parts and options a provider cannot take', () => {
  test.each([
    [
      'OpenAI Responses',
      'openai-responses:gpt-5-mini',
      { type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } },
      'input_audio',
    ],
    [
      'Anthropic',
      'anthropic:claude-sonnet-4-5',
      { type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } },
      'input_audio',
    ],
    [
      'OpenAI chat',
      'openai:gpt-4.1',
      { type: 'file', file: { file_data: 'aGVsbG8=', media_type: 'text/csv' } },
      'text/csv',
    ],
    [
      'Gemini',
      'google:gemini-2.5-flash',
      { type: 'image_url', image_url: { url: 'https://example.com/photo' } },
      'image URLs',
    ],
  ])(
    '%s refuses a part it cannot take, naming provider and part, before calling it',
    async (_name, model, part, what) => {
      const answer = await readEnvelope(
        await post({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, part] }] }),
      );
      const provider = model.split(':')[0];
      expect(answer.envelope).toMatchObject({
        success: false,
        provider: 'system',
        error: {
          code: 'VALIDATION_ERROR',
          details: { provider, problems: [{ path: '/messages/0/content/1' }] },
        },
      });
      expect(answer.envelope.success ? '' : answer.envelope.error.message).toContain(
        `Provider "${provider}"`,
      );
      expect(answer.envelope.success ? '' : answer.envelope.error.message).toContain(what);
      expect(replay.requests).toHaveLength(0);
    },
  );

  test.each([
    ['openai-responses:gpt-5-mini', { seed: 7 }, '/seed'],
    ['openai-responses:gpt-5-mini', { stop: ['END'] }, '/stop'],
    ['anthropic:claude-sonnet-4-5', { presence_penalty: 0.5 }, '/presence_penalty'],
    ['anthropic:claude-sonnet-4-5', { seed: 7 }, '/seed'],
    ['openai:gpt-4.1', { top_k: 40 }, '/top_k'],
    ['openai-responses:gpt-5-mini', { top_k: 40 }, '/top_k'],
  ])('%s refuses %o', async (model, option, path) => {
    const answer = await readEnvelope(await post({ model, input: 'Hi', ...option }));
    expect(answer.envelope).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { problems: [{ path }] } },
    });
    expect(replay.requests).toHaveLength(0);
  });

  test('a tool result whose call id no assistant message made is refused with its pointer', async () => {
    const answer = await readEnvelope(
      await post({
        model: 'openai:gpt-4.1',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'tool', tool_call_id: 'call_nowhere', content: '42' },
        ],
      }),
    );
    expect(answer.envelope).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { problems: [{ path: '/messages/1/tool_call_id' }] } },
    });
  });
});

describe('sampling options reach the provider', () => {
  test('OpenAI chat takes top_p, stop, seed, penalties, max_tokens, reasoning_effort and provider_options', async () => {
    await readEnvelope(
      await post({
        model: 'openai:gpt-4.1',
        input: 'Hi',
        top_p: 0.5,
        stop: 'END',
        seed: 7,
        presence_penalty: 0.1,
        frequency_penalty: 0.2,
        max_tokens: 99,
        provider_options: { openai: { user: 'agent-7' } },
      }),
    );
    expect(sent()).toMatchObject({
      top_p: 0.5,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      max_tokens: 99,
      user: 'agent-7',
    });
  });
});

describe('top_k', () => {
  test('reaches Anthropic as top_k', async () => {
    await readEnvelope(await post({ model: 'anthropic:claude-sonnet-4-5', input: 'Hi', top_k: 40 }));
    expect(sent()).toMatchObject({ top_k: 40 });
  });
});

describe('GET /openapi.json', () => {
  test('describes the chat request: messages and their parts, tools, tool choice, structured output', async () => {
    const document = (await (await gateway().request('/openapi.json')).json()) as {
      paths: Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }
      >;
    };
    const schema = document.paths['/v1/text']?.post.requestBody.content['application/json']?.schema as {
      properties: Record<string, unknown>;
    };
    for (const member of [
      'messages',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'response_format',
      'top_p',
      'top_k',
      'stop',
      'seed',
      'presence_penalty',
      'frequency_penalty',
      'max_tokens',
      'reasoning_effort',
      'provider_options',
    ]) {
      expect(schema.properties, member).toHaveProperty(member);
    }
    const text = JSON.stringify(schema.properties.messages);
    for (const part of ['image_url', 'input_audio', 'file', 'tool_call_id', 'tool_calls', 'developer']) {
      expect(text, part).toContain(`"${part}"`);
    }
  });
});

describe('the answer', () => {
  test('reasoning goes to metadata.reasoning when the request asked for it, never into content', async () => {
    replay.enqueue(fixture('anthropic.messages/success/tool-use-with-thinking.json'));
    const asked = await readEnvelope(
      await post({ model: 'anthropic:claude-sonnet-4-5', input: 'Tides?', reasoning_effort: 'low' }),
    );
    expect(sent()).toMatchObject({ thinking: { type: 'enabled' } });
    expect(asked.envelope).toMatchObject({
      success: true,
      content: 'Let me check.',
      metadata: { reasoning: 'I should look this up.' },
    });
    replay.reset();
    replay.enqueue(fixture('anthropic.messages/success/tool-use-with-thinking.json'));
    const unasked = await readEnvelope(await post({ model: 'anthropic:claude-sonnet-4-5', input: 'Tides?' }));
    expect(unasked.envelope.success && unasked.envelope.content).toBe('Let me check.');
    expect(unasked.envelope.metadata).not.toHaveProperty('reasoning');
  });

  test('reasoning tokens stay counted in output_tokens', async () => {
    replay.enqueue(fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json'));
    const answer = await readEnvelope(
      await post({ model: 'openai:gpt-4.1', input: 'Hi', reasoning_effort: 'high' }),
    );
    expect(sent()).toMatchObject({ reasoning_effort: 'high' });
    const details = answer.envelope.metadata.usage_details as { reasoning_tokens: number };
    expect(details.reasoning_tokens).toBeGreaterThan(0);
    expect(answer.envelope.success && answer.envelope.usage.output_tokens).toBeGreaterThanOrEqual(
      details.reasoning_tokens,
    );
  });

  test.each(FAMILIES)(
    '$name: the streamed envelope of a tool call equals the unstreamed one',
    async (family) => {
      replay.enqueue(family.streamedToolCall());
      const streamed = readStreamEnvelope(
        await (
          await post({ model: family.model, input: 'Weather?', tools: AGENT_TOOLS, stream: true })
        ).text(),
      ).envelope;
      replay.reset();
      replay.enqueue(family.toolCalls(false));
      const plain = (
        await readEnvelope(await post({ model: family.model, input: 'Weather?', tools: AGENT_TOOLS }))
      ).envelope;
      const calls = (envelope: typeof plain) =>
        (envelope.metadata.tool_calls as { id: string; name: string; arguments: unknown }[]).map((call) =>
          family.givesIds ? call : { name: call.name, arguments: call.arguments },
        );
      expect(calls(streamed)).toEqual(calls(plain));
      expect(streamed).toMatchObject({
        success: true,
        content: plain.content,
        metadata: { finish_reason: 'tool_calls' },
      });
    },
  );

  test('a streamed answer to a JSON request is checked too: the envelope event is the failure', async () => {
    const response = await post({
      model: 'openai:gpt-4.1-nano',
      input: 'Say hello',
      response_format: { type: 'json_object' },
      stream: true,
    });
    const { deltas, envelope } = readStreamEnvelope(await response.text());
    expect(deltas.join('')).toBe('Hello!');
    expect(envelope).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
  });
});
