import { beforeEach, describe, expect, test } from 'vitest';
import type { ProviderType } from '../../src/gateway/config/config.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createProviderModels, MODALITIES_OF } from '../../src/gateway/providers/providers.js';
import type { ReplayAnswer, ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * Videos of the packaged types whose installed packages finish a video in one call (docs/gateway.md, "Endpoints"):
 * Vertex (Veo), xAI and fal, each through its own `@ai-sdk/*` package against the replay server. The SDK starts the
 * provider's job and polls it within the gateway's request; the tests assert what each provider received, the
 * video answered by URL, the provider's failures, and that such a provider gives no job id to poll.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'replay-key-secret-0002';

function gateway(options: GatewayOptions = {}) {
  return createGateway({
    providers: {
      'google-vertex': { baseURL: `${replay.url}/google-vertex`, apiKey: KEY },
      xai: { baseURL: `${replay.url}/xai`, apiKey: KEY },
      fal: { baseURL: `${replay.url}/fal`, apiKey: KEY },
    } as GatewayOptions['providers'],
    retries: 0,
    videoPollMs: 5,
    ...options,
  });
}

function post(body: unknown) {
  return gateway().request('/v1/videos', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

function requestLines(): string[] {
  return replay.requests.map((request) => `${request.method} ${request.path}`);
}

interface VideoCase {
  /** The provider type (and id). */
  type: string;
  /** The gateway request. */
  request: Record<string, unknown>;
  /** The provider's answers, in order: start, then every status check. */
  answers: ReplayAnswer[];
  /** The requests the provider must see, `METHOD path`. */
  lines: string[];
  /** The start request's body, as the provider must receive it. */
  body: Record<string, unknown>;
  /** How the key must arrive: header name and value. */
  credential: [string, string];
  /** The video answered. */
  video: { url: string; media_type: string };
  /** A job the provider reports failed: its answers and the words the envelope's message must hold. */
  failed: { answers: ReplayAnswer[]; message: string };
  /** A refused start: the provider's own error body and the envelope's code. */
  refused: { answer: ReplayAnswer; code: string };
}

const VERTEX_OPERATION =
  'projects/replay-project/locations/us-central1/publishers/google/models/veo-3.0-generate-001/operations/7f3c9a2e-5b1d-4c8e-9a0f-1e2d3c4b5a69';
const XAI_REQUEST = 'd97415a1-5796-b7ec-379f-4e6819e08fdf';
const FAL_REQUEST = '764cabcf-b745-4b3e-ae38-1200304cf45b';
const FAL_QUEUE = 'https://queue.fal.run/fal-ai/kling-video';

const CASES: VideoCase[] = [
  {
    type: 'google-vertex',
    request: {
      model: 'google-vertex:veo-3.0-generate-001',
      prompt: 'a lighthouse in a storm',
      aspect_ratio: '16:9',
      resolution: '1280x720',
      duration_s: 8,
    },
    answers: [
      { match: ':predictLongRunning', body: { name: VERTEX_OPERATION } },
      { match: ':fetchPredictOperation', body: { name: VERTEX_OPERATION, done: false } },
      {
        match: ':fetchPredictOperation',
        body: {
          name: VERTEX_OPERATION,
          done: true,
          response: {
            '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse',
            raiMediaFilteredCount: 0,
            videos: [{ gcsUri: 'gs://replay-bucket/veo/sample_0.mp4', mimeType: 'video/mp4' }],
          },
        },
      },
    ],
    lines: [
      'POST /google-vertex/models/veo-3.0-generate-001:predictLongRunning',
      'POST /google-vertex/models/veo-3.0-generate-001:fetchPredictOperation',
      'POST /google-vertex/models/veo-3.0-generate-001:fetchPredictOperation',
    ],
    body: {
      instances: [{ prompt: 'a lighthouse in a storm' }],
      parameters: { sampleCount: 1, aspectRatio: '16:9', resolution: '720p', durationSeconds: 8 },
    },
    credential: ['x-goog-api-key', KEY],
    video: { url: 'gs://replay-bucket/veo/sample_0.mp4', media_type: 'video/mp4' },
    failed: {
      answers: [
        { match: ':predictLongRunning', body: { name: VERTEX_OPERATION } },
        {
          match: ':fetchPredictOperation',
          body: {
            name: VERTEX_OPERATION,
            done: true,
            error: {
              code: 3,
              message: 'The prompt could not be submitted: it violates the usage guidelines.',
            },
          },
        },
      ],
      message: 'violates the usage guidelines',
    },
    refused: {
      answer: {
        status: 429,
        body: {
          error: {
            code: 429,
            message:
              'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: veo-3.0-generate. Please submit a quota increase request.',
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      },
      code: 'RATE_LIMITED',
    },
  },
  {
    type: 'xai',
    request: {
      model: 'xai:grok-imagine-video',
      prompt: 'a lighthouse in a storm',
      aspect_ratio: '16:9',
      resolution: '1280x720',
      duration_s: 8,
    },
    answers: [
      { match: '/videos/generations', body: { request_id: XAI_REQUEST } },
      // xAI answers 202 while the video is being made.
      { match: `/videos/${XAI_REQUEST}`, status: 202, body: { status: 'pending', progress: 40 } },
      {
        match: `/videos/${XAI_REQUEST}`,
        body: {
          status: 'done',
          video: {
            url: 'https://vidgen.x.ai/xai-vidgen-bucket/xai-video-d97415a1.mp4',
            duration: 8,
            respect_moderation: true,
          },
          model: 'grok-imagine-video',
          usage: { cost_in_usd_ticks: 4000000000 },
          progress: 100,
        },
      },
    ],
    lines: [
      'POST /xai/videos/generations',
      `GET /xai/videos/${XAI_REQUEST}`,
      `GET /xai/videos/${XAI_REQUEST}`,
    ],
    body: {
      model: 'grok-imagine-video',
      prompt: 'a lighthouse in a storm',
      duration: 8,
      aspect_ratio: '16:9',
      resolution: '720p',
    },
    credential: ['authorization', `Bearer ${KEY}`],
    video: { url: 'https://vidgen.x.ai/xai-vidgen-bucket/xai-video-d97415a1.mp4', media_type: 'video/mp4' },
    failed: {
      answers: [
        { match: '/videos/generations', body: { request_id: XAI_REQUEST } },
        { match: `/videos/${XAI_REQUEST}`, body: { status: 'failed', model: 'grok-imagine-video' } },
      ],
      message: 'Video generation failed.',
    },
    refused: {
      answer: {
        status: 429,
        body: {
          code: 'Some resource has been exhausted',
          error: 'Your team has either used all available credits or reached its monthly spending limit.',
        },
      },
      code: 'RATE_LIMITED',
    },
  },
  {
    type: 'fal',
    request: {
      model: 'fal:fal-ai/kling-video/v2.1/standard/text-to-video',
      prompt: 'a lighthouse in a storm',
      aspect_ratio: '16:9',
      duration_s: 5,
    },
    answers: [
      {
        match: '/queue/fal-ai/kling-video/v2.1/standard/text-to-video',
        body: {
          status: 'IN_QUEUE',
          request_id: FAL_REQUEST,
          response_url: `${FAL_QUEUE}/requests/${FAL_REQUEST}`,
          status_url: `${FAL_QUEUE}/requests/${FAL_REQUEST}/status`,
          cancel_url: `${FAL_QUEUE}/requests/${FAL_REQUEST}/cancel`,
          queue_position: 0,
        },
      },
      // The queue answers a result asked for too early with this detail.
      { match: `/requests/${FAL_REQUEST}`, status: 400, body: { detail: 'Request is still in progress' } },
      {
        match: `/requests/${FAL_REQUEST}`,
        body: {
          video: {
            url: 'https://v3.fal.media/files/penguin/kling-lighthouse_output.mp4',
            content_type: 'video/mp4',
            file_name: 'output.mp4',
            file_size: 6204123,
          },
          seed: 1187,
        },
      },
    ],
    lines: [
      'POST /fal/queue/fal-ai/kling-video/v2.1/standard/text-to-video',
      `GET /fal/queue/fal-ai/kling-video/requests/${FAL_REQUEST}`,
      `GET /fal/queue/fal-ai/kling-video/requests/${FAL_REQUEST}`,
    ],
    body: { prompt: 'a lighthouse in a storm', aspect_ratio: '16:9', duration: '5s' },
    credential: ['authorization', `Key ${KEY}`],
    video: { url: 'https://v3.fal.media/files/penguin/kling-lighthouse_output.mp4', media_type: 'video/mp4' },
    failed: {
      answers: [
        {
          match: '/queue/',
          body: { request_id: FAL_REQUEST, response_url: `${FAL_QUEUE}/requests/${FAL_REQUEST}` },
        },
        // A finished request whose result holds no video.
        { match: `/requests/${FAL_REQUEST}`, body: { seed: 1187 } },
      ],
      message: 'No video URL in response',
    },
    refused: {
      answer: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'duration'],
              msg: "value is not a valid enumeration member; permitted: '5', '10'",
              type: 'type_error.enum',
            },
          ],
        },
      },
      code: 'VALIDATION_ERROR',
    },
  },
];

describe.each(CASES)('$type videos through the gateway', (provider) => {
  test('the SDK starts the job and polls it until done; the video is answered by URL', async () => {
    replay.enqueue(...provider.answers);
    const answer = await readEnvelope(await post(provider.request));
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: provider.type,
      content: 'Generated 1 video.',
      videos: [provider.video],
      metadata: { job_status: 'completed', target: provider.request.model, attempts: 1 },
    });
    expect(answer.envelope.metadata.job_id).toBeUndefined();
    expect(requestLines()).toEqual(provider.lines);
    expect(replay.requests[0]?.body).toEqual(provider.body);
    for (const request of replay.requests)
      expect(request.headers[provider.credential[0]]).toBe(provider.credential[1]);
    expect(JSON.stringify(answer.envelope)).not.toContain(KEY);
  });

  test('a job the provider reports failed is PROVIDER_ERROR with its words', async () => {
    replay.enqueue(...provider.failed.answers);
    const answer = await readEnvelope(await post(provider.request));
    expect(answer.status).toBe(502);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: provider.type,
      error: { code: 'PROVIDER_ERROR', message: expect.stringContaining(provider.failed.message) },
    });
  });

  test(`a start the provider refuses is ${provider.refused.code}`, async () => {
    replay.enqueue(provider.refused.answer);
    const answer = await readEnvelope(await post(provider.request));
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: provider.type,
      error: { code: provider.refused.code },
    });
    expect(replay.requests).toHaveLength(1);
  });

  test("a job that outlasts the route's deadline is PROVIDER_TIMEOUT, and the request in flight is abandoned", async () => {
    // The start is answered; the first status check never is, so only the deadline can end the request.
    const [start, poll] = provider.answers;
    if (start === undefined || poll?.match === undefined) throw new Error('A case starts, then polls.');
    replay.enqueue(start, { match: poll.match, hang: true });
    const response = await gateway({ routes: { videos: { timeoutMs: 1500 } } }).request('/v1/videos', {
      method: 'POST',
      body: JSON.stringify(provider.request),
      headers: { 'content-type': 'application/json' },
    });
    const answer = await readEnvelope(response);
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'PROVIDER_TIMEOUT' } });
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
  });

  test('"wait": false is refused before any call: the SDK gives no job to poll', async () => {
    const answer = await readEnvelope(await post({ ...provider.request, wait: false }));
    expect(answer.status).toBe(400);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: provider.type,
      error: {
        code: 'VALIDATION_ERROR',
        message: `The ${provider.type} provider's video models finish in one call and give no job to poll: send the request without "wait": false.`,
      },
    });
    expect(replay.requests).toEqual([]);
  });

  test('a job id naming this provider is NOT_FOUND before any call', async () => {
    const operation = { request_id: 'x', operationName: 'operations/x', getUrl: `${replay.url}/x` };
    const id = Buffer.from(JSON.stringify({ target: provider.request.model, operation })).toString(
      'base64url',
    );
    const answer = await readEnvelope(await gateway().request(`/v1/videos/${id}`));
    expect(answer.envelope).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(replay.requests).toEqual([]);
  });
});

describe('how each provider type runs its videos', () => {
  test.each(Object.keys(MODALITIES_OF) as ProviderType[])(
    '%s says how, exactly when it offers videos',
    (type) => {
      const models = createProviderModels(type, { type, baseURL: replay.url, apiKey: KEY }, {});
      const offers = MODALITIES_OF[type].includes('videos');
      expect(models.videos !== undefined, 'a video maker').toBe(offers);
      expect(models.videoRun !== undefined, 'a video run').toBe(offers);
      if (models.videoRun?.kind === 'job') expect(models.videoRun.isOperation({})).toBe(false);
    },
  );
});
