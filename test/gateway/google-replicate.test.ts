import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayAnswer, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The Google (Gemini) image, speech, transcription and video paths and Replicate images, through the real
 * `@ai-sdk/google` and `@ai-sdk/replicate` providers against the replay server.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const GOOGLE_KEY = 'replay-google-secret';
const REPLICATE_KEY = 'r8_replay_secret';
/** A WebP header, as Replicate's file server would send an image. */
const WEBP = 'UklGRiQAAABXRUJQVlA4IBgAAAAw';

function gatewayWith(options: GatewayOptions = {}) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retries: 0,
    videoPollMs: 5,
    ...options,
  });
}

function post(gateway: ReturnType<typeof createGateway>, path: string, body: unknown) {
  return gateway.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

/** A fixture whose body has one origin replaced by another (a provider's own URLs, served by the replay). */
function rehosted(
  path: string,
  from: string,
  to: string,
  controls: Partial<ReplayAnswer> = {},
): ReplayAnswer {
  const answer = fixture(path);
  return { ...answer, body: JSON.parse(JSON.stringify(answer.body).replaceAll(from, to)), ...controls };
}

function requestLines(): string[] {
  return replay.requests.map((request) => `${request.method} ${request.path}`);
}

describe('Google (Gemini) through the gateway', () => {
  test('images: a Gemini image model answers its inline image', async () => {
    replay.enqueue({
      ...fixture('google.generate-content/success/image-only.json'),
      match: ':generateContent',
    });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', {
        model: 'google:gemini-2.5-flash-image',
        prompt: 'a red fox',
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'google',
      content: 'Generated 1 image.',
      usage: { input_tokens: 12, output_tokens: 1290 },
      images: [
        {
          data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          media_type: 'image/png',
        },
      ],
      metadata: { target: 'google:gemini-2.5-flash-image', attempts: 1 },
    });
    expect(requestLines()).toEqual(['POST /v1beta/models/gemini-2.5-flash-image:generateContent']);
    expect(replay.requests[0]?.headers['x-goog-api-key']).toBe(GOOGLE_KEY);
    expect(replay.requests[0]?.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'a red fox' }] }],
      generationConfig: { responseModalities: ['IMAGE'] },
    });
  });

  test('images: a model id that is not Gemini is a VALIDATION_ERROR, and nothing is sent', async () => {
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', { model: 'google:imagen-4.0-generate-001', prompt: 'a fox' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'google',
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(String((answer.envelope as { error: { message: string } }).error.message)).toContain(
      'Google image models are Gemini models (gemini-…) through the gateway, not "imagen-4.0-generate-001".',
    );
    expect(replay.requests).toEqual([]);
  });

  test('images: a rate-limited Gemini answer is RATE_LIMITED with its status', async () => {
    replay.enqueue(fixture('google.generate-content/RATE_LIMITED/resource-exhausted-429.json'));
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', { model: 'google:gemini-2.5-flash-image', prompt: 'a fox' }),
    );
    expect(answer.status).toBe(429);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'google',
      error: { code: 'RATE_LIMITED' },
    });
  });

  test('speech: Gemini PCM audio is answered as a WAV file', async () => {
    replay.enqueue({
      ...fixture('google.generate-content/success/tts-inline-audio-only.json'),
      match: ':generateContent',
    });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/speech', {
        model: 'google:gemini-2.5-flash-preview-tts',
        input: 'Hello',
        voice: 'Puck',
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'google',
      content: 'Generated speech audio (audio/wav).',
      files: [{ media_type: 'audio/wav', name: 'speech.wav' }],
    });
    const file = (answer.envelope as { files: { data: string }[] }).files[0];
    const wav = Buffer.from(file?.data ?? '', 'base64');
    const pcm = Buffer.from('AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJw==', 'base64');
    // A 44-byte RIFF/WAVE header at 24 kHz (the rate the answer's mime type gives), then the PCM samples.
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect(wav.readUInt32LE(24)).toBe(24000);
    expect(wav.subarray(44)).toEqual(pcm);
    expect(requestLines()).toEqual(['POST /v1beta/models/gemini-2.5-flash-preview-tts:generateContent']);
    expect(replay.requests[0]?.body).toMatchObject({
      contents: [{ parts: [{ text: 'Hello' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } },
      },
    });
  });

  test('transcriptions: the Interactions API transcript, with the media type the request gave', async () => {
    // The shape @ai-sdk/google reads from POST /interactions: steps whose content holds text parts.
    replay.enqueue({
      match: '/interactions',
      body: {
        status: 'completed',
        steps: [{ type: 'model_output', content: [{ type: 'text', text: 'Hello from the recording.' }] }],
      },
    });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/transcriptions', {
        model: 'google:gemini-3.5-transcribe',
        audio: 'SUQzBAAAAAAAD//7kGQAAA==',
        media_type: 'audio/mpeg',
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'google',
      content: 'Hello from the recording.',
      metadata: { target: 'google:gemini-3.5-transcribe' },
    });
    expect(requestLines()).toEqual(['POST /v1beta/interactions']);
    expect(replay.requests[0]?.body).toEqual({
      model: 'gemini-3.5-transcribe',
      input: [{ type: 'audio', data: 'SUQzBAAAAAAAD//7kGQAAA==', mime_type: 'audio/mpeg' }],
    });
  });

  test('transcriptions: multipart audio keeps the type of its file part', async () => {
    replay.enqueue({
      match: '/interactions',
      body: { steps: [{ content: [{ type: 'text', text: 'Bonjour.' }] }] },
    });
    const form = new FormData();
    form.set('model', 'google:gemini-3.5-transcribe');
    form.set(
      'file',
      new Blob([Buffer.from('no known signature', 'latin1')], { type: 'audio/webm' }),
      'a.webm',
    );
    const answer = await readEnvelope(
      await gatewayWith().request('/v1/transcriptions', { method: 'POST', body: form }),
    );
    expect(answer.envelope).toMatchObject({ success: true, content: 'Bonjour.' });
    expect(replay.requests[0]?.body).toMatchObject({ input: [{ mime_type: 'audio/webm' }] });
  });

  test('videos: a Veo job is started, polled until done, and its video answered by URL', async () => {
    replay.enqueue({ ...fixture('google.veo/success/created-pending.json'), match: ':predictLongRunning' });
    replay.enqueue({ ...fixture('google.veo/success/poll-not-done.json'), match: '/operations/' });
    replay.enqueue({ ...fixture('google.veo/success/done-gemini-api.json'), match: '/operations/' });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/videos', {
        model: 'google:veo-3.0-generate-001',
        prompt: 'an astronaut riding a horse',
        aspect_ratio: '16:9',
        resolution: '1280x720',
        duration_s: 8,
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'google',
      content: 'Generated 1 video.',
      videos: [
        {
          url: 'https://generativelanguage.googleapis.com/v1beta/files/3kq8d0v2xw1m:download?alt=media',
          media_type: 'video/mp4',
        },
      ],
      metadata: { job_status: 'completed', target: 'google:veo-3.0-generate-001', attempts: 1 },
    });
    expect(requestLines()).toEqual([
      'POST /v1beta/models/veo-3.0-generate-001:predictLongRunning',
      'GET /v1beta/models/veo-3.0-generate-001/operations/kxiwvfa8ovbd',
      'GET /v1beta/models/veo-3.0-generate-001/operations/kxiwvfa8ovbd',
    ]);
    expect(replay.requests[0]?.body).toEqual({
      instances: [{ prompt: 'an astronaut riding a horse' }],
      parameters: { sampleCount: 1, aspectRatio: '16:9', resolution: '720p', durationSeconds: 8 },
    });
  });

  test('videos: a video URL on the API origin is answered without the provider key the SDK adds', async () => {
    // @ai-sdk/google appends key=<API key> to a video URL on its base URL's origin, which real Gemini URLs are.
    replay.enqueue({ ...fixture('google.veo/success/created-pending.json'), match: ':predictLongRunning' });
    const started = await readEnvelope(
      await post(gatewayWith(), '/v1/videos', {
        model: 'google:veo-3.0-generate-001',
        prompt: 'a horse',
        wait: false,
      }),
    );
    const jobId = String(started.envelope.metadata.job_id);
    for (const poll of ['POST', 'GET']) {
      replay.enqueue(
        rehosted(
          'google.veo/success/done-gemini-api.json',
          'https://generativelanguage.googleapis.com',
          replay.url,
          {
            match: '/operations/',
          },
        ),
      );
      if (poll === 'POST')
        replay.enqueue({ ...fixture('google.veo/success/created-pending.json'), match: ':predict' });
      const response =
        poll === 'POST'
          ? await post(gatewayWith(), '/v1/videos', {
              model: 'google:veo-3.0-generate-001',
              prompt: 'a horse',
            })
          : await gatewayWith().request(`/v1/videos/${jobId}`);
      const text = await response.clone().text();
      expect(text).not.toContain(GOOGLE_KEY);
      const answer = await readEnvelope(response);
      expect(answer.envelope).toMatchObject({
        success: true,
        videos: [
          { url: `${replay.url}/v1beta/files/3kq8d0v2xw1m:download?alt=media`, media_type: 'video/mp4' },
        ],
      });
    }
  });

  test('videos: a failed Veo operation is PROVIDER_ERROR with its message', async () => {
    replay.enqueue({ ...fixture('google.veo/success/created-pending.json'), match: ':predictLongRunning' });
    replay.enqueue({
      ...fixture('google.veo/PROVIDER_ERROR/operation-error-internal.json'),
      match: '/operations/',
    });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/videos', { model: 'google:veo-3.0-generate-001', prompt: 'a horse' }),
    );
    expect(answer.status).toBe(502);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'google',
      error: { code: 'PROVIDER_ERROR', message: expect.stringContaining('internal error') },
    });
  });
});

describe('Replicate images through the gateway', () => {
  test('the output URLs are downloaded from the file server and answered as image data', async () => {
    replay.enqueue(
      rehosted(
        'replicate.prediction/success/image-urls.json',
        'https://replicate.delivery',
        `${replay.url}/delivery`,
        {
          match: '/predictions',
        },
      ),
    );
    replay.enqueue({ body_base64: WEBP, headers: { 'content-type': 'image/webp' }, match: '/delivery/' });
    replay.enqueue({ body_base64: WEBP, headers: { 'content-type': 'image/webp' }, match: '/delivery/' });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', {
        model: 'replicate:black-forest-labs/flux-schnell',
        prompt: 'an astronaut riding a horse',
        aspect_ratio: '16:9',
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'replicate',
      content: 'Generated 2 images.',
      images: [
        { data: WEBP, media_type: 'image/webp' },
        { data: WEBP, media_type: 'image/webp' },
      ],
      metadata: { target: 'replicate:black-forest-labs/flux-schnell', attempts: 1 },
    });
    expect(requestLines()).toEqual([
      'POST /v1/models/black-forest-labs/flux-schnell/predictions',
      'GET /delivery/xezq/abc/out-0.webp',
      'GET /delivery/xezq/abc/out-1.webp',
    ]);
    expect(replay.requests[0]?.headers.authorization).toBe(`Bearer ${REPLICATE_KEY}`);
    expect(replay.requests[0]?.body).toMatchObject({
      input: { prompt: 'an astronaut riding a horse', aspect_ratio: '16:9', num_outputs: 1 },
    });
    // The images are fetched without the Replicate token.
    expect(replay.requests.slice(1).map((request) => request.headers.authorization)).toEqual([
      undefined,
      undefined,
    ]);
  });

  test('a prediction still processing is polled until it succeeds, then its image is downloaded', async () => {
    const image = `${replay.url}/delivery/xezq/abc/out-0.webp`;
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions' });
    replay.enqueue({
      ...rehosted(
        'replicate.prediction/success/image-urls.json',
        'https://replicate.delivery',
        `${replay.url}/delivery`,
      ),
      status: 200,
      match: '/predictions/',
    });
    replay.enqueue({ body_base64: WEBP, match: '/delivery/' }, { body_base64: WEBP, match: '/delivery/' });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', {
        model: 'replicate:black-forest-labs/flux-schnell',
        prompt: 'x',
      }),
    );
    expect(answer.envelope).toMatchObject({ success: true, images: [{ media_type: 'image/webp' }, {}] });
    expect(requestLines()).toEqual([
      'POST /v1/models/black-forest-labs/flux-schnell/predictions',
      'GET /v1/predictions/rrr4y6x1n1rmc0cm3tav9k0fzr',
      `GET ${new URL(image).pathname}`,
      'GET /delivery/xezq/abc/out-1.webp',
    ]);
  });

  test('an image that cannot be downloaded is a failure envelope, not a crash', async () => {
    replay.enqueue(
      rehosted(
        'replicate.prediction/success/image-urls.json',
        'https://replicate.delivery',
        `${replay.url}/delivery`,
        {
          match: '/predictions',
        },
      ),
    );
    replay.enqueue({ status: 404, body: { detail: 'Not found.' }, match: '/delivery/' });
    replay.enqueue({ body_base64: WEBP, match: '/delivery/' });
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/images', {
        model: 'replicate:black-forest-labs/flux-schnell',
        prompt: 'x',
      }),
    );
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'replicate',
      error: { code: 'NOT_FOUND' },
    });
  });

  test('a modality Replicate lacks through the gateway is a VALIDATION_ERROR naming what it offers', async () => {
    const answer = await readEnvelope(
      await post(gatewayWith(), '/v1/speech', { model: 'replicate:some/tts', input: 'Hello' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'system',
      error: {
        code: 'VALIDATION_ERROR',
        message:
          'Provider "replicate" offers no speech models through the gateway; it offers images, videos.',
        details: { modality: 'speech', offered: ['images', 'videos'] },
      },
    });
    const video = await readEnvelope(
      await post(gatewayWith(), '/v1/videos', { model: 'openai:sora-2', prompt: 'A cat' }),
    );
    expect(video.envelope).toMatchObject({
      error: {
        message: expect.stringMatching(/^Provider "openai" offers no video models through the gateway;/),
      },
    });
    expect(replay.requests).toEqual([]);
  });
});
