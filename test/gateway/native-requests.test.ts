import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type LanguageModel } from 'ai';
import { beforeEach, describe, expect, test } from 'vitest';
import { chatFamilyOf, toChatCall } from '../../src/gateway/request/chat-request.js';
import type { TextRequest } from '../../src/gateway/request/request-schemas.js';
import type { WireFormat } from '../../src/gateway/wire/wire-format.js';
import { wireRouteOf } from '../../src/gateway/wire/wire-formats.js';
import type { ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

/**
 * The native path asks the provider what the AI SDK path asks it: for a table of text requests, the body verdict
 * builds equals in meaning the body the AI SDK provider package sends for the same request (both captured by
 * the replay server, or built). "In meaning" sets aside only what says the same thing twice: members left unset
 * versus `null`, and a lone text part versus the same text as a string.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The requests, by what they show. */
const REQUESTS: Record<string, Partial<TextRequest>> = {
  'a prompt': { input: 'Say hi' },
  'a system prompt and sampling options': {
    input: 'Say hi',
    system: 'Be brief.',
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 50,
    stop: ['\n\n'],
    seed: 7,
    presence_penalty: 0.5,
    frequency_penalty: 0.25,
  },
  'a conversation with system, developer, assistant and user turns': {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Bonjour.' },
      { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
    ],
  },
  'tools, a forced tool choice and a tool result': {
    messages: [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":4}' },
      { role: 'user', content: 'And in Bergen?' },
    ],
    tools: [weather],
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
    parallel_tool_calls: false,
  },
  'tool choice required': { input: 'Weather?', tools: [weather], tool_choice: 'required' },
  'images by URL and inline': {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare.' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ],
  },
  'a JSON schema answer': {
    input: 'A city.',
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'city',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        strict: true,
      },
    },
  },
  'a JSON schema answer, strictness unsaid': {
    input: 'A city.',
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'city', description: 'A city.', schema: { type: 'object' } },
    },
  },
  'a JSON object answer': { input: 'A city as JSON.', response_format: { type: 'json_object' } },
  'reasoning effort': { input: 'Think.', reasoning_effort: 'low' },
  streamed: { input: 'Say hi', stream: true },
};

/** The targets: the provider type, its model, its AI SDK model at the replay server, its native wire format. */
const TARGETS: Record<
  string,
  {
    type: 'openai' | 'openai-compatible' | 'anthropic';
    modelId: string;
    path: string;
    model: () => LanguageModel;
    wire: () => WireFormat;
    /** Requests of the table this target does not take, each with why. */
    skip?: Readonly<Record<string, string>>;
  }
> = {
  openai: {
    type: 'openai',
    modelId: 'gpt-4o-mini',
    path: '/chat/completions',
    model: () => createOpenAI({ baseURL: replay.baseURL.openai, apiKey: 'sk-replay' }).chat('gpt-4o-mini'),
    wire: () => wireRouteOf({ id: 'openai', type: 'openai' })?.wire as WireFormat,
  },
  'openai-compatible': {
    type: 'openai-compatible',
    modelId: 'gpt-4o-mini',
    path: '/chat/completions',
    model: () =>
      createOpenAICompatible({
        name: 'compat',
        baseURL: replay.baseURL.compatible,
        apiKey: 'sk-replay',
        includeUsage: true,
      }).chatModel('gpt-4o-mini'),
    wire: () => wireRouteOf({ id: 'compat', type: 'openai-compatible' })?.wire as WireFormat,
  },
  anthropic: {
    type: 'anthropic',
    modelId: 'claude-sonnet-4-5',
    path: '/messages',
    model: () =>
      createAnthropic({ baseURL: replay.baseURL.anthropic, apiKey: 'sk-ant-replay' })('claude-sonnet-4-5'),
    wire: () => wireRouteOf({ id: 'anthropic', type: 'anthropic' })?.wire as WireFormat,
    skip: {
      // Anthropic closes an object without named properties to `{}`; the AI SDK asks for it as a tool call.
      'a JSON schema answer, strictness unsaid': 'an open object schema keeps the AI SDK path',
    },
  },
};

/** A JSON value in meaning: `null` and absent members dropped, a message's lone text part as its text. */
function meaning(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(meaning);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, member]) => member !== null && member !== undefined,
  );
  const object = Object.fromEntries(entries.map(([key, member]) => [key, meaning(member)]));
  const content = object.content;
  if (Array.isArray(content) && content.length === 1 && (content[0] as { type?: unknown }).type === 'text') {
    object.content = (content[0] as { text: string }).text;
  }
  return object;
}

/** The body the AI SDK sends for `request` to `target`, as the replay server received it. */
async function aiSdkBody(request: TextRequest, target: (typeof TARGETS)[string]): Promise<unknown> {
  const model = target.model();
  const translated = toChatCall(
    request,
    'p',
    chatFamilyOf(target.type, (model as { provider: string }).provider),
  );
  if (!translated.ok) throw new Error(JSON.stringify(translated.problems));
  if (request.stream === true) {
    const { experimental_streamTextLowMemory } = await import('ai');
    const result = experimental_streamTextLowMemory({ ...translated.call, model, maxRetries: 0 });
    for await (const _part of result.stream as AsyncIterable<unknown>) {
      // read to the end
    }
  } else {
    // The replay's answer may not be the tool call a forced choice asks for: the request is what is compared.
    await generateText({ ...translated.call, model, maxRetries: 0 }).catch(() => undefined);
  }
  return replay.requests.at(-1)?.body;
}

describe('the native request means what the AI SDK request means', () => {
  for (const [targetName, target] of Object.entries(TARGETS)) {
    for (const [name, partial] of Object.entries(REQUESTS)) {
      test(`${targetName}: ${name}`, async () => {
        const skipped = target.skip?.[name];
        if (skipped !== undefined) {
          // Not sent natively, so the AI SDK keeps it: the decline is what is checked.
          const built = target
            .wire()
            .buildRequest({ model: `p:${target.modelId}`, ...partial } as TextRequest, {
              provider: 'p',
              type: target.type,
              modelId: target.modelId,
            });
          expect(built.ok, skipped).toBe(false);
          return;
        }
        const request = { model: `p:${target.modelId}`, ...partial } as TextRequest;
        // The request model refuses `parallel_tool_calls: false` for the compatible family before any call,
        // and a seed and penalties for Anthropic.
        if (target.type === 'openai-compatible') delete request.parallel_tool_calls;
        if (target.type === 'anthropic') {
          delete request.seed;
          delete request.presence_penalty;
          delete request.frequency_penalty;
        }
        const sdk = await aiSdkBody(request, target);
        const built = target
          .wire()
          .buildRequest(request, { provider: 'p', type: target.type, modelId: target.modelId });
        if (!built.ok) throw new Error(built.reason);
        expect(built.request.path).toBe(target.path);
        expect(meaning(built.request.body)).toEqual(meaning(sdk));
      });
    }
  }
});
