import { beforeEach, describe, expect, test } from 'vitest';
import { openStreamTaps } from '../../src/gateway/ai-sdk/guarded-fetch.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import {
  codeForProviderStatus,
  normalizeResponse,
  normalizeStream,
  UNIFIED_FORMATS,
  type UnifiedFormat,
  type UnifiedOutput,
} from '../../src/unified/index.js';
import { fixture, type ReplayAnswer, type ReplayProviders } from '../helpers/replay-providers.js';
import { loadFixtures, normalizeFixture, type ProviderFixture } from '../unified/fixture-corpus.js';
import { FORMAT_SAMPLES } from '../unified/format-samples.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The cross-path test: the same provider failure means the same thing wherever verdict reads it. Every failure
 * fixture of the corpus (test/fixtures/unified) and every failure of the shared normalizer case table
 * (format-samples.ts) is served by the replay server to the real `@ai-sdk/*` client through `createGateway`, and
 * the gateway's `error.code` must equal the one `verdict normalize` gives for the same bytes. A fixture the
 * gateway cannot be asked for says why below; nothing is skipped silently.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

/** How the gateway is asked for one format: the request, and answers the format needs before the fixture. */
interface Serving {
  /** The gateway request that reaches this format's endpoint. */
  request(stream: boolean): { path: string; body: Record<string, unknown> };
  /** True when the gateway route streams (`"stream": true`), so stream fixtures can be served. */
  streams: boolean;
  /** Answers queued before the fixture (a video job's creation), and the path the fixture answers. */
  before?: ReplayAnswer[];
  /** Only the request whose path contains this gets the fixture. */
  match?: string;
  /** Provider settings besides the replay defaults. */
  providers?: (replay: ReplayProviders) => GatewayOptions['providers'];
}

const text = (model: string) => (stream: boolean) => ({
  path: '/v1/text',
  body: { model, input: 'Say hi', ...(stream ? { stream: true } : {}) },
});

/** Each format: how the gateway reaches it, or why it cannot. */
const SERVING: Record<UnifiedFormat, Serving | string> = {
  'openai.chat': { request: text('openai:gpt-4o-mini'), streams: true },
  'openai.responses': {
    request: text('openai:gpt-5'),
    streams: true,
    providers: (replay) => ({
      ...(replay.providers() as GatewayOptions['providers']),
      openai: { baseURL: replay.baseURL.openai, apiKey: 'sk-replay-openai-secret', api: 'responses' },
    }),
  },
  'openai.images': {
    request: () => ({ path: '/v1/images', body: { model: 'openai:gpt-image-1', prompt: 'a fox' } }),
    streams: false,
  },
  'openai.speech': {
    request: () => ({ path: '/v1/speech', body: { model: 'openai:tts-1', input: 'Hello' } }),
    streams: false,
  },
  'openai.transcription': {
    request: () => ({
      path: '/v1/transcriptions',
      body: { model: 'openai:whisper-1', audio: 'SUQzBAAAAAAAD//7kGQAAA==', media_type: 'audio/mpeg' },
    }),
    streams: false,
  },
  'openai.videos': 'the gateway offers no OpenAI video models (docs/gateway.md, "Providers")',
  'anthropic.messages': { request: text('anthropic:claude-sonnet-4-5'), streams: true },
  'google.generate-content': { request: text('google:gemini-2.5-flash'), streams: true },
  'google.imagen':
    'the gateway serves Google images through Gemini models only, which answer in the generate-content format',
  'google.veo': {
    request: () => ({
      path: '/v1/videos',
      body: { model: 'google:veo-3.0-generate-001', prompt: 'a horse' },
    }),
    streams: false,
    before: [{ ...fixture('google.veo/success/created-pending.json'), match: ':predictLongRunning' }],
    match: '/operations/',
  },
  'replicate.prediction': {
    request: () => ({ path: '/v1/images', body: { model: 'replicate:owner/model', prompt: 'a fox' } }),
    streams: false,
  },
  'openrouter.chat': { request: text('openrouter:meta/llama'), streams: true },
  'openai-compatible.chat': { request: text('openrouter:meta/llama'), streams: true },
  'bedrock.converse': 'the gateway has no Amazon Bedrock provider type',
  'bedrock.invoke': "the gateway's amazon-bedrock type calls Converse, never InvokeModel",
  'cohere.chat': {
    request: text('cohere:command-a-03-2025'),
    streams: true,
    providers: (replay) => ({
      ...(replay.providers() as GatewayOptions['providers']),
      cohere: { type: 'cohere', baseURL: `${replay.url}/cohere`, apiKey: 'replay-cohere-secret-0000' },
    }),
  },
  'ollama.chat':
    "the gateway reaches Ollama through its OpenAI-compatible endpoint, which answers in openai-compatible.chat's format",
  'ollama.generate':
    "the gateway reaches Ollama through its OpenAI-compatible endpoint, which answers in openai-compatible.chat's format",
  'openai.completions': 'the gateway calls chat models only: the legacy completions API has no route',
};

const COHERE_STREAM_ERROR =
  '@ai-sdk/cohere fails its own type validation on this error event (a message-end without usage), so the event never reaches the gateway as an error';
const READ_AS_SUCCESS = 'the AI SDK reads this 2xx body as a success and keeps nothing that shows';

/**
 * Failure fixtures whose 2xx body or stream reaches the gateway only through the AI SDK's own parsing, with the
 * reason the gateway cannot give the normalizer's code: they are served and checked to be valid envelopes, and
 * their codes are not compared.
 */
const NOT_COMPARABLE: Record<string, string> = {
  'anthropic.messages/INVALID_PROVIDER_RESPONSE/no-stop-reason.json': `${READ_AS_SUCCESS} the missing stop_reason`,
  'google.generate-content/INVALID_PROVIDER_RESPONSE/no-candidates.json': `${READ_AS_SUCCESS} the missing candidates`,
  'google.generate-content/PROVIDER_ERROR/finish-other-without-output.json': `${READ_AS_SUCCESS} an empty turn from a failed one`,
  'google.generate-content/PROVIDER_ERROR/stream-finish-other-without-output.json': `${READ_AS_SUCCESS} an empty turn from a failed one`,
  'google.veo/CONTENT_FILTERED/rai-media-filtered.json':
    '@ai-sdk/google throws a plain Error ("No videos in response") for a job whose videos its filter removed, naming no cause',
  'google.veo/VALIDATION_ERROR/operation-error-invalid-argument.json':
    "@ai-sdk/google reports a failed job's error as text only: its google.rpc code never reaches the gateway",
  'openai.speech/INVALID_PROVIDER_RESPONSE/json-instead-of-audio.json':
    '@ai-sdk/openai takes any 2xx speech body as audio, whatever its content type',
  'cohere.chat/PROVIDER_ERROR/stream-message-end-error.json': COHERE_STREAM_ERROR,
};

/** Formats whose mid-stream error event of the case table the AI SDK cannot pass on, with the reason. */
const STREAM_ERROR_NOT_COMPARABLE: Partial<Record<UnifiedFormat, string>> = {
  'cohere.chat':
    '@ai-sdk/cohere throws a plain Error ("text part 0 not found") on an error event inside an open text part',
};

/** The answer a fixture makes of the replay server. */
function answerOf(item: ProviderFixture, match: string | undefined): ReplayAnswer {
  const answer: ReplayAnswer = { ...fixture(item.name) };
  if (match !== undefined) answer.match = match;
  return answer;
}

async function throughGateway(
  serving: Serving,
  answer: ReplayAnswer,
  stream: boolean,
): Promise<UnifiedOutput> {
  if (serving.before !== undefined) replay.enqueue(...serving.before);
  replay.enqueue(answer);
  const gateway = createGateway({
    providers: serving.providers?.(replay) ?? (replay.providers() as GatewayOptions['providers']),
    retries: 0,
    videoPollMs: 1,
  });
  const { path, body } = serving.request(stream);
  const response = await gateway.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return readStreamEnvelope(await response.text()).envelope;
  }
  return (await readEnvelope(response)).envelope;
}

function codeOf(output: UnifiedOutput): string {
  return output.success ? 'success' : output.error.code;
}

const failures = loadFixtures().filter((item) => item.expectation !== 'success');

describe('every failure fixture means the same through the gateway as through normalize', () => {
  for (const item of failures) {
    const serving = SERVING[item.format as UnifiedFormat];
    const reason =
      typeof serving === 'string'
        ? serving
        : item.stream === true && !serving.streams
          ? 'the gateway route of this format does not stream'
          : undefined;
    if (reason !== undefined || typeof serving === 'string') {
      test.skip(`${item.name} (not served: ${reason})`, () => {});
      continue;
    }
    const differs = NOT_COMPARABLE[item.name];
    if (differs !== undefined) {
      test(`${item.name} is served as a valid envelope (codes not compared: ${differs})`, async () => {
        await throughGateway(serving, answerOf(item, serving.match), item.stream === true);
      });
      continue;
    }
    test(item.name, async () => {
      const expected = normalizeFixture(item);
      const served = await throughGateway(serving, answerOf(item, serving.match), item.stream === true);
      expect(codeOf(served), JSON.stringify(served)).toBe(codeOf(expected));
      expect(served.provider).toBe(
        expected.provider === 'openai-compatible' ? 'openrouter' : expected.provider,
      );
    });
  }
});

const ERROR_STATUSES = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529] as const;

describe('every failure of the shared case table means the same through the gateway', () => {
  for (const format of UNIFIED_FORMATS) {
    const serving = SERVING[format];
    if (typeof serving === 'string') {
      test.skip(`${format} (not served: ${serving})`, () => {});
      continue;
    }
    const sample = FORMAT_SAMPLES[format];
    test(`${format}: every HTTP error status with its error body`, async () => {
      for (const status of ERROR_STATUSES) {
        const body = sample.errorBody('Something went wrong upstream.');
        const expected = normalizeResponse({ format, status, body: JSON.stringify(body) });
        const answer: ReplayAnswer = { status, body };
        if (serving.match !== undefined) answer.match = serving.match;
        const served = await throughGateway(serving, answer, false);
        expect(codeOf(served), `HTTP ${status}`).toBe(codeOf(expected));
        expect(codeOf(served), `HTTP ${status}`).toBe(codeForProviderStatus(status));
      }
    });
    const stream = sample.stream;
    if (stream === undefined || !serving.streams) continue;
    const differs = STREAM_ERROR_NOT_COMPARABLE[format];
    if (differs !== undefined) {
      test(`${format}: an error event in the middle of a stream is served as a valid envelope (codes not compared: ${differs})`, async () => {
        await throughGateway(serving, { events: stream.withError }, true);
      });
      continue;
    }
    test(`${format}: an error event in the middle of a stream`, async () => {
      const expected = normalizeStream({ format, events: stream.withError });
      const served = await throughGateway(serving, { events: stream.withError }, true);
      expect(codeOf(served), JSON.stringify(served)).toBe(codeOf(expected));
    });
  }

  test('no stream tap outlives the start of its call, whether the stream succeeds or fails where it can', async () => {
    const serving = SERVING['openai.chat'] as Serving;
    const sample = FORMAT_SAMPLES['openai.chat'];
    const stream = sample.stream;
    if (stream === undefined) throw new Error('openai.chat has a stream sample');
    const answers: ReplayAnswer[] = [
      { events: stream.withError },
      { status: 500, body: sample.errorBody('Something went wrong upstream.') },
      { status: 200, body: { not: 'a stream' } },
      ...failures
        .filter((item) => item.stream === true && item.format === 'openai.chat')
        .map((item) => answerOf(item, undefined)),
    ];
    const served = [];
    for (const answer of answers) served.push(await throughGateway(serving, answer, true));
    expect(served.slice(0, 3).map(codeOf)).toEqual([
      codeOf(normalizeStream({ format: 'openai.chat', events: stream.withError })),
      'PROVIDER_ERROR',
      'INVALID_PROVIDER_RESPONSE',
    ]);
    expect(answers.length).toBeGreaterThan(3);
    expect(openStreamTaps()).toBe(0);
  });

  test('every entry of the exceptions names a failure fixture of the corpus', () => {
    const names = failures.map((item) => item.name);
    for (const name of Object.keys(NOT_COMPARABLE)) expect(names).toContain(name);
  });

  test('every format of the registry is served or says why', () => {
    for (const format of UNIFIED_FORMATS) {
      const serving = SERVING[format];
      if (typeof serving === 'string') expect(serving.length, format).toBeGreaterThan(20);
    }
  });
});

describe('the fallback that follows from the right code', () => {
  const CREDIT_EVENTS = [
    {
      type: 'message_start',
      message: {
        id: 'msg_credit',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 9, output_tokens: 1 },
      },
    },
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Your credit balance is too low to access the Anthropic API.',
      },
    },
  ];

  function aliasGateway() {
    return createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      retries: 0,
      aliases: { smart: ['anthropic:claude-x', 'openai:gpt-4o-mini'] },
    });
  }

  test('an Anthropic credit error event is INSUFFICIENT_CREDITS and the alias tries its next target', async () => {
    expect(codeOf(normalizeStream({ format: 'anthropic.messages', events: CREDIT_EVENTS }))).toBe(
      'INSUFFICIENT_CREDITS',
    );
    replay.enqueue({ events: CREDIT_EVENTS });
    const response = await aliasGateway().request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({ model: 'smart', input: 'Hi', stream: true }),
      headers: { 'content-type': 'application/json' },
    });
    const { envelope } = readStreamEnvelope(await response.text());
    expect(envelope).toMatchObject({
      success: true,
      provider: 'openai',
      metadata: {
        target: 'openai:gpt-4o-mini',
        fallback_from: [{ target: 'anthropic:claude-x', code: 'INSUFFICIENT_CREDITS' }],
      },
    });
  });

  test('a Google billing-disabled 403 is INSUFFICIENT_CREDITS and the alias tries its next target', async () => {
    replay.enqueue(fixture('google.generate-content/INSUFFICIENT_CREDITS/billing-disabled-403.json'));
    const gateway = createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      retries: 0,
      aliases: { smart: ['google:gemini-2.5-flash', 'openai:gpt-4o-mini'] },
    });
    const { envelope } = await readEnvelope(
      await gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'smart', input: 'Hi' }),
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(envelope).toMatchObject({
      success: true,
      metadata: { fallback_from: [{ target: 'google:gemini-2.5-flash', code: 'INSUFFICIENT_CREDITS' }] },
    });
  });
});

describe('what the normalizers keep, the live path keeps', () => {
  test("OpenAI's revised_prompt and size reach each image, as normalize gives them", async () => {
    const body = {
      created: 1,
      size: '1024x1536',
      output_format: 'png',
      data: [
        { b64_json: 'iVBORw0KGgo=', revised_prompt: 'A watercolor fox in the snow, at dusk' },
        { b64_json: 'iVBORw0KGgp=' },
      ],
    };
    const expected = normalizeResponse({ format: 'openai.images', body: JSON.stringify(body) });
    const served = await throughGateway(SERVING['openai.images'] as Serving, { body }, false);
    expect(served.success && expected.success).toBe(true);
    if (!served.success || !expected.success) return;
    expect(served.images).toEqual(expected.images);
    expect(served.images[0]).toMatchObject({
      revised_prompt: 'A watercolor fox in the snow, at dusk',
      width: 1024,
      height: 1536,
    });
    expect(served.images[1]).not.toHaveProperty('revised_prompt');
  });
});
