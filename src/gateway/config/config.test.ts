import { describe, expect, test } from 'vitest';
import {
  checkCredentials,
  checkGatewayConfig,
  keyEnvOf,
  providersFromEnv,
  providerTypeOf,
} from './config.js';

function problemPaths(value: unknown): string[] {
  const checked = checkGatewayConfig(value);
  return checked.ok ? [] : checked.problems.map((problem) => problem.path);
}

describe('checkGatewayConfig', () => {
  test('accepts a full configuration', () => {
    const config = {
      providers: { openai: {}, local: { baseURL: 'http://127.0.0.1:8000/v1' } },
      aliases: { smart: ['openai:gpt-4o-mini', 'local:llama'], fast: 'openai:gpt-4o-mini' },
      routes: { text: { timeoutMs: 1000, retries: 1 } },
      retries: 2,
      keys: ['a-gateway-key-of-16+'],
    };
    expect(checkGatewayConfig(config)).toEqual({ ok: true, config });
  });

  test('lists every problem at once, each with its JSON Pointer', () => {
    expect(
      problemPaths({
        providers: { 'Bad/Id': { baseURL: 'http://x' }, compat: {}, anthropic: { api: 'responses' } },
        aliases: { smart: ['nowhere:model'] },
        retries: -1,
        surprise: true,
      }).sort(),
    ).toEqual(
      [
        '/aliases/smart/0',
        '/providers/Bad~1Id',
        '/providers/anthropic/api',
        '/providers/compat/baseURL',
        '/retries',
        '/surprise',
      ].sort(),
    );
  });

  test('a value that is not an object is one problem, never a throw', () => {
    for (const value of [null, 42, 'text', []]) expect(checkGatewayConfig(value).ok).toBe(false);
  });
});

describe('providers from the environment', () => {
  test('one provider per key variable set, with its base URL variable', () => {
    expect(
      providersFromEnv({
        OPENAI_API_KEY: 'sk-x',
        ANTHROPIC_API_KEY: '  ',
        GROQ_API_KEY: 'gsk',
        GROQ_BASE_URL: 'http://127.0.0.1:9/openai/v1',
      }),
    ).toEqual({ openai: {}, groq: { baseURL: 'http://127.0.0.1:9/openai/v1' } });
  });

  test('a provider type comes from the settings, else the id, else openai-compatible', () => {
    expect(providerTypeOf('anthropic', undefined)).toBe('anthropic');
    expect(providerTypeOf('mine', { type: 'google' })).toBe('google');
    // groq has a provider type (and package) of its own; openrouter is a known OpenAI-compatible server.
    expect(providerTypeOf('groq', undefined)).toBe('groq');
    expect(providerTypeOf('openrouter', undefined)).toBe('openai-compatible');
    expect(providerTypeOf('my-vllm', { baseURL: 'http://127.0.0.1:8000/v1' })).toBe('openai-compatible');
    expect(keyEnvOf('groq', undefined)).toBe('GROQ_API_KEY');
    expect(keyEnvOf('openrouter', undefined)).toBe('OPENROUTER_API_KEY');
    expect(keyEnvOf('mine', { apiKeyEnv: 'MINE_KEY' })).toBe('MINE_KEY');
    expect(keyEnvOf('unknown', undefined)).toBeUndefined();
  });
});

describe('checkCredentials', () => {
  test('a provider with its own credential chain or no key at all passes; a missing key is named', () => {
    const providers = {
      bedrock: { type: 'amazon-bedrock' as const },
      local: { type: 'ollama' as const, baseURL: 'http://127.0.0.1:11434/v1' },
      mistral: {},
    };
    const env = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };
    expect(checkCredentials(providers, env).map((problem) => problem.message)).toEqual([
      'Provider "mistral" needs its key: MISTRAL_API_KEY is not set.',
    ]);
    expect(checkCredentials({ bedrock: { type: 'amazon-bedrock' } }, {})).toHaveLength(1);
  });
});
