import { describe, expect, test } from 'vitest';
import { type MessagesRequest, messagesRequestSchema } from './messages-request-schema.js';
import { effortOfBudget, toTextRequest } from './to-text-request.js';

/** A request checked by the surface's schema, as the route hands it over. */
function checked(body: Record<string, unknown>): MessagesRequest {
  return messagesRequestSchema.parse({ model: 'anthropic:claude-sonnet-4-5', max_tokens: 100, ...body });
}

function translate(body: Record<string, unknown>) {
  const translated = toTextRequest(checked(body));
  if (!translated.ok) throw new Error(JSON.stringify(translated.problems));
  return translated.request;
}

describe('toTextRequest', () => {
  test('turns the system blocks into a system message and max_tokens into max_output_tokens', () => {
    expect(
      translate({
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } },
        ],
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).toEqual({
      model: 'anthropic:claude-sonnet-4-5',
      max_output_tokens: 100,
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'Be brief.' },
            { type: 'text', text: 'Answer in French.' },
          ],
        },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(
      translate({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }).messages?.[0],
    ).toEqual({
      role: 'system',
      content: 'Be brief.',
    });
  });

  test('carries tool calls and their results, results first in their turn as Anthropic orders them', () => {
    const request = translate({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig' },
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '12 °C' }] },
            { type: 'text', text: 'And in F?' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Looking.' }],
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: '12 °C' }] },
      { role: 'user', content: [{ type: 'text', text: 'And in F?' }] },
    ]);
  });

  test('turns images and documents into image_url and file parts', () => {
    const request = translate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
            {
              type: 'document',
              source: { type: 'text', media_type: 'text/plain', data: 'hé' },
              title: 'note',
            },
          ],
        },
      ],
    });
    expect(request.messages?.[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        { type: 'file', file: { file_data: 'JVBERi0=', media_type: 'application/pdf' } },
        { type: 'file', file: { file_data: 'aMOp', media_type: 'text/plain', filename: 'note' } },
      ],
    });
  });

  test('maps tools, tool_choice, sampling, stop sequences and stream', () => {
    const request = translate({
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ name: 'get_weather', description: 'Weather.', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      temperature: 0.5,
      top_p: 0.9,
      top_k: 20,
      stop_sequences: ['END'],
      stream: true,
      metadata: { user_id: 'u-1' },
      service_tier: 'auto',
    });
    expect(request).toMatchObject({
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' } },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 20,
      stop: ['END'],
      stream: true,
    });
    for (const [choice, expected] of [
      [{ type: 'auto' }, 'auto'],
      [{ type: 'none' }, 'none'],
      [
        { type: 'tool', name: 'get_weather' },
        { type: 'function', function: { name: 'get_weather' } },
      ],
    ] as const) {
      expect(
        translate({
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
          tool_choice: choice,
        }).tool_choice,
      ).toEqual(expected);
    }
  });

  test('gives Anthropic the exact thinking budget and other targets the nearest effort', () => {
    expect(
      translate({
        messages: [{ role: 'user', content: 'Hi' }],
        thinking: { type: 'enabled', budget_tokens: 8000 },
      }),
    ).toMatchObject({
      reasoning_effort: 'medium',
      provider_options: { anthropic: { thinking: { type: 'enabled', budgetTokens: 8000 } } },
    });
    expect([1024, 4096, 16_384].map(effortOfBudget)).toEqual(['low', 'medium', 'high']);
    expect(
      translate({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'disabled' } }),
    ).not.toHaveProperty('reasoning_effort');
  });

  test('refuses what the text request cannot carry, naming each member', () => {
    const translated = toTextRequest(
      checked({
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
        temperature: 0.2,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
              },
              { type: 'tool_use', id: 'toolu_2', name: 'x', input: {} },
            ],
          },
        ],
      }),
    );
    expect(translated.ok).toBe(false);
    expect(translated.ok ? [] : translated.problems.map((problem) => problem.path)).toEqual([
      '/messages/0/content/0/content/0',
      '/messages/0/content/1/type',
      '/tools/0/type',
      '/temperature',
    ]);
  });

  test('the schema refuses unknown members and a missing max_tokens', () => {
    expect(
      messagesRequestSchema.safeParse({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }).success,
    ).toBe(false);
    expect(
      messagesRequestSchema.safeParse({
        model: 'm',
        max_tokens: 1,
        messages: [{ role: 'user', content: 'Hi' }],
        container: 'c',
      }).success,
    ).toBe(false);
  });
});
