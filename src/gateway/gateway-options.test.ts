import { describe, expect, test } from 'vitest';
import { isVerdictError } from '../errors.js';
import { createGateway } from './create-gateway.js';
import { adminKeyOf, checkProviderKeys, gatewayKeysOf, secretsOf } from './gateway-options.js';

/** What `createGateway` threw, or `undefined`. */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createGateway used as a library', () => {
  test('refuses a provider whose key variable is missing, naming the variable, as the CLI does', () => {
    const error = thrownBy(() =>
      createGateway({ providers: { openai: { baseURL: 'http://127.0.0.1:9/v1' } } }),
    );
    expect(isVerdictError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'invalid_argument',
      message: '1 provider(s) lack their key: Provider "openai" needs its key: OPENAI_API_KEY is not set.',
    });
  });

  test('names an empty variable and an apiKeyEnv of its own', () => {
    expect(
      thrownBy(() =>
        createGateway({
          providers: { anthropic: {}, mine: { type: 'openai', apiKeyEnv: 'MY_OPENAI_KEY' } },
          env: { ANTHROPIC_API_KEY: ' ' },
        }),
      ),
    ).toMatchObject({
      message:
        '2 provider(s) lack their key: Provider "anthropic" needs its key: ANTHROPIC_API_KEY is empty. Provider "mine" needs its key: MY_OPENAI_KEY is not set.',
    });
  });

  test('builds when each key is given in code or in env, or when none is needed', () => {
    expect(() => createGateway({ providers: { openai: { apiKey: 'sk-in-code' } } })).not.toThrow();
    expect(() =>
      createGateway({ providers: { openai: {} }, env: { OPENAI_API_KEY: 'sk-env' } }),
    ).not.toThrow();
    expect(() =>
      createGateway({
        providers: {
          demo: { type: 'demo' },
          ollama: { type: 'ollama' },
          local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' },
        },
      }),
    ).not.toThrow();
  });

  test('takes a provider with its SDK credential chain set instead of a key', () => {
    const bedrock = { providers: { bedrock: { type: 'amazon-bedrock' as const } } };
    expect(() => checkProviderKeys(bedrock)).toThrow(/AWS_BEARER_TOKEN_BEDROCK is not set/);
    expect(() =>
      checkProviderKeys({ ...bedrock, env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 'secret' } }),
    ).not.toThrow();
  });

  test('with no providers given, configures only those whose key is set, so nothing is missing', () => {
    expect(() => checkProviderKeys({ env: { OPENAI_API_KEY: '' } })).not.toThrow();
    expect(() => checkProviderKeys({})).not.toThrow();
  });
});

describe('gatewayKeysOf', () => {
  test('joins the keys of the options and of their variable', () => {
    expect(
      gatewayKeysOf({
        keys: ['a-key-in-the-options'],
        env: { VERDICT_GATEWAY_KEYS: ' a-key-in-the-env-01 ,' },
      }),
    ).toEqual(['a-key-in-the-options', 'a-key-in-the-env-01']);
  });

  test('refuses a key shorter than 16 characters, saying where it came from', () => {
    expect(() => gatewayKeysOf({ keysEnv: 'MY_KEYS', env: { MY_KEYS: 'short' } })).toThrow(
      'Gateway keys must be at least 16 characters; 1 key(s) in MY_KEYS are shorter.',
    );
  });
});

describe('adminKeyOf', () => {
  test('refuses an admin key shorter than the gateway keys, from the environment or the options', () => {
    expect(() => adminKeyOf({ env: { VERDICT_ADMIN_KEY: 'short' } })).toThrow(
      'The admin key in VERDICT_ADMIN_KEY must be at least 16 characters, as gateway keys are; it has 5.',
    );
    expect(() => adminKeyOf({ adminKey: 'fifteen-chars-x' })).toThrow(/at least 16 characters/);
  });

  test('takes a long enough key, the options first, and reads an empty one as none', () => {
    expect(adminKeyOf({ env: { VERDICT_ADMIN_KEY: 'admin-key-0123456' } })).toBe('admin-key-0123456');
    expect(adminKeyOf({ adminKey: 'options-admin-key-01', env: { VERDICT_ADMIN_KEY: 'x' } })).toBe(
      'options-admin-key-01',
    );
    expect(adminKeyOf({ env: { VERDICT_ADMIN_KEY: '' } })).toBeUndefined();
  });
});

describe('secretsOf', () => {
  test('lists provider keys from code and env, credential headers, and the gateway keys', () => {
    const secrets = secretsOf(
      {
        providers: {
          openai: { apiKey: 'sk-code' },
          anthropic: { headers: { 'x-api-key': 'ant-header', 'x-region': 'eu' } },
          mine: { type: 'openai', apiKeyEnv: 'MINE_KEY' },
        },
        env: { MINE_KEY: 'mine-env' },
      },
      ['gateway-key-0123456789'],
    );
    expect(secrets).toEqual(
      expect.arrayContaining(['gateway-key-0123456789', 'sk-code', 'ant-header', 'mine-env']),
    );
    expect(secrets).not.toContain('eu');
  });
});
