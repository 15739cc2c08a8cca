import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../../basics/json-value.js';
import type { Target } from '../../pipeline/call-with-fallbacks.js';
import { decideForwarding, type ForwardQuestion, forwardedRequest } from './same-format.js';

/** A target of a provider type, speaking `format` natively (or nothing). */
function target(type: string, format: string | undefined, id = type): Target {
  return {
    provider: { id, type, baseURL: undefined, format },
    modelId: 'm',
    label: `${id}:m`,
    model: {},
  } as unknown as Target;
}

const OPENAI = target('openai', 'openai.chat');
const GROQ = target('groq', 'openai-compatible.chat');
const ANTHROPIC = target('anthropic', 'anthropic.messages');

function ask(body: JsonObject, targets: Target[], extra: Partial<ForwardQuestion> = {}) {
  return decideForwarding({
    format: 'openai.chat',
    body,
    targets,
    formatOf: (one) => (one.provider as unknown as { format: string | undefined }).format,
    cacheOn: false,
    ...extra,
  });
}

const BODY: JsonObject = { model: 'x', messages: [{ role: 'user', content: 'Hi' }] };

describe('decideForwarding', () => {
  test('forwards a plain body to targets of the same format', () => {
    expect(ask(BODY, [OPENAI, GROQ])).toEqual({ forward: true, plan: { format: 'openai.chat', body: BODY } });
  });

  test('says which rule keeps a request on the translating path', () => {
    expect(ask(BODY, [OPENAI], { cacheOn: true })).toEqual({ forward: false, reason: 'cache_on' });
    expect(ask(BODY, [OPENAI, ANTHROPIC])).toEqual({ forward: false, reason: 'other_format' });
    expect(ask(BODY, [target('openai', undefined)])).toEqual({ forward: false, reason: 'other_format' });
    expect(ask(BODY, [target('mistral', 'openai-compatible.chat')])).toEqual({
      forward: false,
      reason: 'other_format',
    });
    expect(ask({ ...BODY, response_format: { type: 'json_object' } }, [OPENAI])).toEqual({
      forward: false,
      reason: 'structured_output',
    });
    expect(ask({ ...BODY, response_format: { type: 'text' } }, [OPENAI]).forward).toBe(true);
    expect(ask({ ...BODY, provider_options: { openai: {} } }, [OPENAI])).toEqual({
      forward: false,
      reason: 'verdict_member',
    });
    const file = { type: 'file', file: { file_data: 'AAAA', media_type: 'application/pdf' } };
    expect(ask({ ...BODY, messages: [{ role: 'user', content: [file] }] }, [OPENAI])).toEqual({
      forward: false,
      reason: 'verdict_member',
    });
    expect(ask({ ...BODY, store: true }, [OPENAI]).forward).toBe(true);
    expect(ask({ ...BODY, store: true }, [OPENAI, GROQ])).toEqual({
      forward: false,
      reason: 'openai_only_member',
    });
    expect(ask({ ...BODY, max_completion_tokens: 9 }, [GROQ])).toEqual({
      forward: false,
      reason: 'dialect_member',
    });
  });

  test('an Anthropic body is forwarded to Anthropic only', () => {
    const question = { format: 'anthropic.messages' as const };
    expect(ask(BODY, [ANTHROPIC], question).forward).toBe(true);
    expect(ask(BODY, [OPENAI], question)).toEqual({ forward: false, reason: 'other_format' });
  });
});

describe('forwardedRequest', () => {
  test("changes the model id only, in the client's member order", () => {
    const body: JsonObject = { messages: [], model: 'alias', temperature: 0 };
    const request = forwardedRequest({ format: 'openai.chat', body }, 'gpt-4.1');
    expect(Object.keys(request.body)).toEqual(['messages', 'model', 'temperature']);
    expect(request).toMatchObject({ path: '/chat/completions', stream: false, body: { model: 'gpt-4.1' } });
    expect(body.model).toBe('alias');
  });

  test('an OpenAI stream asks for its usage, keeping what the client set there', () => {
    const body: JsonObject = { model: 'a', stream: true, stream_options: { include_obfuscation: false } };
    const request = forwardedRequest({ format: 'openai.chat', body }, 'm');
    expect(request.body.stream_options).toEqual({ include_obfuscation: false, include_usage: true });
    expect(request.clientAskedUsage).toBe(false);
    const asked = forwardedRequest(
      { format: 'openai.chat', body: { ...body, stream_options: { include_usage: true } } },
      'm',
    );
    expect(asked.clientAskedUsage).toBe(true);
    expect(asked.body.stream_options).toEqual({ include_usage: true });
  });

  test('an Anthropic request names the API version', () => {
    const request = forwardedRequest(
      { format: 'anthropic.messages', body: { model: 'a', max_tokens: 9 } },
      'm',
    );
    expect(request).toMatchObject({ path: '/messages', headers: { 'anthropic-version': '2023-06-01' } });
  });
});
