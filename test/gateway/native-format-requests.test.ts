import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, streamText } from 'ai';
import { describe, expect, test } from 'vitest';
import { type ChatFamily, toChatCall } from '../../src/gateway/request/chat-request.js';
import type { TextRequest } from '../../src/gateway/request/request-schemas.js';
import { buildMessagesRequest } from '../../src/gateway/wire/anthropic-request.js';
import { buildGenerateContentRequest } from '../../src/gateway/wire/gemini-request.js';
import type { NativeRequestBuild } from '../../src/gateway/wire/native-request.js';
import { buildResponsesRequest } from '../../src/gateway/wire/openai-responses-request.js';
import { useReplay } from './use-replay.js';

/**
 * The request bodies the native formats build, against the bodies the AI SDK's providers send for the same
 * text request (both captured as JSON, compared in meaning: absent and `undefined` members alike, tool-call
 * arguments as the JSON they hold).
 */

const replay = useReplay();

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** The first bytes of an MP3 file (an ID3 tag), enough for the AI SDK to recognise audio/mpeg. */
const MP3 = 'SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4Ljc2LjEwMAAAAAAAAAAAAAAA';
const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==';

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};
const TIME = {
  type: 'function' as const,
  function: { name: 'get_time', parameters: { type: 'object', properties: {} }, strict: true },
};

const CONVERSATION: TextRequest['messages'] = [
  { role: 'system', content: 'Answer briefly.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{ "city": "Rome" }' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
  { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
  { role: 'assistant', content: 'Paris is 21 degrees, Rome is sunny.' },
  { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
];

/** One row: a request (the model is added per family), the model id, and what it exercises. */
interface Row {
  readonly name: string;
  readonly model: string;
  readonly request: Omit<TextRequest, 'model'>;
}

const COMMON: readonly Row[] = [
  { name: 'a prompt', model: 'M', request: { input: 'Say hello' } },
  {
    name: 'system, temperature, top_p and a token limit',
    model: 'M',
    request: { input: 'Hi', system: 'Be terse.', temperature: 0.3, top_p: 0.9, max_tokens: 200 },
  },
  {
    name: 'a conversation with tool calls and results',
    model: 'M',
    request: { messages: CONVERSATION, tools: [WEATHER] },
  },
  {
    name: 'images by URL and as data, and a PDF',
    model: 'M',
    request: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'file', file: { file_data: PDF, media_type: 'application/pdf', filename: 'a.pdf' } },
            { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}` } },
          ],
        },
      ],
    },
  },
  {
    name: 'tools with tool_choice auto',
    model: 'M',
    request: { input: 'Hi', tools: [WEATHER, TIME], tool_choice: 'auto' },
  },
  {
    name: 'tool_choice required',
    model: 'M',
    request: { input: 'Hi', tools: [WEATHER], tool_choice: 'required' },
  },
  { name: 'tool_choice none', model: 'M', request: { input: 'Hi', tools: [WEATHER], tool_choice: 'none' } },
  {
    name: 'a forced tool',
    model: 'M',
    request: {
      input: 'Hi',
      tools: [WEATHER, TIME],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    },
  },
  {
    name: 'a JSON object answer',
    model: 'M',
    request: { input: 'Hi', response_format: { type: 'json_object' } },
  },
  {
    name: 'a JSON schema answer',
    model: 'M',
    request: {
      input: 'Hi',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          description: 'The answer.',
          schema: {
            type: 'object',
            properties: { kind: { const: 'greeting' }, text: { type: 'string' } },
            required: ['kind', 'text'],
            additionalProperties: false,
          },
        },
      },
    },
  },
  {
    name: 'a plain text response_format',
    model: 'M',
    request: { input: 'Hi', response_format: { type: 'text' } },
  },
  {
    name: 'problems: a tool declared twice, a forced tool not declared, a result without its call, bad arguments',
    model: 'M',
    request: {
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{' } }],
        },
        { role: 'tool', tool_call_id: 'c9', content: 'x' },
        { role: 'assistant', content: '' },
      ],
      tools: [TIME, TIME],
      tool_choice: { type: 'function', function: { name: 'nope' } },
    },
  },
  {
    name: 'problems: a file without its media type, options that are not objects',
    model: 'M',
    request: {
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: PDF } }] }],
      provider_options: { other: 3 as never },
    },
  },
];

const RESPONSES: readonly Row[] = [
  ...COMMON.map((row) => ({ ...row, model: 'gpt-4.1' })),
  {
    name: 'a reasoning model with an effort',
    model: 'o3',
    request: { input: 'Hi', system: 'Think.', reasoning_effort: 'high' },
  },
  {
    name: 'a reasoning model drops sampling settings',
    model: 'gpt-5-mini',
    request: { input: 'Hi', temperature: 0.2, top_p: 0.5, reasoning_effort: 'minimal' },
  },
  {
    name: 'an effort GPT-5 does not take becomes the nearest',
    model: 'gpt-5',
    request: { input: 'Hi', reasoning_effort: 'xhigh' },
  },
  {
    name: 'GPT-5.1 with reasoning off keeps sampling',
    model: 'gpt-5.1',
    request: { input: 'Hi', reasoning_effort: 'none', temperature: 0.4 },
  },
  {
    name: 'a non-reasoning model ignores an effort',
    model: 'gpt-4.1',
    request: { input: 'Hi', reasoning_effort: 'low' },
  },
  {
    name: "OpenAI's own request facts",
    model: 'gpt-4.1',
    request: {
      input: 'Hi',
      user: 'u-7',
      store: false,
      metadata: { team: 'a' },
      service_tier: 'flex',
      parallel_tool_calls: false,
      tools: [WEATHER],
    },
  },
  {
    name: 'a processing tier the model takes',
    model: 'gpt-5',
    request: { input: 'Hi', service_tier: 'flex' },
  },
  {
    name: 'priority is not for GPT-5 nano',
    model: 'gpt-5-nano',
    request: { input: 'Hi', service_tier: 'priority' },
  },
  {
    name: 'store false on a reasoning model asks for encrypted reasoning',
    model: 'o4-mini',
    request: { input: 'Hi', store: false },
  },
  {
    name: 'provider options the native path translates',
    model: 'gpt-5',
    request: {
      input: 'Hi',
      provider_options: {
        openai: {
          reasoningEffort: 'low',
          reasoningSummary: 'auto',
          textVerbosity: 'low',
          previousResponseId: 'resp_1',
          promptCacheKey: 'k',
        },
      },
    },
  },
  {
    name: 'problems: audio, a text file, stop, seed, top_k and penalties',
    model: 'gpt-4.1',
    request: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'input_audio', input_audio: { data: MP3, format: 'mp3' } },
            { type: 'file', file: { file_data: PDF, media_type: 'text/plain' } },
          ],
        },
      ],
      stop: 'x',
      seed: 1,
      top_k: 2,
      presence_penalty: 1,
      frequency_penalty: 1,
    },
  },
  {
    name: 'a developer message',
    model: 'gpt-4.1',
    request: {
      messages: [
        { role: 'developer', content: 'Be kind.' },
        { role: 'user', content: 'Hi' },
      ],
    },
  },
];

const GEMINI: readonly Row[] = [
  ...COMMON.map((row) => ({ ...row, model: 'gemini-2.5-flash' })),
  {
    name: 'top_k, stop and seed',
    model: 'gemini-2.5-flash',
    request: { input: 'Hi', top_k: 40, stop: ['END', 'STOP'], seed: 7, max_output_tokens: 64 },
  },
  { name: 'one stop string', model: 'gemini-2.5-flash', request: { input: 'Hi', stop: 'END' } },
  {
    name: 'audio input',
    model: 'gemini-2.5-flash',
    request: {
      messages: [
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: MP3, format: 'mp3' } }] },
      ],
    },
  },
  {
    name: 'a thinking budget for an effort',
    model: 'gemini-2.5-flash',
    request: { input: 'Hi', reasoning_effort: 'medium' },
  },
  {
    name: 'reasoning off on Flash',
    model: 'gemini-2.5-flash',
    request: { input: 'Hi', reasoning_effort: 'none' },
  },
  {
    name: 'reasoning off on Pro keeps its smallest budget',
    model: 'gemini-2.5-pro',
    request: { input: 'Hi', reasoning_effort: 'none' },
  },
  {
    name: 'the largest budget of Flash',
    model: 'gemini-2.5-flash',
    request: { input: 'Hi', reasoning_effort: 'xhigh' },
  },
  {
    name: 'a thinking level on Gemini 3',
    model: 'gemini-3-pro-preview',
    request: { input: 'Hi', reasoning_effort: 'minimal' },
  },
  {
    name: 'a thinking level on Gemini 3 Flash',
    model: 'gemini-3-flash-preview',
    request: { input: 'Hi', reasoning_effort: 'xhigh' },
  },
  {
    name: 'replayed calls on Gemini 3 carry the skip signature',
    model: 'gemini-3-pro-preview',
    request: { messages: CONVERSATION, tools: [WEATHER] },
  },
  {
    name: 'a JSON schema beside tools on Gemini 3',
    model: 'gemini-3-pro-preview',
    request: { ...COMMON[9]?.request, tools: [WEATHER] },
  },
  {
    name: 'problems: an image URL without its type, penalties, parallel_tool_calls false, a flex tier',
    model: 'gemini-2.5-flash',
    request: {
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat' } }] },
      ],
      presence_penalty: 1,
      frequency_penalty: 1,
      parallel_tool_calls: false,
      service_tier: 'flex',
    },
  },
  {
    name: 'Gemma folds the system text into the first turn',
    model: 'gemma-3-27b-it',
    request: { input: 'Hi', system: 'Be terse.' },
  },
  {
    name: 'provider options the native path translates',
    model: 'gemini-2.5-flash',
    request: {
      input: 'Hi',
      reasoning_effort: 'low',
      provider_options: {
        google: {
          thinkingConfig: { includeThoughts: true },
          threshold: 'BLOCK_ONLY_HIGH',
          responseModalities: ['TEXT'],
          cachedContent: 'cachedContents/1',
        },
      },
    },
  },
  {
    name: 'an explicit thinking budget wins over the effort',
    model: 'gemini-2.5-flash',
    request: {
      input: 'Hi',
      reasoning_effort: 'high',
      provider_options: { google: { thinkingConfig: { thinkingBudget: 77 } } },
    },
  },
];

const CLAUDE = 'claude-sonnet-4-5';

const ANTHROPIC: readonly Row[] = [
  ...COMMON.map((row) => ({ ...row, model: CLAUDE })),
  {
    name: 'the largest answer of Claude 3 Haiku',
    model: 'claude-3-haiku-20240307',
    request: { input: 'Hi' },
  },
  { name: 'the largest answer of Claude Opus 4.1', model: 'claude-opus-4-1', request: { input: 'Hi' } },
  { name: 'the largest answer of Claude Sonnet 4.6', model: 'claude-sonnet-4-6', request: { input: 'Hi' } },
  {
    name: 'the largest answer of Claude Sonnet 4',
    model: 'claude-sonnet-4-20250514',
    request: { input: 'Hi' },
  },
  {
    name: 'an older model the limits are not known of',
    model: 'claude-3-5-sonnet-latest',
    request: { input: 'Hi', temperature: 0.5, top_p: 0.5 },
  },
  {
    name: 'system text in the request and in leading messages',
    model: CLAUDE,
    request: {
      system: 'Be terse.',
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'developer', content: [{ type: 'text', text: 'No emoji.' }] },
        { role: 'user', content: 'Hi' },
      ],
    },
  },
  {
    name: 'consecutive turns of one side merged, tool results beside the next user text',
    model: CLAUDE,
    request: {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'user', content: [{ type: 'text', text: 'Are you there?' }] },
        { role: 'assistant', content: 'Yes.' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
        },
        { role: 'assistant', content: 'Still here.' },
        { role: 'tool', tool_call_id: 't1', content: '[1,2]' },
        { role: 'user', content: 'Thanks. ' },
      ],
      tools: [TIME],
    },
  },
  {
    name: 'a prefilled answer loses its trailing white space',
    model: CLAUDE,
    request: {
      messages: [
        { role: 'user', content: 'Count.' },
        { role: 'assistant', content: 'One, two,  ' },
      ],
    },
  },
  {
    name: 'replayed arguments that are not an object',
    model: CLAUDE,
    request: {
      messages: [
        { role: 'user', content: 'Go' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'x1', type: 'function', function: { name: 'get_time', arguments: '[1]' } }],
        },
        { role: 'tool', tool_call_id: 'x1', content: 'done' },
      ],
      tools: [TIME],
    },
  },
  {
    name: 'a text file',
    model: CLAUDE,
    request: {
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'file',
              file: { file_data: btoa('Plain notes, café.'), media_type: 'text/plain', filename: 'n.txt' },
            },
          ],
        },
      ],
    },
  },
  {
    name: 'stop sequences, top_k and a token limit',
    model: CLAUDE,
    request: { input: 'Hi', stop: ['END', 'STOP'], top_k: 5, max_tokens: 300 },
  },
  { name: 'one stop string', model: CLAUDE, request: { input: 'Hi', stop: 'END' } },
  { name: 'top_p alone', model: CLAUDE, request: { input: 'Hi', top_p: 0.7 } },
  { name: 'a temperature above 1 is held to 1', model: CLAUDE, request: { input: 'Hi', temperature: 1.6 } },
  {
    name: 'a model that takes no sampling settings',
    model: 'claude-opus-4-7',
    request: { input: 'Hi', temperature: 0.3, top_k: 4 },
  },
  {
    name: 'parallel tool calls off',
    model: CLAUDE,
    request: { input: 'Hi', tools: [WEATHER], parallel_tool_calls: false },
  },
  {
    name: 'parallel tool calls off with a forced tool',
    model: CLAUDE,
    request: {
      input: 'Hi',
      tools: [WEATHER],
      parallel_tool_calls: false,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    },
  },
  {
    name: 'tools on a model without strict tools',
    model: 'claude-sonnet-4-20250514',
    request: { input: 'Hi', tools: [WEATHER, TIME], tool_choice: 'required' },
  },
  {
    name: 'a thinking budget for an effort, sampling dropped, the budget added to the limit',
    model: CLAUDE,
    request: { input: 'Hi', reasoning_effort: 'medium', temperature: 0.5, top_k: 3, max_tokens: 2000 },
  },
  {
    name: 'the smallest thinking budget',
    model: CLAUDE,
    request: { input: 'Hi', reasoning_effort: 'minimal' },
  },
  {
    name: 'a large budget held to the largest answer',
    model: 'claude-opus-4-1',
    request: { input: 'Hi', reasoning_effort: 'xhigh', max_tokens: 10_000 },
  },
  {
    name: 'reasoning off keeps sampling',
    model: CLAUDE,
    request: { input: 'Hi', reasoning_effort: 'none', temperature: 0.2 },
  },
  {
    name: 'an explicit thinking budget',
    model: CLAUDE,
    request: {
      input: 'Hi',
      tools: [WEATHER],
      tool_choice: 'auto',
      provider_options: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } },
    },
  },
  {
    name: 'problems: audio, a PDF as an image type, seed and penalties, a flex tier',
    model: CLAUDE,
    request: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'input_audio', input_audio: { data: MP3, format: 'mp3' } },
            { type: 'file', file: { file_data: PDF, media_type: 'image/png' } },
          ],
        },
      ],
      seed: 1,
      presence_penalty: 1,
      frequency_penalty: 1,
      service_tier: 'flex',
    },
  },
];

/** A captured or built body in meaning: tool-call arguments parsed. */
function meaning(body: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  for (const item of Array.isArray(copy.input) ? copy.input : []) {
    if (item.type === 'function_call') item.arguments = JSON.parse(item.arguments);
  }
  return copy;
}

/** The body and path the AI SDK sends for a request, captured by the replay server. */
async function sdkRequest(model: LanguageModel, request: TextRequest, family: ChatFamily, provider: string) {
  const translated = toChatCall(request, provider, family);
  if (!translated.ok) return { problems: translated.problems };
  const { prompt, ...call } = translated.call;
  await generateText({
    ...call,
    ...(typeof prompt === 'string' ? { prompt } : { messages: prompt }),
    model,
    maxRetries: 0,
  }).catch(() => undefined);
  const sent = replay().requests.at(-1);
  if (sent === undefined) throw new Error('The AI SDK sent nothing.');
  return { path: sent.path, body: sent.body, headers: sent.headers };
}

function expectSame(
  native: NativeRequestBuild,
  sdk: { problems?: unknown; path?: string; body?: unknown; headers?: Record<string, string> },
  prefix: string,
  headers: readonly string[] = [],
) {
  if (sdk.problems !== undefined) {
    // The same problems, in any order.
    const sorted = (list: unknown) =>
      [...(list as { path: string; message: string }[])].sort((a, b) =>
        `${a.path} ${a.message}`.localeCompare(`${b.path} ${b.message}`),
      );
    expect(native.ok).toBe(false);
    expect(sorted(native.ok === false ? native.problems : [])).toEqual(sorted(sdk.problems));
    return;
  }
  if (native.ok !== true) throw new Error(`The native build failed: ${JSON.stringify(native)}`);
  expect(`${prefix}${native.request.path}`).toBe(sdk.path);
  expect(meaning(native.request.body)).toEqual(meaning(sdk.body));
  for (const name of headers) expect(native.request.headers[name], name).toBe(sdk.headers?.[name]);
}

describe('buildResponsesRequest', () => {
  test.each(RESPONSES)('builds the body the AI SDK builds: $name ($model)', async ({ model, request }) => {
    const full = { model: `openai-responses:${model}`, ...request } as TextRequest;
    const openai = createOpenAI({ baseURL: replay().baseURL.openai, apiKey: 'sk-test' });
    const sdk = await sdkRequest(openai.responses(model), full, 'openai.responses', 'openai-responses');
    expectSame(buildResponsesRequest(full, 'openai-responses', model), sdk, '/v1');
  });

  test('a stream asks for server-sent events', () => {
    const built = buildResponsesRequest(
      { model: 'o:gpt-4.1', input: 'Hi', stream: true } as TextRequest,
      'o',
      'gpt-4.1',
    );
    expect(built.ok === true && built.request).toMatchObject({
      path: '/responses',
      stream: true,
      body: { stream: true },
    });
  });

  test('refuses what the Responses API does not take, naming the member', () => {
    const built = buildResponsesRequest(
      { model: 'o:gpt-4.1', input: 'Hi', stop: 'x', seed: 1, top_k: 3 } as TextRequest,
      'o',
      'gpt-4.1',
    );
    expect(built).toEqual({
      ok: false,
      problems: ['stop', 'seed', 'top_k'].map((key) => ({
        path: `/${key}`,
        message: `Provider "o" (openai.responses) does not take "${key}".`,
      })),
    });
  });

  test('leaves a request with an option it does not translate to the AI SDK', () => {
    const built = buildResponsesRequest(
      { model: 'o:gpt-4.1', input: 'Hi', provider_options: { openai: { logprobs: 3 } } } as TextRequest,
      'o',
      'gpt-4.1',
    );
    expect(built).toEqual({
      ok: 'sdk',
      reason: "the provider option openai.logprobs is the AI SDK's to translate",
    });
  });
});

describe('buildGenerateContentRequest', () => {
  test.each(GEMINI)('builds the body the AI SDK builds: $name ($model)', async ({ model, request }) => {
    const full = { model: `google:${model}`, ...request } as TextRequest;
    const google = createGoogleGenerativeAI({ baseURL: replay().baseURL.google, apiKey: 'test' });
    const sdk = await sdkRequest(google(model), full, 'google', 'google');
    expectSame(buildGenerateContentRequest(full, 'google', model), sdk, '/v1beta');
  });

  test('a stream goes to streamGenerateContent as server-sent events', () => {
    const built = buildGenerateContentRequest(
      { model: 'g:gemini-2.5-flash', input: 'Hi', stream: true } as TextRequest,
      'g',
      'gemini-2.5-flash',
    );
    expect(built.ok === true && built.request.path).toBe(
      '/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  test('a model id never adds a query or climbs a level', () => {
    const built = buildGenerateContentRequest(
      { model: 'g:x', input: 'Hi' } as TextRequest,
      'g',
      '../x?key=1#y',
    );
    expect(built.ok === true && built.request.path).toBe('/%2E%2E/x%3Fkey%3D1%23y:generateContent');
  });

  test('refuses a system message after the conversation started', () => {
    const built = buildGenerateContentRequest(
      {
        model: 'g:gemini-2.5-flash',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Late.' },
        ],
      } as TextRequest,
      'g',
      'gemini-2.5-flash',
    );
    expect(built).toEqual({
      ok: false,
      problems: [
        {
          path: '/messages/1/role',
          message:
            'Provider "g" (google) does not take system messages after the first user or assistant message.',
        },
      ],
    });
  });

  test('leaves a JSON schema answer beside tools on Gemini 2.5 to the AI SDK', () => {
    const built = buildGenerateContentRequest(
      { model: 'g:gemini-2.5-flash', ...COMMON[9]?.request, tools: [WEATHER] } as TextRequest,
      'g',
      'gemini-2.5-flash',
    );
    expect(built.ok).toBe('sdk');
  });
});

describe('buildMessagesRequest', () => {
  test.each(ANTHROPIC)('builds the body the AI SDK builds: $name ($model)', async ({ model, request }) => {
    const full = { model: `anthropic:${model}`, ...request } as TextRequest;
    const anthropic = createAnthropic({ baseURL: replay().baseURL.anthropic, apiKey: 'sk-ant-test' });
    const sdk = await sdkRequest(anthropic(model), full, 'anthropic', 'anthropic');
    expectSame(buildMessagesRequest(full, 'anthropic', model), sdk, '/v1', [
      'anthropic-version',
      'anthropic-beta',
    ]);
  });

  test.each([
    ['a prompt', { input: 'Hi' }],
    ['tools', { input: 'Hi', tools: [WEATHER], tool_choice: 'auto' }],
  ] as const)('a stream asks for server-sent events as the AI SDK does: %s', async (_name, request) => {
    const full = { model: `anthropic:${CLAUDE}`, ...request, stream: true } as TextRequest;
    const anthropic = createAnthropic({ baseURL: replay().baseURL.anthropic, apiKey: 'sk-ant-test' });
    const translated = toChatCall(full, 'anthropic', 'anthropic');
    if (!translated.ok) throw new Error('The request was refused.');
    const { prompt, ...call } = translated.call;
    const result = streamText({
      ...call,
      ...(typeof prompt === 'string' ? { prompt } : { messages: prompt }),
      model: anthropic(CLAUDE),
      maxRetries: 0,
      onError: () => undefined,
    });
    await result.consumeStream();
    const sent = replay().requests.at(-1);
    if (sent === undefined) throw new Error('The AI SDK sent nothing.');
    const built = buildMessagesRequest(full, 'anthropic', CLAUDE);
    expect(built.ok === true && built.request.stream).toBe(true);
    expectSame(built, sent, '/v1', ['anthropic-beta']);
  });

  const SCHEMA_ASKED = COMMON[9]?.request.response_format;
  test.each([
    [
      'reasoning on a model that thinks adaptively',
      'claude-sonnet-4-6',
      { input: 'Hi', reasoning_effort: 'low' },
    ],
    [
      'a forced tool on a model that takes none',
      'claude-opus-5-5',
      { input: 'Hi', tools: [WEATHER], tool_choice: 'required' },
    ],
    [
      'a forced tool while thinking',
      CLAUDE,
      { input: 'Hi', tools: [WEATHER], tool_choice: 'required', reasoning_effort: 'low' },
    ],
    [
      'a JSON schema answer on a model that gives it as a tool call',
      'claude-sonnet-4-20250514',
      { input: 'Hi', response_format: SCHEMA_ASKED },
    ],
    [
      'a JSON schema the AI SDK rewrites',
      CLAUDE,
      {
        input: 'Hi',
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'a',
            schema: { type: 'object', properties: { s: { type: 'string', minLength: 2 } } },
          },
        },
      },
    ],
    [
      'system text after the conversation started',
      CLAUDE,
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Late.' },
        ],
      },
    ],
    [
      'a provider option it does not translate',
      CLAUDE,
      { input: 'Hi', provider_options: { anthropic: { effort: 'low' } } },
    ],
  ] as const)('leaves %s to the AI SDK', (_name, model, request) => {
    const built = buildMessagesRequest(
      { model: `anthropic:${model}`, ...request } as TextRequest,
      'anthropic',
      model,
    );
    expect(built.ok).toBe('sdk');
  });
});
