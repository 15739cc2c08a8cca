import { readFileSync } from 'node:fs';
import { generateText } from 'ai';
import { beforeEach, describe, expect, test } from 'vitest';
import { PACKAGED_TYPE_NAMES, PACKAGED_TYPES } from '../../src/gateway/ai-sdk/packaged-types.js';
import {
  checkGatewayConfig,
  createGateway,
  type GatewayOptions,
  providersFromEnv,
} from '../../src/gateway/index.js';
import { createPackagedModels } from '../../src/gateway/providers/packaged-providers.js';
import { createProviderModels, MODALITIES_OF } from '../../src/gateway/providers/providers.js';
import { fixture, type ReplayAnswer, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The packaged provider types (docs/gateway.md, "Provider types"), each through its own `@ai-sdk/*` package
 * against the replay server: the request each sends (path, credentials, model), a success, and the provider's own
 * error bodies for a bad key, a rate limit and a bad request.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

function gatewayWith(providers: GatewayOptions['providers'], env: Record<string, string> = {}) {
  return createGateway({ providers, retries: 0, env } as GatewayOptions);
}

function post(gateway: ReturnType<typeof createGateway>, path: string, body: unknown) {
  return gateway.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

/** An OpenAI-style error body, as most compatible APIs send it. */
const openAiStyle = (status: number, message: string, type: string, code: string | null = null) => ({
  status,
  body: { error: { message, type, param: null, code } },
});

interface ErrorCase {
  /** What the case shows. */
  name: string;
  /** The provider's answer. */
  answer: ReplayAnswer;
  /** The envelope's code. */
  code: string;
}

interface TextProviderCase {
  /** The provider type (and id). */
  type: string;
  /** The model id sent. */
  model: string;
  /** The request path the replay server must see, under `/<type>` (without the query). */
  path: string;
  /** Query members the request must carry. */
  query?: Record<string, string>;
  /** The provider's settings besides its base URL (an API key by default). */
  settings?: Record<string, unknown>;
  /** The environment the gateway gets (AWS credentials, Vertex project). */
  env?: Record<string, string>;
  /** When the credential is not one header value: a check of the request headers. */
  credentialCheck?: (headers: Record<string, string>) => void;
  /** How the key must arrive: header name and value. */
  credential?: [string, string];
  /** The provider's success answer; the replay default for `/chat/completions` when absent. */
  success?: ReplayAnswer;
  /** The content of the success. */
  content: string;
  /** The provider's own error bodies. */
  errors: ErrorCase[];
}

const KEY = 'replay-key-secret-0001';
const BEARER: [string, string] = ['authorization', `Bearer ${KEY}`];
const DEFAULT_CONTENT = 'Paris is the capital of France.';

const TEXT_PROVIDERS: TextProviderCase[] = [
  {
    type: 'azure',
    model: 'my-gpt-4o-deployment',
    // Behind a base URL that is not an Azure host (a proxy, the replay server) the SDK adds no `/v1` and no
    // `api-version`; on `*.openai.azure.com` it does.
    path: '/chat/completions',
    credential: ['api-key', KEY],
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: {
          status: 401,
          body: {
            error: {
              code: '401',
              message:
                'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
            },
          },
        },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: {
          status: 429,
          headers: { 'retry-after': '7' },
          body: {
            error: {
              code: '429',
              message:
                'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 7 seconds.',
            },
          },
        },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a prompt its content filter blocked',
        answer: {
          status: 400,
          body: {
            error: {
              message:
                "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
              type: null,
              param: 'prompt',
              code: 'content_filter',
              status: 400,
              innererror: { code: 'ResponsibleAIPolicyViolation' },
            },
          },
        },
        code: 'CONTENT_FILTERED',
      },
      {
        name: 'a bad request',
        answer: openAiStyle(400, 'Unrecognized request argument supplied: foo', 'invalid_request_error'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'amazon-bedrock',
    model: 'amazon.nova-lite-v1:0',
    path: '/model/amazon.nova-lite-v1%3A0/converse',
    settings: {},
    env: {
      AWS_ACCESS_KEY_ID: 'AKIDREPLAYEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'replay-aws-secret-0001',
      AWS_REGION: 'eu-west-1',
    },
    // SigV4: the access key id and region in the credential scope, never the secret.
    credentialCheck: (headers) => {
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDREPLAYEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
      );
      expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(JSON.stringify(headers)).not.toContain('replay-aws-secret-0001');
    },
    success: fixture('bedrock.converse/success/converse-text.json'),
    content: "Hello! I'm doing well, thank you for asking. How can I help you today?",
    errors: [
      {
        // 403 with UnrecognizedClientException: Bedrock's own error type says the key is wrong, not the permission.
        name: 'a bad key',
        answer: fixture('bedrock.converse/AUTHENTICATION_ERROR/unrecognized-client-403.json'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: fixture('bedrock.converse/RATE_LIMITED/throttling-429.json'),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: fixture('bedrock.converse/VALIDATION_ERROR/validation-exception-400.json'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'google-vertex',
    model: 'gemini-2.5-flash',
    path: '/models/gemini-2.5-flash:generateContent',
    credential: ['x-goog-api-key', KEY],
    content: 'The Nile is the longest river.',
    errors: [
      {
        name: 'a bad key',
        answer: fixture('google.generate-content/AUTHENTICATION_ERROR/unauthenticated-401.json'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: fixture('google.generate-content/RATE_LIMITED/resource-exhausted-429.json'),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: fixture('google.generate-content/VALIDATION_ERROR/invalid-argument-400.json'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'mistral',
    model: 'mistral-small-latest',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: { status: 401, body: { message: 'Unauthorized', request_id: 'b1a2' } },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: { status: 429, body: { message: 'Requests rate limit exceeded' } },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: {
          status: 400,
          body: {
            object: 'error',
            message:
              'Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant',
            type: 'invalid_request_message_order',
            param: null,
            code: '3230',
          },
        },
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'groq',
    model: 'llama-3.3-70b-versatile',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: openAiStyle(401, 'Invalid API Key', 'invalid_request_error', 'invalid_api_key'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: openAiStyle(
          429,
          'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5900, Requested 420. Please try again in 3.2s.',
          'tokens',
          'rate_limit_exceeded',
        ),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: openAiStyle(400, "'messages' : minimum number of items is 1", 'invalid_request_error'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'xai',
    model: 'grok-3-mini',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        // xAI answers a wrong key with a 400 and the error as a string.
        name: 'a bad key',
        answer: {
          status: 400,
          body: {
            code: 'Client specified an invalid argument',
            error:
              'Incorrect API key provided: re***01. You can obtain an API key from https://console.x.ai.',
          },
        },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: {
          status: 429,
          body: {
            code: 'Some resource has been exhausted',
            error: 'Your team has either used all available credits or reached its monthly spending limit.',
          },
        },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: {
          status: 400,
          body: { code: 'Client specified an invalid argument', error: 'Model grok-9 does not exist.' },
        },
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'deepseek',
    model: 'deepseek-chat',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: openAiStyle(
          401,
          'Authentication Fails, Your api key: ****0001 is invalid',
          'authentication_error',
          'invalid_request_error',
        ),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: openAiStyle(
          429,
          'Rate limit reached for requests',
          'rate_limit_error',
          'rate_limit_exceeded',
        ),
        code: 'RATE_LIMITED',
      },
      {
        name: 'an empty balance',
        answer: openAiStyle(402, 'Insufficient Balance', 'unknown_error', 'invalid_request_error'),
        code: 'INSUFFICIENT_CREDITS',
      },
      {
        name: 'a bad request',
        answer: openAiStyle(
          400,
          "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens.",
          'invalid_request_error',
          'invalid_request_error',
        ),
        code: 'CONTEXT_LENGTH_EXCEEDED',
      },
    ],
  },
  {
    type: 'cohere',
    model: 'command-a-03-2025',
    path: '/chat',
    credential: BEARER,
    success: fixture('cohere.chat/success/v2-text.json'),
    content: 'A haiku needs five, then seven, then five syllables.',
    errors: [
      {
        name: 'a bad key',
        answer: fixture('cohere.chat/AUTHENTICATION_ERROR/invalid-api-token-401.json'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: fixture('cohere.chat/RATE_LIMITED/trial-key-429.json'),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: fixture('cohere.chat/VALIDATION_ERROR/invalid-request-400.json'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'togetherai',
    model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: openAiStyle(
          401,
          'Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.',
          'invalid_request_error',
          'invalid_api_key',
        ),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: openAiStyle(
          429,
          'You have exceeded your rate limit of 600 requests per minute.',
          'rate_limit',
          'rate_limit_exceeded',
        ),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: openAiStyle(
          400,
          'Input validation error: `temperature` must be non-negative',
          'invalid_request_error',
        ),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'fireworks',
    model: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        name: 'a bad key',
        answer: {
          status: 401,
          body: {
            error: { object: 'error', type: 'unauthorized', message: 'The API key you provided is invalid.' },
          },
        },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: {
          status: 429,
          body: {
            error: { object: 'error', type: 'rate_limited', message: 'Request rate increased too quickly.' },
          },
        },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: {
          status: 400,
          body: {
            error: {
              object: 'error',
              type: 'invalid_request_error',
              message: 'Model not found, inaccessible, and/or not deployed',
            },
          },
        },
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'cerebras',
    model: 'llama-3.3-70b',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        // Cerebras puts its error members at the top level of the body.
        name: 'a bad key',
        answer: {
          status: 401,
          body: {
            message: 'Wrong API Key',
            type: 'invalid_request_error',
            param: 'api_key',
            code: 'wrong_api_key',
          },
        },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: {
          status: 429,
          body: {
            message: 'Requests per minute limit exceeded - too many requests sent.',
            type: 'too_many_requests_error',
            param: 'quota',
            code: 'request_quota_exceeded',
          },
        },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: {
          status: 400,
          body: {
            message: 'Failed to apply chat template.',
            type: 'invalid_request_error',
            param: 'messages',
            code: 'wrong_api_format',
          },
        },
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'perplexity',
    model: 'sonar',
    path: '/chat/completions',
    credential: BEARER,
    content: DEFAULT_CONTENT,
    errors: [
      {
        // Perplexity's edge answers a missing or wrong key with an HTML page.
        name: 'a bad key',
        answer: {
          status: 401,
          body: '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n</body>\r\n</html>',
        },
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a rate limit',
        answer: {
          status: 429,
          body: { error: { message: 'Rate limit exceeded', type: 'rate_limit_exceeded', code: 429 } },
        },
        code: 'RATE_LIMITED',
      },
      {
        name: 'a bad request',
        answer: {
          status: 400,
          body: {
            error: {
              message:
                "Invalid model 'sonar-9'. Permitted models can be found in the documentation at https://docs.perplexity.ai/getting-started/models.",
              type: 'invalid_model',
              code: 400,
            },
          },
        },
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    type: 'ollama',
    model: 'llama3.2',
    path: '/chat/completions',
    content: DEFAULT_CONTENT,
    // Ollama asks for no key, so it has no bad-key answer.
    errors: [
      {
        name: 'a model that was never pulled',
        answer: openAiStyle(404, 'model "llama3.2" not found, try pulling it first', 'api_error'),
        code: 'NOT_FOUND',
      },
      {
        name: 'a busy server',
        answer: openAiStyle(
          503,
          'server busy, please try again.  maximum pending requests exceeded',
          'api_error',
        ),
        code: 'PROVIDER_UNAVAILABLE',
      },
      {
        name: 'a bad request',
        answer: openAiStyle(400, 'invalid message content type', 'invalid_request_error'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
];

describe.each(TEXT_PROVIDERS)('$type through the gateway', (provider) => {
  const providers = () =>
    ({
      [provider.type]: {
        baseURL: `${replay.url}/${provider.type}`,
        ...(provider.settings ?? { apiKey: KEY }),
      },
    }) as GatewayOptions['providers'];

  test('sends its own request and answers the success', async () => {
    if (provider.success !== undefined) replay.enqueue(provider.success);
    const answer = await readEnvelope(
      await post(gatewayWith(providers(), provider.env), '/v1/text', {
        model: `${provider.type}:${provider.model}`,
        input: 'Hi',
      }),
    );
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: provider.type,
      content: provider.content,
    });
    const [request] = replay.requests;
    const url = new URL(request?.path ?? '', replay.url);
    expect(url.pathname).toBe(`/${provider.type}${provider.path}`);
    for (const [name, value] of Object.entries(provider.query ?? {}))
      expect(url.searchParams.get(name)).toBe(value);
    if (provider.credential !== undefined)
      expect(request?.headers[provider.credential[0]]).toBe(provider.credential[1]);
    provider.credentialCheck?.(request?.headers ?? {});
    // The model goes in the body, or in the path (Bedrock, Vertex).
    expect(`${decodeURIComponent(url.pathname)} ${JSON.stringify(request?.body)}`).toContain(provider.model);
    expect(JSON.stringify(answer.envelope)).not.toContain(KEY);
  });

  test.each(provider.errors)('maps $name to $code', async ({ answer, code }) => {
    replay.enqueue(answer);
    const result = await readEnvelope(
      await post(gatewayWith(providers(), provider.env), '/v1/text', {
        model: `${provider.type}:${provider.model}`,
        input: 'Hi',
      }),
    );
    expect(result.envelope).toMatchObject({ success: false, provider: provider.type, error: { code } });
    expect(JSON.stringify(result.envelope)).not.toContain(KEY);
  });
});

interface AudioProviderCase {
  /** The provider type (and id). */
  type: string;
  /** The gateway route. */
  route: '/v1/speech' | '/v1/transcriptions';
  /** The gateway request body. */
  request: Record<string, unknown>;
  /** The request path the replay server must see, under `/<type>` (without the query). */
  path: string;
  /** How the key must arrive: header name and value. */
  credential: [string, string];
  /** The provider's success answer. */
  success: ReplayAnswer;
  /** Envelope parts the success must have. */
  expected: Record<string, unknown>;
  /** The provider's own error bodies. */
  errors: ErrorCase[];
}

/** The start of an MP3 file (an ID3 tag), as speech APIs send it. */
const MP3 = 'SUQzBAAAAAAAD//7kGQAAA==';

const elevenLabsErrors: ErrorCase[] = [
  {
    name: 'a bad key',
    answer: { status: 401, body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } },
    code: 'AUTHENTICATION_ERROR',
  },
  {
    name: 'a rate limit',
    answer: {
      status: 429,
      body: {
        detail: {
          status: 'too_many_concurrent_requests',
          message:
            'Too many concurrent requests. Your current subscription is associated with a maximum of 2 concurrent requests.',
        },
      },
    },
    code: 'RATE_LIMITED',
  },
  {
    name: 'a bad request',
    answer: {
      status: 422,
      body: { detail: [{ loc: ['body', 'model_id'], msg: 'field required', type: 'value_error.missing' }] },
    },
    code: 'VALIDATION_ERROR',
  },
];

const deepgramErrors: ErrorCase[] = [
  {
    name: 'a bad key',
    answer: {
      status: 401,
      body: {
        err_code: 'INVALID_AUTH',
        err_msg: 'Invalid credentials.',
        request_id: '0b5c6a1e-9d2f-4c3b-8a7e-1f0d2c3b4a59',
      },
    },
    code: 'AUTHENTICATION_ERROR',
  },
  {
    name: 'a rate limit',
    answer: {
      status: 429,
      body: {
        err_code: 'TOO_MANY_REQUESTS',
        err_msg: 'Too many requests. Please try again later',
        request_id: '7d6c5b4a-3e2f-4a1b-9c8d-0e1f2a3b4c5d',
      },
    },
    code: 'RATE_LIMITED',
  },
  {
    name: 'a bad request',
    answer: {
      status: 400,
      body: {
        err_code: 'Bad Request',
        err_msg: 'Bad Request: failed to process audio: corrupt or unsupported data',
        request_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5e',
      },
    },
    code: 'VALIDATION_ERROR',
  },
];

const AUDIO_PROVIDERS: AudioProviderCase[] = [
  {
    type: 'elevenlabs',
    route: '/v1/speech',
    request: { model: 'elevenlabs:eleven_multilingual_v2', input: 'Hello', voice: 'JBFqnCBsd6RMkjVDRZzb' },
    path: '/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb',
    credential: ['xi-api-key', KEY],
    success: { headers: { 'content-type': 'audio/mpeg' }, body_base64: MP3 },
    expected: { success: true, files: [{ media_type: 'audio/mpeg' }] },
    errors: elevenLabsErrors,
  },
  {
    type: 'elevenlabs',
    route: '/v1/transcriptions',
    request: { model: 'elevenlabs:scribe_v1', audio: MP3, media_type: 'audio/mpeg' },
    path: '/v1/speech-to-text',
    credential: ['xi-api-key', KEY],
    success: {
      body: {
        language_code: 'en',
        language_probability: 0.98,
        text: 'Hello from the recording.',
        words: [
          { text: 'Hello', type: 'word', start: 0, end: 0.42 },
          { text: ' ', type: 'spacing', start: 0.42, end: 0.45 },
          { text: 'from', type: 'word', start: 0.45, end: 0.7 },
        ],
      },
    },
    expected: { success: true, content: 'Hello from the recording.' },
    errors: elevenLabsErrors,
  },
  {
    type: 'deepgram',
    route: '/v1/transcriptions',
    request: { model: 'deepgram:nova-3', audio: MP3, media_type: 'audio/mpeg' },
    path: '/v1/listen',
    credential: ['authorization', `Token ${KEY}`],
    success: {
      body: {
        metadata: {
          request_id: '5f4e3d2c-1b0a-4987-a654-3210fedcba98',
          created: '2026-12-01T20:30:00.000Z',
          duration: 1.62,
          channels: 1,
          models: ['1abfe86b-e047-4eed-858a-35e5625b41ee'],
        },
        results: {
          channels: [
            {
              alternatives: [
                {
                  transcript: 'Hello from the recording.',
                  confidence: 0.99,
                  words: [{ word: 'hello', start: 0.08, end: 0.4, confidence: 0.99 }],
                },
              ],
            },
          ],
        },
      },
    },
    expected: { success: true, content: 'Hello from the recording.' },
    errors: deepgramErrors,
  },
  {
    type: 'deepgram',
    route: '/v1/speech',
    request: { model: 'deepgram:aura-2-thalia-en', input: 'Hello' },
    path: '/v1/speak',
    credential: ['authorization', `Token ${KEY}`],
    success: { headers: { 'content-type': 'audio/mpeg' }, body_base64: MP3 },
    expected: { success: true, files: [{ media_type: 'audio/mpeg' }] },
    errors: deepgramErrors,
  },
];

describe.each(AUDIO_PROVIDERS)('$type $route through the gateway', (provider) => {
  // These SDKs take no base URL: the gateway sends their requests to the configured one instead.
  const providers = () =>
    ({
      [provider.type]: { baseURL: `${replay.url}/${provider.type}`, apiKey: KEY },
    }) as GatewayOptions['providers'];

  test('sends its own request and answers the success', async () => {
    replay.enqueue(provider.success);
    const answer = await readEnvelope(await post(gatewayWith(providers()), provider.route, provider.request));
    expect(answer.envelope).toMatchObject({ provider: provider.type, ...provider.expected });
    const [request] = replay.requests;
    expect(new URL(request?.path ?? '', replay.url).pathname).toBe(`/${provider.type}${provider.path}`);
    expect(request?.headers[provider.credential[0]]).toBe(provider.credential[1]);
    expect(JSON.stringify(answer.envelope)).not.toContain(KEY);
  });

  test.each(provider.errors)('maps $name to $code', async ({ answer, code }) => {
    replay.enqueue(answer);
    const result = await readEnvelope(await post(gatewayWith(providers()), provider.route, provider.request));
    expect(result.envelope).toMatchObject({ success: false, provider: provider.type, error: { code } });
    expect(JSON.stringify(result.envelope)).not.toContain(KEY);
  });
});

/** A one-pixel PNG, as the providers' file servers send a generated image. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('fal images through the gateway', () => {
  const providers = () =>
    ({ fal: { baseURL: `${replay.url}/fal`, apiKey: KEY } }) as GatewayOptions['providers'];
  const request = { model: 'fal:fal-ai/flux/schnell', prompt: 'a lighthouse at dusk' };

  test('sends its own request to the configured base URL and downloads the image it names', async () => {
    replay.enqueue(
      {
        match: '/fal/',
        body: {
          images: [
            { url: `${replay.url}/files/fal-out.png`, width: 1024, height: 768, content_type: 'image/png' },
          ],
          timings: { inference: 0.41 },
          seed: 1234,
          has_nsfw_concepts: [false],
          prompt: 'a lighthouse at dusk',
        },
      },
      { match: '/files/', headers: { 'content-type': 'image/png' }, body_base64: PNG },
    );
    const answer = await readEnvelope(await post(gatewayWith(providers()), '/v1/images', request));
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'fal',
      images: [{ data: PNG, media_type: 'image/png' }],
    });
    const [call, download] = replay.requests;
    expect(call?.path).toBe('/fal/fal-ai/flux/schnell');
    expect(call?.headers.authorization).toBe(`Key ${KEY}`);
    expect(call?.body).toMatchObject({ prompt: 'a lighthouse at dusk' });
    expect(download?.path).toBe('/files/fal-out.png');
    expect(JSON.stringify(answer.envelope)).not.toContain(KEY);
  });

  test.each<ErrorCase>([
    {
      name: 'a bad key',
      answer: { status: 401, body: { detail: 'Invalid Key Authorization header format' } },
      code: 'AUTHENTICATION_ERROR',
    },
    {
      name: 'a rate limit',
      answer: { status: 429, body: { detail: 'Too many concurrent requests for this application.' } },
      code: 'RATE_LIMITED',
    },
    {
      name: 'a bad request',
      answer: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'num_images'],
              msg: 'ensure this value is less than or equal to 4',
              type: 'value_error',
            },
          ],
        },
      },
      code: 'VALIDATION_ERROR',
    },
  ])('maps $name to $code', async ({ answer, code }) => {
    replay.enqueue(answer);
    const result = await readEnvelope(await post(gatewayWith(providers()), '/v1/images', request));
    expect(result.envelope).toMatchObject({ success: false, provider: 'fal', error: { code } });
  });
});

describe('luma images through the gateway', () => {
  const providers = () =>
    ({ luma: { baseURL: `${replay.url}/luma`, apiKey: KEY } }) as GatewayOptions['providers'];
  const request = { model: 'luma:photon-1', prompt: 'a paper boat' };
  const generation = {
    id: '7e1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b',
    created_at: '2026-12-01T20:30:00Z',
    model: 'photon-1',
  };

  test('creates a generation, polls it until it completes and downloads its image', async () => {
    replay.enqueue(
      { match: '/generations/image', status: 201, body: { ...generation, state: 'queued', assets: null } },
      {
        match: `/generations/${generation.id}`,
        body: { ...generation, state: 'completed', assets: { image: `${replay.url}/files/luma-out.png` } },
      },
      { match: '/files/', headers: { 'content-type': 'image/png' }, body_base64: PNG },
    );
    const answer = await readEnvelope(await post(gatewayWith(providers()), '/v1/images', request));
    expect(answer.envelope).toMatchObject({ success: true, provider: 'luma', images: [{ data: PNG }] });
    expect(replay.requests.map((item) => `${item.method} ${item.path}`)).toEqual([
      'POST /luma/dream-machine/v1/generations/image',
      `GET /luma/dream-machine/v1/generations/${generation.id}`,
      'GET /files/luma-out.png',
    ]);
    expect(replay.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(replay.requests[0]?.body).toMatchObject({ prompt: 'a paper boat', model: 'photon-1' });
  });

  test.each<ErrorCase>([
    {
      name: 'a bad key',
      answer: { status: 401, body: { detail: 'Invalid API key' } },
      code: 'AUTHENTICATION_ERROR',
    },
    {
      name: 'a rate limit',
      answer: { status: 429, body: { detail: 'Too many requests, please slow down' } },
      code: 'RATE_LIMITED',
    },
    {
      name: 'a bad request',
      answer: {
        status: 400,
        body: {
          detail: [
            {
              type: 'enum',
              loc: ['body', 'aspect_ratio'],
              msg: "Input should be '1:1', '16:9' or '9:16'",
              input: '2:7',
            },
          ],
        },
      },
      code: 'VALIDATION_ERROR',
    },
  ])('maps $name to $code', async ({ answer, code }) => {
    replay.enqueue(answer);
    const result = await readEnvelope(await post(gatewayWith(providers()), '/v1/images', request));
    expect(result.envelope).toMatchObject({ success: false, provider: 'luma', error: { code } });
  });
});

describe('zero configuration with the packaged types', () => {
  test('a provider per set key variable, with the variable names each SDK documents', () => {
    expect(
      providersFromEnv({
        MISTRAL_API_KEY: 'm',
        GROQ_API_KEY: 'g',
        XAI_API_KEY: 'x',
        DEEPSEEK_API_KEY: 'd',
        COHERE_API_KEY: 'c',
        TOGETHER_API_KEY: 't',
        FIREWORKS_API_KEY: 'f',
        CEREBRAS_API_KEY: 'ce',
        PERPLEXITY_API_KEY: 'p',
        ELEVENLABS_API_KEY: 'e',
        DEEPGRAM_API_KEY: 'dg',
        FAL_API_KEY: 'fa',
        LUMA_API_KEY: 'l',
        COHERE_BASE_URL: 'http://127.0.0.1:9/cohere',
      }),
    ).toEqual({
      mistral: {},
      groq: {},
      xai: {},
      deepseek: {},
      cohere: { baseURL: 'http://127.0.0.1:9/cohere' },
      togetherai: {},
      fireworks: {},
      cerebras: {},
      perplexity: {},
      elevenlabs: {},
      deepgram: {},
      fal: {},
      luma: {},
    });
  });

  test('the cloud providers need their whole credentials; Ollama needs only its base URL', () => {
    // An access key id without its secret, a Vertex project without credentials, an Azure key without a resource.
    expect(
      providersFromEnv({ AWS_ACCESS_KEY_ID: 'AKID', GOOGLE_VERTEX_PROJECT: 'p', AZURE_API_KEY: 'k' }),
    ).toEqual({});
    expect(
      Object.keys(
        providersFromEnv({
          AWS_ACCESS_KEY_ID: 'AKID',
          AWS_SECRET_ACCESS_KEY: 's',
          GOOGLE_VERTEX_API_KEY: 'v',
          AZURE_API_KEY: 'k',
          AZURE_RESOURCE_NAME: 'my-resource',
          OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
        }),
      ).sort(),
    ).toEqual(['amazon-bedrock', 'azure', 'google-vertex', 'ollama']);
    expect(providersFromEnv({ AWS_BEARER_TOKEN_BEDROCK: 'b' })).toEqual({ 'amazon-bedrock': {} });
    expect(providersFromEnv({})).toEqual({});
  });

  test('GET /v1/models lists each type with its modalities', async () => {
    const gateway = createGateway({
      env: { MISTRAL_API_KEY: 'm', DEEPGRAM_API_KEY: 'd', OLLAMA_BASE_URL: replay.url },
    });
    const answer = await readEnvelope(await gateway.request('/v1/models'));
    expect(answer.envelope.metadata.providers).toEqual([
      { id: 'mistral', type: 'mistral', modalities: ['text', 'embeddings'] },
      { id: 'ollama', type: 'ollama', modalities: ['text'] },
      { id: 'deepgram', type: 'deepgram', modalities: ['transcriptions', 'speech'] },
    ]);
  });

  test('Ollama defaults to 127.0.0.1:11434 and sends no key', async () => {
    expect(createProviderModels('ollama', {}, {}).baseURL).toBe('http://127.0.0.1:11434/v1');
    expect(createProviderModels('ollama', {}, { OLLAMA_BASE_URL: 'http://10.0.0.7:11434/v1' }).baseURL).toBe(
      'http://10.0.0.7:11434/v1',
    );
    const gateway = createGateway({ providers: { ollama: { baseURL: `${replay.url}/ollama` } }, retries: 0 });
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'ollama:llama3.2', input: 'Hi' }),
    );
    expect(answer.envelope).toMatchObject({ success: true, provider: 'ollama' });
    expect(replay.requests[0]?.headers.authorization).toBeUndefined();
  });

  test('a configuration may name every packaged type; `api` applies to azure too', () => {
    const check = checkGatewayConfig({
      providers: {
        'my-bedrock': { type: 'amazon-bedrock' },
        'eu-mistral': { type: 'mistral', baseURL: 'https://api.mistral.ai/v1' },
        azure: { api: 'responses', baseURL: 'https://my-resource.openai.azure.com/openai' },
      },
    });
    expect(check).toMatchObject({ ok: true });
    expect(checkGatewayConfig({ providers: { x: { type: 'cohere', api: 'responses' } } })).toMatchObject({
      ok: false,
      problems: [{ path: '/providers/x/api' }],
    });
  });
});

describe('docs/gateway.md, "Provider types"', () => {
  const doc = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
  const rows = new Map(
    [...doc.matchAll(/^\| `([a-z-]+)` \| `@ai-sdk\/[a-z-]+`[^|]*\| ([^|]+) \| ([^|]+) \| ([^|]+) \|/gm)].map(
      ([, type, modalities, key, base]) => [type, { modalities: modalities ?? '', key, base }],
    ),
  );

  test.each(PACKAGED_TYPE_NAMES)('%s has a row with its modalities and variables', (type) => {
    const row = rows.get(type);
    expect(row, type).toBeDefined();
    const spec = PACKAGED_TYPES[type];
    expect(row?.modalities.split(',').map((item) => item.replace(/\(.*\)/, '').trim())).toEqual([
      ...MODALITIES_OF[type],
    ]);
    expect(row?.key).toContain(`\`${spec.keyEnv}\``);
    expect(row?.base).toContain(`\`${spec.baseEnv}\``);
  });
});

describe('more modalities of the packaged types', () => {
  const providers = () =>
    ({
      azure: { baseURL: `${replay.url}/azure`, apiKey: KEY },
      groq: { baseURL: `${replay.url}/groq`, apiKey: KEY },
      togetherai: { baseURL: `${replay.url}/togetherai`, apiKey: KEY },
      xai: { baseURL: `${replay.url}/xai`, apiKey: KEY },
    }) as GatewayOptions['providers'];

  test.each([
    [
      '/v1/images',
      { model: 'azure:my-image-deployment', prompt: 'a cat' },
      '/azure/images/generations',
      'images',
    ],
    [
      '/v1/speech',
      { model: 'azure:my-tts-deployment', input: 'Hello', voice: 'alloy' },
      '/azure/audio/speech',
      'files',
    ],
    [
      '/v1/transcriptions',
      { model: 'azure:my-whisper-deployment', audio: MP3, media_type: 'audio/mpeg' },
      '/azure/audio/transcriptions',
      'content',
    ],
    [
      '/v1/transcriptions',
      { model: 'groq:whisper-large-v3-turbo', audio: MP3, media_type: 'audio/mpeg' },
      '/groq/audio/transcriptions',
      'content',
    ],
    [
      '/v1/images',
      { model: 'togetherai:black-forest-labs/FLUX.1-schnell', prompt: 'a cat' },
      '/togetherai/images/generations',
      'images',
    ],
    ['/v1/images', { model: 'xai:grok-2-image', prompt: 'a cat' }, '/xai/images/generations', 'images'],
  ] as const)('%s with %j reaches %s', async (route, body, path, part) => {
    // Groq's transcriptions answer carries its own request id in `x_groq`.
    if (path.startsWith('/groq/'))
      replay.enqueue({
        body: {
          task: 'transcribe',
          language: 'English',
          duration: 1.62,
          text: 'Hello from the recording.',
          x_groq: { id: 'req_01kdq4s2v0f9c8b7a6e5d4c3b2' },
        },
      });
    const answer = await readEnvelope(await post(gatewayWith(providers()), route, body));
    expect(answer.envelope.success, JSON.stringify(answer.envelope)).toBe(true);
    if (part === 'content') expect(answer.envelope).toMatchObject({ content: 'Hello from the recording.' });
    else expect((answer.envelope as unknown as Record<string, unknown[]>)[part]?.length).toBe(1);
    expect(replay.requests.map((request) => new URL(request.path, replay.url).pathname)).toEqual([path]);
    expect(answer.envelope.provider).toBe(body.model.split(':')[0]);
  });
});

describe('createPackagedModels', () => {
  test('a model asked for before its package loaded is deferred: it waits for the package and answers the same', async () => {
    const base = `${replay.url}/cerebras`;
    const models = createPackagedModels('cerebras', {
      id: 'cerebras',
      key: KEY,
      baseURL: base,
      settings: {},
      common: { baseURL: base },
      env: {},
    });
    const early = models.text?.('llama-3.3-70b');
    expect(early).toMatchObject({
      specificationVersion: 'v3',
      provider: 'cerebras',
      modelId: 'llama-3.3-70b',
    });
    if (early === undefined) throw new Error('cerebras offers text');
    const result = await generateText({ model: early, prompt: 'Hi' });
    expect(result.text).toBe(DEFAULT_CONTENT);
    expect(replay.requests.map((request) => request.path)).toEqual(['/cerebras/chat/completions']);
    // Once loaded, the provider hands out the SDK's own model.
    expect(models.text?.('llama-3.3-70b')).toMatchObject({ provider: 'cerebras.chat' });
    expect(models.images).toBeUndefined();
  });
});

describe('azure with api: "responses"', () => {
  test('calls the Responses API of the deployment', async () => {
    const gateway = gatewayWith({
      azure: { baseURL: `${replay.url}/azure`, apiKey: KEY, api: 'responses' },
    } as GatewayOptions['providers']);
    const answer = await readEnvelope(
      await post(gateway, '/v1/text', { model: 'azure:my-gpt-5-deployment', input: 'Hi' }),
    );
    expect(answer.envelope).toMatchObject({ success: true, provider: 'azure' });
    expect(replay.requests.map((request) => new URL(request.path, replay.url).pathname)).toEqual([
      '/azure/responses',
    ]);
    expect(replay.requests[0]?.headers['api-key']).toBe(KEY);
    expect(replay.requests[0]?.body).toMatchObject({ model: 'my-gpt-5-deployment' });
  });
});
