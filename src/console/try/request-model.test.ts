import { describe, expect, test } from 'vitest';
import { textRequestSchema } from '../../gateway/request-schemas.js';
import {
  answerTurn,
  createPlaygroundRequest,
  type PlaygroundRequest,
  SAMPLE_TOOL,
  toTextRequest,
  unansweredCalls,
} from './request-model.js';

function requestWith(change: Partial<PlaygroundRequest>): PlaygroundRequest {
  return { ...createPlaygroundRequest('demo:chat'), ...change };
}

describe('toTextRequest', () => {
  test('sends the system prompt, the turns and the next message as messages the gateway accepts', () => {
    const built = toTextRequest(
      requestWith({
        system: 'Answer in French.',
        turns: [
          { role: 'user', text: 'Hi', attachments: [] },
          { role: 'assistant', text: 'Bonjour', toolCalls: [] },
        ],
        prompt: 'And the capital?',
      }),
    );
    expect(built).toEqual({
      ok: true,
      body: {
        model: 'demo:chat',
        system: 'Answer in French.',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Bonjour' },
          { role: 'user', content: 'And the capital?' },
        ],
      },
    });
    if (built.ok) expect(textRequestSchema.safeParse(built.body).success).toBe(true);
  });

  test('sends only the parameters the route takes, read from what was typed', () => {
    const request = requestWith({
      prompt: 'Hi',
      parameters: {
        temperature: '0.2',
        top_p: '0.9',
        max_output_tokens: '64',
        stop: 'END\nSTOP',
        seed: '7',
        reasoning_effort: 'low',
        provider_options: '{"anthropic":{"sendReasoning":false}}',
      },
    });
    const all = toTextRequest(request);
    expect(all.ok && all.body).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 64,
      stop: ['END', 'STOP'],
      seed: 7,
      reasoning_effort: 'low',
      provider_options: { anthropic: { sendReasoning: false } },
    });
    const some = toTextRequest(request, new Set(['temperature', 'stop']));
    expect(some.ok && Object.keys(some.body).sort()).toEqual(['messages', 'model', 'stop', 'temperature']);
  });

  test('names every field that keeps the request from being sent', () => {
    const built = toTextRequest(
      requestWith({
        parameters: {
          ...createPlaygroundRequest().parameters,
          temperature: '3',
          seed: '1.5',
          provider_options: '{"openai": 1}',
        },
        tools: [
          { ...SAMPLE_TOOL, parameters: '{"type": "array"}' },
          { ...SAMPLE_TOOL, parameters: '{' },
        ],
        responseFormat: { on: true, name: 'bad name', schema: '[]' },
      }),
    );
    expect(built.ok ? [] : built.problems.map((p) => p.field)).toEqual([
      'temperature',
      'seed',
      'provider_options',
      'prompt',
      'tools/0/parameters',
      'tools/1/name',
      'tools/1/parameters',
      'response_format/name',
      'response_format/schema',
    ]);
  });

  test('sends tools, a JSON-schema response format, attachments as parts and tool results', () => {
    const built = toTextRequest(
      requestWith({
        turns: [
          { role: 'user', text: 'Weather?', attachments: [] },
          answerTurn('', [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]),
          { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '{"sky":"clear"}' },
        ],
        prompt: 'Look',
        attachments: [
          { name: 'a.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { name: 'b.pdf', mediaType: 'application/pdf', data: 'JVBERi0=' },
        ],
        tools: [SAMPLE_TOOL],
        responseFormat: { on: true, name: 'answer', schema: '{"type":"object"}' },
      }),
    );
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.body.messages?.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'file', file: { file_data: 'JVBERi0=', media_type: 'application/pdf', filename: 'b.pdf' } },
        ],
      },
    ]);
    expect(built.body.tools?.[0]?.function.name).toBe('get_weather');
    expect(built.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object' } },
    });
    expect(textRequestSchema.safeParse(built.body).success).toBe(true);
  });
});

describe('unansweredCalls', () => {
  test('lists the last answer’s tool calls that no tool turn answers yet', () => {
    const asked = answerTurn('', [
      { id: 'a', name: 'f', arguments: {} },
      { id: 'b', name: 'g', arguments: 'not json', arguments_not_json: true },
    ]);
    expect(asked.role === 'assistant' && asked.toolCalls[1]?.arguments).toBe('not json');
    expect(unansweredCalls([asked]).map((c) => c.id)).toEqual(['a', 'b']);
    const answered = [asked, { role: 'tool' as const, toolCallId: 'a', name: 'f', content: '1' }];
    expect(unansweredCalls(answered).map((c) => c.id)).toEqual(['b']);
    expect(unansweredCalls([...answered, answerTurn('done', [])])).toEqual([]);
  });
});
