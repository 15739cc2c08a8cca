import { describe, expect, test } from 'vitest';
import { toJavaScript, writeSnippets } from './snippets.js';

const target = { baseUrl: 'http://127.0.0.1:8787/', keyed: false };
const snippetOf = (kind: string, request: Parameters<typeof writeSnippets>[0], keyed = false) =>
  writeSnippets(request, { ...target, keyed }).find((snippet) => snippet.kind === kind);

/** The object literal passed to the SDK call of a JavaScript snippet, evaluated. */
function bodyOf(code: string): Record<string, unknown> {
  const literal = /create\((\{[\s\S]*\})\);\n/.exec(code)?.[1];
  if (literal === undefined) throw new Error(`No call in:\n${code}`);
  return new Function(`return (${literal});`)() as Record<string, unknown>;
}

describe('writeSnippets', () => {
  test('names the key variable only for a gateway that asks for a key, and strips the trailing slash', () => {
    const keyless = snippetOf('curl', { model: 'demo:chat', input: 'Hi' });
    expect(keyless?.code).not.toContain('Authorization');
    expect(keyless?.code).toContain('http://127.0.0.1:8787/v1/text');
    const keyed = snippetOf('client', { model: 'demo:chat', input: 'Hi' }, true);
    expect(keyed?.code).toContain('key: process.env.VERDICT_GATEWAY_KEY');
  });

  test('writes the curl body as JSON in a quoted here-document and never asks for a stream', () => {
    const curl = snippetOf('curl', { model: 'demo:chat', input: "It's $HOME", stream: true } as never);
    const json = curl?.code.split('<<"JSON"\n')[1]?.split('\nJSON\n')[0];
    expect(JSON.parse(json ?? '')).toEqual({ model: 'demo:chat', input: "It's $HOME" });
  });

  test('gives the OpenAI SDK the system prompt as the first message and max_completion_tokens', () => {
    const body = bodyOf(
      snippetOf('openai', { model: 'openai:gpt-4.1', system: 'Be brief.', input: 'Hi', max_output_tokens: 9 })
        ?.code ?? '',
    );
    expect(body).toEqual({
      model: 'openai:gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_completion_tokens: 9,
    });
  });

  test("turns images, tool calls and consecutive tool results into Anthropic's blocks", () => {
    const anthropic = snippetOf('anthropic', {
      model: 'anthropic:claude-sonnet-4-5',
      temperature: 1.5,
      parallel_tool_calls: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here and there?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'w', arguments: '{"city":"Oslo"}' } },
            { id: 'b', type: 'function', function: { name: 'w', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: '12' },
        { role: 'tool', tool_call_id: 'b', content: '25' },
      ],
    });
    const body = bodyOf(anthropic?.code ?? '');
    expect(body.max_tokens).toBe(1024);
    expect(body.temperature).toBeUndefined();
    expect(anthropic?.omitted).toEqual(['temperature above 1']);
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather here and there?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'w', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'b', name: 'w', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: '12' },
          { type: 'tool_result', tool_use_id: 'b', content: '25' },
        ],
      },
    ]);
  });
});

describe('toJavaScript', () => {
  test('writes bare identifiers, quotes other member names, and reads back as the same value', () => {
    const value = { plain: 1, 'with-dash': [true, null, 'x'], nested: { a: {} } };
    const source = toJavaScript(value);
    expect(source).toContain('plain: 1');
    expect(source).toContain('"with-dash": [');
    expect(new Function(`return (${source});`)()).toEqual(value);
  });
});
