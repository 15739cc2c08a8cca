import { describe, expectTypeOf, test } from 'vitest';
import {
  createClient,
  type ResponseInfo,
  type TextOutput,
  type TextRequest,
  type TextStreamEvent,
  type ToolCall,
  type UsageQuery,
  type UsageRequestsQuery,
} from '../../src/client/index.js';

const verdict = createClient({ baseURL: 'http://127.0.0.1:8787' });

describe('verdict/client requests', () => {
  test('the usage queries type-check', () => {
    expectTypeOf<{ group_by: 'model'; bucket: 'minute' }>().toExtend<UsageQuery>();
    expectTypeOf<{ trace_id: string; limit: number; cursor: string }>().toExtend<UsageRequestsQuery>();
  });

  test('a prompt or a conversation with tools and structured output type-checks', () => {
    expectTypeOf<{ model: string; input: string }>().toExtend<TextRequest>();
    const chat: TextRequest = {
      model: 'openai:gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"temp_c":12}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } },
    };
    expectTypeOf(chat).toExtend<TextRequest>();
  });

  test('a wrong request is a compile error', () => {
    // @ts-expect-error neither input nor messages
    verdict.text({ model: 'openai:x' });
    // @ts-expect-error input and messages together
    verdict.text({ model: 'openai:x', input: 'Hi', messages: [{ role: 'user', content: 'Hi' }] });
    // @ts-expect-error an unknown role
    verdict.text({ model: 'openai:x', messages: [{ role: 'robot', content: 'Hi' }] });
    // @ts-expect-error a tool message needs its tool_call_id
    verdict.text({ model: 'openai:x', messages: [{ role: 'tool', content: '42' }] });
    // @ts-expect-error tool_choice is auto, none, required or a named function
    verdict.text({ model: 'openai:x', input: 'Hi', tool_choice: 'sometimes' });
    // @ts-expect-error temperature is a number
    verdict.text({ model: 'openai:x', input: 'Hi', temperature: 'hot' });
    // @ts-expect-error images take a prompt, not an input
    verdict.images({ model: 'openai:gpt-image-1', input: 'a fox' });
    // @ts-expect-error usage is grouped by key, provider, model, route or code
    verdict.usage({ group_by: 'team' });
    // @ts-expect-error a page's size is a number
    verdict.usageRequests({ limit: '25' });
  });
});

describe('verdict/client answers', () => {
  test('text() answers an envelope narrowed by success', async () => {
    const answer = await verdict.text({ model: 'openai:x', input: 'Hi' });
    expectTypeOf(answer).toEqualTypeOf<TextOutput>();
    if (answer.success) {
      expectTypeOf(answer.content).toBeString();
      expectTypeOf(answer.metadata.tool_calls).toEqualTypeOf<ToolCall[] | undefined>();
      // @ts-expect-error a success has no error
      answer.error.code;
    } else {
      expectTypeOf(answer.error.code).toExtend<string>();
      // @ts-expect-error a failure has no content
      answer.content.length;
    }
  });

  test('streamText() yields typed events', async () => {
    for await (const event of verdict.streamText({ model: 'openai:x', input: 'Hi' })) {
      expectTypeOf(event).toEqualTypeOf<TextStreamEvent>();
      if (event.type === 'delta') expectTypeOf(event.text).toBeString();
      if (event.type === 'envelope') expectTypeOf(event.envelope).toEqualTypeOf<TextOutput>();
    }
  });

  test('onResponse receives the status and headers of each answer', () => {
    verdict.models({
      onResponse: (response) => {
        expectTypeOf(response).toEqualTypeOf<ResponseInfo>();
        expectTypeOf(response.status).toBeNumber();
        expectTypeOf(response.headers).toEqualTypeOf<Headers>();
      },
    });
    // @ts-expect-error the callback gets the status line and headers, never the body to read
    verdict.models({ onResponse: (response: Response) => response.json() });
  });
});
