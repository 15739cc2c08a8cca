import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayAnswer, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * Images, speech and transcriptions of the packaged types that text tests do not reach (docs/gateway.md, "Provider
 * types"): Bedrock and Vertex images, Fireworks images, fal speech and transcriptions, each through its own
 * `@ai-sdk/*` package against the replay server. Each case asserts what the provider received (path, credentials,
 * body), the envelope of its success, and one of its own error bodies.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'replay-key-secret-0003';
const AWS_SECRET = 'replay-aws-secret-0003';
/** A one-pixel PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** The start of a JPEG file (SOI, JFIF APP0), as Fireworks sends a generated image. */
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA==';
/** The start of an MP3 file (an ID3 tag). */
const MP3 = 'SUQzBAAAAAAAD//7kGQAAA==';

function gateway() {
  return createGateway({
    providers: {
      'amazon-bedrock': { baseURL: `${replay.url}/amazon-bedrock` },
      'google-vertex': { baseURL: `${replay.url}/google-vertex`, apiKey: KEY },
      fireworks: { baseURL: `${replay.url}/fireworks`, apiKey: KEY },
      fal: { baseURL: `${replay.url}/fal`, apiKey: KEY },
    } as GatewayOptions['providers'],
    // Bedrock signs with SigV4 from the standard AWS variables.
    env: {
      AWS_ACCESS_KEY_ID: 'AKIDREPLAYEXAMPLE',
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_REGION: 'eu-west-1',
    },
    retries: 0,
  });
}

function post(route: string, body: unknown) {
  return gateway().request(route, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

function requestLines(): string[] {
  return replay.requests.map((request) => `${request.method} ${request.path}`);
}

interface ErrorCase {
  /** What the case shows. */
  name: string;
  /** The provider's answer. */
  answer: ReplayAnswer;
  /** The envelope's code. */
  code: string;
}

interface MediaCase {
  /** What the case shows. */
  name: string;
  /** The gateway route. */
  route: '/v1/images' | '/v1/speech' | '/v1/transcriptions';
  /** The gateway request. */
  request: { model: string } & Record<string, unknown>;
  /** The provider's answers, in order. */
  answers: ReplayAnswer[];
  /** The requests the replay server must see, `METHOD path`. */
  lines: string[];
  /** The first request's body, or the part of it that must be there. */
  body: Record<string, unknown>;
  /** A check of the first request's credentials. */
  credentials: (headers: Record<string, string>) => void;
  /** What the envelope of the success must hold. */
  expected: Record<string, unknown>;
  /** The provider's own error bodies for a bad key, a rate limit and a bad request, and the envelope's codes. */
  errors: ErrorCase[];
}

/** A Fireworks error body. */
const fireworksError = (status: number, type: string, message: string): ReplayAnswer => ({
  status,
  body: { error: { object: 'error', type, message } },
});

/** Fireworks' own error bodies for a bad key, a rate limit and a bad request. */
const FIREWORKS_ERRORS: ErrorCase[] = [
  {
    name: 'a bad key',
    answer: fireworksError(401, 'unauthorized', 'The API key you provided is invalid.'),
    code: 'AUTHENTICATION_ERROR',
  },
  {
    name: 'a rate limit',
    answer: fireworksError(429, 'rate_limited', 'Request rate increased too quickly.'),
    code: 'RATE_LIMITED',
  },
  {
    name: 'a bad request',
    answer: fireworksError(
      400,
      'invalid_request_error',
      'Model not found, inaccessible, and/or not deployed',
    ),
    code: 'VALIDATION_ERROR',
  },
];

/** fal's own error bodies for a bad key, a rate limit and a request field it refuses. */
const falErrors = (field: string): ErrorCase[] => [
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
      body: { detail: [{ loc: ['body', field], msg: 'field required', type: 'value_error.missing' }] },
    },
    code: 'VALIDATION_ERROR',
  },
];

const bearer = (headers: Record<string, string>) => expect(headers.authorization).toBe(`Bearer ${KEY}`);
const falKey = (headers: Record<string, string>) => expect(headers.authorization).toBe(`Key ${KEY}`);

const CASES: MediaCase[] = [
  {
    name: 'amazon-bedrock images (Nova Canvas, InvokeModel)',
    route: '/v1/images',
    request: { model: 'amazon-bedrock:amazon.nova-canvas-v1:0', prompt: 'a lighthouse', size: '1024x1024' },
    answers: [{ match: '/invoke', body: { images: [PNG] } }],
    lines: ['POST /amazon-bedrock/model/amazon.nova-canvas-v1%3A0/invoke'],
    body: {
      taskType: 'TEXT_IMAGE',
      textToImageParams: { text: 'a lighthouse' },
      imageGenerationConfig: { width: 1024, height: 1024, numberOfImages: 1 },
    },
    // SigV4: the access key id and region in the credential scope, never the secret.
    credentials: (headers) => {
      expect(headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDREPLAYEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
      );
      expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(JSON.stringify(headers)).not.toContain(AWS_SECRET);
    },
    expected: {
      provider: 'amazon-bedrock',
      content: 'Generated 1 image.',
      images: [{ data: PNG, media_type: 'image/png' }],
    },
    errors: [
      {
        name: 'an UnrecognizedClientException',
        answer: fixture('bedrock.converse/AUTHENTICATION_ERROR/unrecognized-client-403.json'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a ThrottlingException',
        answer: fixture('bedrock.converse/RATE_LIMITED/throttling-429.json'),
        code: 'RATE_LIMITED',
      },
      {
        name: 'a ValidationException',
        answer: {
          status: 400,
          headers: {
            'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
          },
          body: {
            message:
              'Malformed input request: #/imageGenerationConfig/width: 1000 is not a multiple of 64, please reformat your input and try again.',
          },
        },
        code: 'VALIDATION_ERROR',
      },
      {
        // A 200 whose status says the content filter refused the prompt (the provider package throws it).
        name: 'a moderated request',
        answer: {
          status: 200,
          body: { status: 'Request Moderated', details: { 'Moderation Reasons': ['Prompt'] } },
        },
        code: 'CONTENT_FILTERED',
      },
    ],
  },
  {
    name: 'google-vertex images (Imagen, :predict)',
    route: '/v1/images',
    request: { model: 'google-vertex:imagen-4.0-generate-001', prompt: 'a lighthouse', aspect_ratio: '16:9' },
    answers: [
      {
        match: ':predict',
        body: { predictions: [{ bytesBase64Encoded: PNG, mimeType: 'image/png', prompt: 'a lighthouse' }] },
      },
    ],
    lines: ['POST /google-vertex/models/imagen-4.0-generate-001:predict'],
    body: { instances: [{ prompt: 'a lighthouse' }], parameters: { sampleCount: 1, aspectRatio: '16:9' } },
    credentials: (headers) => expect(headers['x-goog-api-key']).toBe(KEY),
    expected: {
      provider: 'google-vertex',
      content: 'Generated 1 image.',
      images: [{ data: PNG, media_type: 'image/png' }],
    },
    errors: [
      {
        name: 'an UNAUTHENTICATED',
        answer: fixture('google.generate-content/AUTHENTICATION_ERROR/unauthenticated-401.json'),
        code: 'AUTHENTICATION_ERROR',
      },
      {
        name: 'a RESOURCE_EXHAUSTED',
        answer: fixture('google.generate-content/RATE_LIMITED/resource-exhausted-429.json'),
        code: 'RATE_LIMITED',
      },
      {
        name: 'an INVALID_ARGUMENT',
        answer: fixture('google.generate-content/VALIDATION_ERROR/invalid-argument-400.json'),
        code: 'VALIDATION_ERROR',
      },
    ],
  },
  {
    name: 'fireworks images (FLUX workflow, image bytes)',
    route: '/v1/images',
    request: {
      model: 'fireworks:accounts/fireworks/models/flux-1-schnell-fp8',
      prompt: 'a lighthouse',
      aspect_ratio: '16:9',
      seed: 7,
    },
    answers: [{ match: '/text_to_image', headers: { 'content-type': 'image/jpeg' }, body_base64: JPEG }],
    lines: ['POST /fireworks/workflows/accounts/fireworks/models/flux-1-schnell-fp8/text_to_image'],
    body: { prompt: 'a lighthouse', aspect_ratio: '16:9', seed: 7, samples: 1 },
    credentials: bearer,
    expected: {
      provider: 'fireworks',
      content: 'Generated 1 image.',
      images: [{ data: JPEG, media_type: 'image/jpeg' }],
    },
    errors: FIREWORKS_ERRORS,
  },
  {
    name: 'fireworks images (FLUX Kontext: submitted, polled, then downloaded)',
    route: '/v1/images',
    request: { model: 'fireworks:accounts/fireworks/models/flux-kontext-pro', prompt: 'a lighthouse' },
    answers: [
      {
        match: '/flux-kontext-pro',
        body: { request_id: 'c0ffee00-1d2e-4f3a-8b9c-0a1b2c3d4e5f' },
      },
      {
        match: '/get_result',
        body: {
          id: 'c0ffee00-1d2e-4f3a-8b9c-0a1b2c3d4e5f',
          status: 'Ready',
          result: { sample: '{replay}/files/kontext-sample.jpeg', seed: 42 },
        },
      },
      { match: '/files/', headers: { 'content-type': 'image/jpeg' }, body_base64: JPEG },
    ],
    lines: [
      'POST /fireworks/workflows/accounts/fireworks/models/flux-kontext-pro',
      'POST /fireworks/workflows/accounts/fireworks/models/flux-kontext-pro/get_result',
      'GET /files/kontext-sample.jpeg',
    ],
    body: { prompt: 'a lighthouse', samples: 1 },
    credentials: bearer,
    expected: {
      provider: 'fireworks',
      content: 'Generated 1 image.',
      images: [{ data: JPEG, media_type: 'image/jpeg' }],
    },
    errors: FIREWORKS_ERRORS,
  },
  {
    name: 'fal speech (fal.run, then the audio file it names)',
    route: '/v1/speech',
    request: { model: 'fal:fal-ai/minimax/speech-02-hd', input: 'Hello', voice: 'Wise_Woman', speed: 1.1 },
    answers: [
      {
        match: '/fal/fal-ai/minimax/speech-02-hd',
        body: {
          audio: {
            url: '{replay}/files/fal-speech.mp3',
            content_type: 'audio/mpeg',
            file_name: 'speech.mp3',
            file_size: 16,
          },
          duration_ms: 620,
        },
      },
      { match: '/files/', headers: { 'content-type': 'audio/mpeg' }, body_base64: MP3 },
    ],
    lines: ['POST /fal/fal-ai/minimax/speech-02-hd', 'GET /files/fal-speech.mp3'],
    body: { text: 'Hello', output_format: 'url', voice: 'Wise_Woman', speed: 1.1 },
    credentials: falKey,
    expected: {
      provider: 'fal',
      content: 'Generated speech audio (audio/mpeg).',
      files: [{ data: MP3, media_type: 'audio/mpeg' }],
    },
    errors: falErrors('text'),
  },
  {
    name: 'fal transcriptions (the queue, then the request’s result)',
    route: '/v1/transcriptions',
    request: { model: 'fal:whisper', audio: MP3, media_type: 'audio/mpeg' },
    answers: [
      {
        match: '/fal/queue/fal-ai/whisper',
        body: {
          status: 'IN_QUEUE',
          request_id: '5a1c0f3e-8d2b-4e7a-9c6f-0b1d2e3f4a5b',
          response_url: 'https://queue.fal.run/fal-ai/whisper/requests/5a1c0f3e-8d2b-4e7a-9c6f-0b1d2e3f4a5b',
        },
      },
      {
        match: '/requests/5a1c0f3e-8d2b-4e7a-9c6f-0b1d2e3f4a5b',
        body: {
          text: 'Hello from the recording.',
          chunks: [
            { text: 'Hello from', timestamp: [0, 0.9], speaker: 'SPEAKER_00' },
            { text: ' the recording.', timestamp: [0.9, 1.62], speaker: 'SPEAKER_00' },
          ],
          inferred_languages: ['en'],
          diarization_segments: [{ timestamp: [0, 1.62], speaker: 'SPEAKER_00' }],
        },
      },
    ],
    lines: [
      'POST /fal/queue/fal-ai/whisper',
      'GET /fal/queue/fal-ai/whisper/requests/5a1c0f3e-8d2b-4e7a-9c6f-0b1d2e3f4a5b',
    ],
    body: {
      task: 'transcribe',
      diarize: true,
      chunk_level: 'word',
      audio_url: `data:audio/mpeg;base64,${MP3}`,
    },
    credentials: falKey,
    expected: {
      provider: 'fal',
      content: 'Hello from the recording.',
      metadata: { language: 'en', audio_duration_s: 1.62 },
    },
    errors: falErrors('audio_url'),
  },
];

/** An answer whose `{replay}` placeholders name the replay server (a provider's file URL served here). */
function onReplay(answer: ReplayAnswer): ReplayAnswer {
  if (answer.body === undefined) return answer;
  return { ...answer, body: JSON.parse(JSON.stringify(answer.body).replaceAll('{replay}', replay.url)) };
}

describe.each(CASES)('$name through the gateway', (provider) => {
  test('sends its own request and answers the success', async () => {
    replay.enqueue(...provider.answers.map(onReplay));
    const answer = await readEnvelope(await post(provider.route, provider.request));
    expect(answer.envelope).toMatchObject({ success: true, ...provider.expected });
    expect(answer.envelope.metadata.target).toBe(provider.request.model);
    expect(requestLines()).toEqual(provider.lines);
    expect(replay.requests[0]?.body).toEqual(provider.body);
    provider.credentials(replay.requests[0]?.headers ?? {});
    expect(JSON.stringify(answer.envelope)).not.toContain(KEY);
  });

  test.each(provider.errors)('maps $name to $code', async ({ answer: error, code }) => {
    replay.enqueue(error);
    const answer = await readEnvelope(await post(provider.route, provider.request));
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: provider.expected.provider,
      error: { code },
    });
    expect(replay.requests).toHaveLength(1);
  });
});

describe('fal speech', () => {
  test('downloads the audio file it names without the fal key', async () => {
    // (Fireworks sends its key with a download on its own origin only, which the replay server shares with it.)
    const provider = CASES.find((candidate) => candidate.name.startsWith('fal speech'));
    if (provider === undefined) throw new Error('No fal speech case.');
    replay.enqueue(...provider.answers.map(onReplay));
    const answer = await readEnvelope(await post(provider.route, provider.request));
    expect(answer.envelope.success).toBe(true);
    expect(replay.requests[1]?.path).toBe('/files/fal-speech.mp3');
    expect(replay.requests[1]?.headers.authorization).toBeUndefined();
  });
});
