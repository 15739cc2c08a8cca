import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import type { ReplayAnswer, ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

/**
 * Embeddings of the packaged types that other tests do not reach (docs/gateway.md, "Use it from your existing
 * client"): Cohere (Embed v2), Mistral and Amazon Bedrock (Titan v2 and Cohere on Bedrock), each through its own
 * `@ai-sdk/*` package against the replay server, with answers in the shapes their API references document. Each
 * case asserts what the provider received, the OpenAI list the client gets, that the same request is then a
 * cache hit with no second provider call, and one of the provider's own error bodies.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'replay-key-secret-0037';
const AWS_SECRET = 'replay-aws-secret-0037';

function gateway() {
  return createGateway({
    providers: {
      cohere: { baseURL: `${replay.url}/cohere`, apiKey: KEY },
      mistral: { baseURL: `${replay.url}/mistral`, apiKey: KEY },
      'amazon-bedrock': { baseURL: `${replay.url}/amazon-bedrock` },
    } as GatewayOptions['providers'],
    // Bedrock signs with SigV4 from the standard AWS variables.
    env: {
      AWS_ACCESS_KEY_ID: 'AKIDREPLAYEXAMPLE',
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_REGION: 'eu-west-1',
    },
    retries: 0,
    cache: { ttl_s: 60 },
  });
}

type Gateway = ReturnType<typeof gateway>;

function embed(app: Gateway, body: unknown) {
  return app.request('/openai/v1/embeddings', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

interface OpenAiList {
  object: string;
  data: { object: string; index: number; embedding: number[] }[];
  usage: { prompt_tokens: number; total_tokens: number };
}

const bearer = (headers: Record<string, string>) => expect(headers.authorization).toBe(`Bearer ${KEY}`);
const sigV4 = (headers: Record<string, string>) =>
  expect(headers.authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDREPLAYEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /,
  );

interface EmbeddingsCase {
  /** What the case shows. */
  name: string;
  /** The gateway request. */
  request: { model: string; input: string | string[]; dimensions?: number };
  /** The provider's answers, in order. */
  answers: ReplayAnswer[];
  /** The requests the replay server must see, `METHOD path`. */
  lines: string[];
  /** The part each provider request's body must hold, in order of `lines` (any order when `unordered`). */
  bodies: Record<string, unknown>[];
  /** Whether the provider calls run in parallel (one per text), so they may arrive in any order. */
  unordered?: boolean;
  /** Checks the credentials the provider received. */
  credentials: (headers: Record<string, string>) => void;
  /** The vectors answered, in the order of the inputs (as a set when `unordered`). */
  vectors: number[][];
  /** The tokens the answer reports. */
  tokens: number;
  /** One error answer of the provider, and the code the client then reads in `verdict_code`. */
  failure: { answer: ReplayAnswer; code: string };
}

const COHERE_VECTORS = [
  [0.0123, -0.0456, 0.0789, 0.0012],
  [-0.0321, 0.0654, -0.0987, 0.021],
];

const CASES: EmbeddingsCase[] = [
  {
    name: 'cohere (Embed v2), with fewer dimensions asked',
    request: { model: 'cohere:embed-v4.0', input: ['first text', 'second text'], dimensions: 256 },
    answers: [
      {
        body: {
          id: 'da6e531f-54c6-4a73-bf92-f60566d8d753',
          embeddings: { float: COHERE_VECTORS },
          texts: ['first text', 'second text'],
          meta: { api_version: { version: '2' }, billed_units: { input_tokens: 6 } },
          response_type: 'embeddings_by_type',
        },
      },
    ],
    lines: ['POST /cohere/embed'],
    bodies: [
      {
        model: 'embed-v4.0',
        texts: ['first text', 'second text'],
        input_type: 'search_query',
        embedding_types: ['float'],
        output_dimension: 256,
      },
    ],
    credentials: bearer,
    vectors: COHERE_VECTORS,
    tokens: 6,
    failure: {
      answer: { status: 401, body: { id: 'c2b1e8a0-0001', message: 'invalid api token' } },
      code: 'AUTHENTICATION_ERROR',
    },
  },
  {
    name: 'mistral (mistral-embed)',
    request: { model: 'mistral:mistral-embed', input: 'one text' },
    answers: [
      {
        body: {
          id: 'embd-aad6fc62b17349b192ef09225058bc45',
          object: 'list',
          data: [{ object: 'embedding', embedding: [-0.0165, 0.0708, 0.0317], index: 0 }],
          model: 'mistral-embed',
          usage: { prompt_tokens: 3, total_tokens: 3, completion_tokens: 0 },
        },
      },
    ],
    lines: ['POST /mistral/embeddings'],
    bodies: [{ model: 'mistral-embed', input: ['one text'], encoding_format: 'float' }],
    credentials: bearer,
    vectors: [[-0.0165, 0.0708, 0.0317]],
    tokens: 3,
    failure: {
      answer: {
        status: 429,
        body: {
          object: 'error',
          message: 'Requests rate limit exceeded',
          type: 'rate_limited',
          param: null,
          code: '1300',
        },
      },
      code: 'RATE_LIMITED',
    },
  },
  {
    name: 'amazon-bedrock Titan Text Embeddings v2 (InvokeModel, one call per text), with fewer dimensions asked',
    request: {
      model: 'amazon-bedrock:amazon.titan-embed-text-v2:0',
      input: ['north', 'south'],
      dimensions: 256,
    },
    answers: [
      {
        body: { embedding: [0.25, 0.5], inputTextTokenCount: 2, embeddingsByType: { float: [0.25, 0.5] } },
      },
      {
        body: { embedding: [-0.5, 0.75], inputTextTokenCount: 3, embeddingsByType: { float: [-0.5, 0.75] } },
      },
    ],
    lines: [
      'POST /amazon-bedrock/model/amazon.titan-embed-text-v2%3A0/invoke',
      'POST /amazon-bedrock/model/amazon.titan-embed-text-v2%3A0/invoke',
    ],
    bodies: [
      { inputText: 'north', dimensions: 256 },
      { inputText: 'south', dimensions: 256 },
    ],
    unordered: true,
    credentials: sigV4,
    vectors: [
      [0.25, 0.5],
      [-0.5, 0.75],
    ],
    tokens: 5,
    failure: {
      answer: {
        status: 400,
        headers: {
          'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        },
        body: {
          message:
            'Malformed input request: expected maxLength: 50000, actual: 50001, please reformat your input and try again.',
        },
      },
      code: 'VALIDATION_ERROR',
    },
  },
  {
    name: 'amazon-bedrock Cohere Embed on Bedrock (one call for the list, tokens in a header)',
    request: { model: 'amazon-bedrock:cohere.embed-english-v3', input: ['first text', 'second text'] },
    answers: [
      {
        headers: { 'x-amzn-bedrock-input-token-count': '7' },
        body: {
          embeddings: COHERE_VECTORS,
          id: '7f3d2a9c-2b1e-4c5d-9e8f-0a1b2c3d4e5f',
          response_type: 'embeddings_floats',
          texts: ['first text', 'second text'],
        },
      },
    ],
    lines: ['POST /amazon-bedrock/model/cohere.embed-english-v3/invoke'],
    bodies: [{ texts: ['first text', 'second text'], input_type: 'search_query' }],
    credentials: sigV4,
    vectors: COHERE_VECTORS,
    tokens: 7,
    failure: {
      answer: {
        status: 429,
        headers: {
          'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        },
        body: { message: 'Too many requests, please wait before trying again.' },
      },
      code: 'RATE_LIMITED',
    },
  },
];

describe.each(CASES)('POST /openai/v1/embeddings: $name', (each) => {
  test('the provider gets its own request; the client gets an OpenAI list; the same request then hits', async () => {
    for (const answer of each.answers) replay.enqueue(answer);
    const app = gateway();
    const request = { ...each.request, encoding_format: 'float' };
    const response = await embed(app, request);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-verdict-cache')).toBe('miss');
    const list = (await response.json()) as OpenAiList;
    expect(list.object).toBe('list');
    expect(list.data.map((item) => item.index)).toEqual(each.vectors.map((_, index) => index));
    const vectors = list.data.map((item) => item.embedding);
    if (each.unordered) expect([...vectors].sort()).toEqual([...each.vectors].sort());
    else expect(vectors).toEqual(each.vectors);
    expect(list.usage).toEqual({ prompt_tokens: each.tokens, total_tokens: each.tokens });

    expect(replay.requests.map((sent) => `${sent.method} ${sent.path}`)).toEqual(each.lines);
    for (const sent of replay.requests) each.credentials(sent.headers);
    const bodies = replay.requests.map((sent) => sent.body);
    if (each.unordered) {
      for (const expected of each.bodies) expect(bodies).toContainEqual(expect.objectContaining(expected));
    } else {
      each.bodies.forEach((expected, index) => {
        expect(bodies[index]).toMatchObject(expected);
      });
    }
    // No secret travels further than the provider it belongs to.
    expect(JSON.stringify(replay.requests)).not.toContain(AWS_SECRET);

    const again = await embed(app, request);
    expect(again.headers.get('x-verdict-cache')).toBe('hit');
    expect(((await again.json()) as OpenAiList).data.map((item) => item.embedding)).toEqual(vectors);
    expect(replay.requests).toHaveLength(each.lines.length);
  });

  test("the provider's error is an OpenAI error naming verdict's code, and is not kept", async () => {
    const app = gateway();
    // One failure for each call: the calls of one request may run in parallel.
    for (const _ of each.lines) replay.enqueue(each.failure.answer);
    const failed = await embed(app, each.request);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.headers.get('x-verdict-cache')).toBe('miss');
    const body = (await failed.json()) as { error: { verdict_code: string; message: string } };
    expect(body.error.verdict_code).toBe(each.failure.code);
    expect(body.error.message).not.toContain(KEY);
    // A parallel call may still be on its way once the first failure answered: the next round starts after it.
    for (let turn = 0; turn < 100_000 && replay.requests.length < each.lines.length; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(replay.requests).toHaveLength(each.lines.length);
    for (const answer of each.answers) replay.enqueue(answer);
    const retried = await embed(app, each.request);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('x-verdict-cache')).toBe('miss');
  });
});

describe('POST /openai/v1/embeddings: dimensions a packaged type cannot take', () => {
  test('mistral has no way to ask for fewer dimensions: a 400 naming it, and no provider call', async () => {
    const response = await embed(gateway(), { model: 'mistral:mistral-embed', input: 'x', dimensions: 256 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; param?: unknown } };
    expect(body.error.message).toContain('dimensions');
    expect(replay.requests).toHaveLength(0);
  });

  test('a size Titan does not make is refused before the call', async () => {
    const response = await embed(gateway(), {
      model: 'amazon-bedrock:amazon.titan-embed-text-v2:0',
      input: 'x',
      dimensions: 300,
    });
    expect(response.status).toBe(400);
    expect(replay.requests).toHaveLength(0);
  });
});
