import { describe, expect, test } from 'vitest';
import { parseJsonRequest } from '../../src/gateway/request/read-request.js';
import { textRequestSchema } from '../../src/gateway/request/request-schemas.js';
import { LIBRARY_PHRASES } from './envelope-assertions.js';

function problemsOf(body: unknown): { path: string; message: string }[] {
  const read = parseJsonRequest(new TextEncoder().encode(JSON.stringify(body)), textRequestSchema);
  if (read.ok) return [];
  return read.problem.details.problems as { path: string; message: string }[];
}

describe('request problems', () => {
  test.each([
    [{ model: 'openai:x' }, '', 'Give the prompt as "input" or the conversation as "messages".'],
    [
      { model: 'openai:x', input: 'Hi', messages: [{ role: 'user', content: 'Hi' }] },
      '/messages',
      'Give "input" or "messages", not both.',
    ],
    [
      { model: 'openai:x', input: 'Hi', seed: 1e300 },
      '/seed',
      'Must be an integer between -9007199254740991 and 9007199254740991.',
    ],
    [
      { model: 'openai:x', input: 'Hi', temperature: 'hot' },
      '/temperature',
      'Must be a number, not a string.',
    ],
    [{ model: 'openai:x', input: 'Hi', temperature: 3 }, '/temperature', 'Must be at most 2.'],
    [
      { model: 'openai:x', input: 'Hi', max_output_tokens: 0 },
      '/max_output_tokens',
      'Must be a whole number of tokens from 1 to 4294967295.',
    ],
    [
      { model: 'openai:x', input: 'Hi', max_output_tokens: 1e20 },
      '/max_output_tokens',
      'Must be a whole number of tokens from 1 to 4294967295.',
    ],
    [
      { model: 'openai:x', input: 'Hi', max_completion_tokens: 2.5 },
      '/max_completion_tokens',
      'Must be a whole number of tokens from 1 to 4294967295.',
    ],
    [
      { model: 'openai:x', input: 'Hi', max_tokens: 5, max_completion_tokens: 5 },
      '/max_completion_tokens',
      'Give only one of "max_tokens", "max_completion_tokens".',
    ],
    [{ model: 'openai:x', input: 'Hi', n: 2 }, '/n', 'Must be 1: the gateway answers one choice.'],
    [{ input: 'Hi' }, '/model', 'A required member is missing.'],
    [{ model: '', input: 'Hi' }, '/model', 'Must not be empty.'],
    [
      { model: 'openai:x', input: 'Hi', reasoning_effort: 'huge' },
      '/reasoning_effort',
      'Must be one of "none", "minimal", "low", "medium", "high" or "xhigh".',
    ],
    [
      { model: 'openai:x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', extra: 1 }] }] },
      '/messages/0/content/0/extra',
      'Unknown member "extra".',
    ],
    [
      { model: 'openai:x', messages: [{ role: 'user', content: [{ type: 'text', text: 7 }] }] },
      '/messages/0/content/0/text',
      'Must be a string, not an integer.',
    ],
    [
      { model: 'openai:x', messages: [{ role: 'robot', content: 'Hi' }] },
      '/messages/0/role',
      'Must be a message whose role is system, developer, user, assistant or tool.',
    ],
    [
      { model: 'openai:x', messages: [{ role: 'tool', content: '42' }] },
      '/messages/0/tool_call_id',
      'A required member is missing.',
    ],
    [
      {
        model: 'openai:x',
        input: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/a.png' } }] }],
      },
      '/input/0/content/0/image_url/url',
      'Must be an https: URL or a data:image/…;base64, URL.',
    ],
  ])('%j → %s: %s', (body, path, message) => {
    const problems = problemsOf(body);
    expect(problems).toContainEqual({ path, message });
    for (const problem of problems) {
      for (const phrase of LIBRARY_PHRASES) expect(problem.message).not.toMatch(phrase);
    }
  });

  test('a request without a prompt lists that problem beside the others', () => {
    expect(problemsOf({ model: 'openai:x', temperature: 'hot' })).toEqual([
      { path: '/temperature', message: 'Must be a number, not a string.' },
      { path: '', message: 'Give the prompt as "input" or the conversation as "messages".' },
    ]);
  });

  test('a body that is not an object gets one problem, not a crash of the prompt check', () => {
    expect(problemsOf([1, 2])).toHaveLength(1);
    expect(problemsOf(null)).toHaveLength(1);
  });

  test('the fields OpenAI clients send are accepted', () => {
    expect(
      problemsOf({
        model: 'openai:x',
        messages: [{ role: 'user', content: 'Hi' }],
        user: 'u-1',
        n: 1,
        store: false,
        metadata: { team: 'a' },
        stream_options: { include_usage: true },
        max_completion_tokens: 64,
        seed: 7,
        service_tier: 'auto',
        parallel_tool_calls: true,
      }),
    ).toEqual([]);
  });
});
