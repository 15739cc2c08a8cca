import { inflateSync } from 'node:zlib';
import { generateText, jsonSchema, streamText, type ToolSet } from 'ai';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createDemoModels, DEMO_CATALOG } from '../../src/gateway/demo/create-demo-models.js';
import { createGateway, providersFromEnv } from '../../src/gateway/index.js';
import { fromGenerateText, fromStreamText } from '../../src/unified/ai-sdk.js';
import { postJson, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';

const gateway = createGateway({ providers: { demo: {} } });

const post = (path: string, body: unknown) => postJson(gateway, path, body);

const DEMO_MODELS = createDemoModels();

const bytesOf = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64');

/** A PNG's size and its distinct pixel colours, read back from its IHDR and IDAT (8-bit RGB, Sub filter). */
function readPng(png: Buffer): { width: number; height: number; colours: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 3 + 1;
  expect(raw.length).toBe(stride * height);
  const colours = new Set<number>();
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * stride + 1, (y + 1) * stride);
    for (let i = 3; i < row.length; i++) row[i] = ((row[i] ?? 0) + (row[i - 3] ?? 0)) & 0xff;
    for (let x = 0; x < width; x += 7) colours.add(row.readUIntBE(x * 3, 3));
  }
  return { width, height, colours: colours.size };
}

describe('the demo provider through the gateway', () => {
  test.each([
    ['/v1/text', { model: 'demo:chat', input: 'Say hi' }, "Hello! I'm doing well"],
    ['/v1/images', { model: 'demo:image', prompt: 'a lighthouse', n: 2 }, 'Generated 2 images.'],
    ['/v1/speech', { model: 'demo:tts', input: 'Hello' }, 'Generated speech audio (audio/wav).'],
    [
      '/v1/transcriptions',
      { model: 'demo:stt', audio: 'SUQzBAAAAAAAD//7kGQAAA==', media_type: 'audio/mpeg' },
      'The quick brown fox.',
    ],
    ['/v1/videos', { model: 'demo:video', prompt: 'a cat at a piano' }, 'Generated 1 video.'],
  ])('%s answers a recorded success that says it is the demo', async (path, body, content) => {
    const { envelope } = await readEnvelope(await post(path, body));
    expect(envelope.success).toBe(true);
    expect(envelope.content?.startsWith(content)).toBe(true);
    expect(envelope.provider).toBe('demo');
    expect(envelope.metadata.demo).toBe(true);
    expect(envelope.metadata.model).toBe(body.model.slice('demo:'.length));
  });

  test('an image has real pixels at the size asked for, or at the aspect ratio asked for', async () => {
    const sized = (
      await readEnvelope(await post('/v1/images', { model: 'demo:x', prompt: 'p', size: '320x200' }))
    ).envelope;
    expect(sized.images).toEqual([expect.objectContaining({ media_type: 'image/png' })]);
    expect(readPng(bytesOf(sized.images?.[0]?.data))).toEqual({
      width: 320,
      height: 200,
      colours: expect.any(Number),
    });
    expect(readPng(bytesOf(sized.images?.[0]?.data)).colours).toBeGreaterThan(50);
    const wide = (
      await readEnvelope(await post('/v1/images', { model: 'demo:x', prompt: 'p', aspect_ratio: '16:9' }))
    ).envelope;
    expect(readPng(bytesOf(wide.images?.[0]?.data))).toMatchObject({ width: 768, height: 432 });
    const plain = (await readEnvelope(await post('/v1/images', { model: 'demo:x', prompt: 'p' }))).envelope;
    expect(readPng(bytesOf(plain.images?.[0]?.data))).toMatchObject({ width: 512, height: 512 });
  });

  test('refuses to draw more than 2048×2048 pixels in one call, saying why', async () => {
    const { envelope } = await readEnvelope(
      await post('/v1/images', { model: 'demo:image', prompt: 'p', n: 10, size: '2048x2048' }),
    );
    expect(envelope.success).toBe(false);
    expect(envelope.success ? '' : envelope.error.message).toContain(
      'The demo draws at most 4194304 pixels per call',
    );
  });

  test('images are the same for the same request and differ with the prompt', async () => {
    const image = async (prompt: string) =>
      (await readEnvelope(await post('/v1/images', { model: 'demo:image', prompt, size: '64x64' }))).envelope
        .images?.[0]?.data;
    expect(await image('a lighthouse')).toBe(await image('a lighthouse'));
    expect(await image('a lighthouse')).not.toBe(await image('a forest'));
  });

  test('speech is a WAV chord of a second or more, or raw PCM; MP3 is refused with the formats it has', async () => {
    const speech = (await readEnvelope(await post('/v1/speech', { model: 'demo:tts', input: 'Hello there' })))
      .envelope;
    expect(speech.files?.[0]).toMatchObject({ media_type: 'audio/wav' });
    const wav = bytesOf(speech.files?.[0]?.data);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    const rate = wav.readUInt32LE(24);
    const seconds = wav.readUInt32LE(40) / 2 / rate;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(3);
    // Not silence: the samples swing well away from zero.
    let peak = 0;
    for (let at = 44; at < wav.length; at += 2) peak = Math.max(peak, Math.abs(wav.readInt16LE(at)));
    expect(peak).toBeGreaterThan(10_000);
    const pcm = (
      await readEnvelope(await post('/v1/speech', { model: 'demo:tts', input: 'Hello there', format: 'pcm' }))
    ).envelope;
    expect(bytesOf(pcm.files?.[0]?.data)).toEqual(wav.subarray(44));
    const mp3 = (
      await readEnvelope(await post('/v1/speech', { model: 'demo:tts', input: 'Hi', format: 'mp3' }))
    ).envelope;
    expect(mp3.success).toBe(false);
    expect(mp3.success ? '' : mp3.error.message).toContain('The demo speaks wav or pcm only, not mp3');
  });

  test('a video is a WebM the browser plays, carried in the envelope', async () => {
    const video = (await readEnvelope(await post('/v1/videos', { model: 'demo:x', prompt: 'p' }))).envelope;
    expect(video.videos?.[0]).toMatchObject({ media_type: 'video/webm' });
    const webm = bytesOf(video.videos?.[0]?.data);
    expect(webm.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])); // the EBML header
    expect(webm.toString('latin1', 0, 64)).toContain('webm');
    expect(webm.length).toBeGreaterThan(5000);
  });

  test('json_schema gets an object its schema accepts, in metadata.object', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, temperature: { type: 'number', minimum: -50, maximum: 60 } },
      required: ['city', 'temperature'],
      additionalProperties: false,
    };
    for (const stream of [false, true]) {
      const response = await post('/v1/text', {
        model: 'demo:chat',
        input: 'Weather in Oslo?',
        response_format: { type: 'json_schema', json_schema: { name: 'weather', schema } },
        stream,
      });
      const envelope = stream
        ? readStreamEnvelope(await response.text()).envelope
        : (await readEnvelope(response)).envelope;
      expect(envelope.success, JSON.stringify(envelope)).toBe(true);
      expect(envelope.metadata.object).toEqual({ city: 'demo city', temperature: 1 });
      expect(JSON.parse(envelope.content ?? '')).toEqual(envelope.metadata.object);
    }
    const object = (
      await readEnvelope(
        await post('/v1/text', { model: 'demo:chat', input: 'Hi', response_format: { type: 'json_object' } }),
      )
    ).envelope;
    expect(object.metadata.object).toEqual({ message: expect.stringContaining('Hello') });
  });

  test.each([
    ['/v1/text', { model: 'demo:fail', input: 'Say hi' }],
    ['/v1/text', { model: 'demo:fail', input: 'Say hi', stream: true }],
    ['/v1/images', { model: 'demo:fail', prompt: 'p' }],
    ['/v1/speech', { model: 'demo:fail', input: 'p' }],
    [
      '/v1/transcriptions',
      { model: 'demo:fail', audio: 'SUQzBAAAAAAAD//7kGQAAA==', media_type: 'audio/mpeg' },
    ],
    ['/v1/videos', { model: 'demo:fail', prompt: 'p' }],
  ])('%s with demo:fail answers a failure envelope at once, not retried', async (path, body) => {
    // A stream that fails before its first word is answered as a plain failure envelope, like any other.
    const { envelope } = await readEnvelope(await post(path, body));
    expect(envelope.success).toBe(false);
    expect(envelope.provider).toBe('demo');
    expect(envelope.success ? '' : envelope.error.message).toContain('fails on purpose');
    expect(envelope.success ? '' : envelope.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(envelope.metadata.attempts).toBe(1);
  });

  test('streams its text in deltas, then the same envelope', async () => {
    const response = await post('/v1/text', { model: 'demo:chat', input: 'Say hi', stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { deltas, envelope } = readStreamEnvelope(await response.text());
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(envelope.content);
    expect(envelope).toMatchObject({ success: true, provider: 'demo', metadata: { demo: true } });
    expect(envelope.usage).toEqual({ input_tokens: 4, output_tokens: 20 });
  });

  test('a video job answered with wait: false is finished when polled', async () => {
    const started = (
      await readEnvelope(await post('/v1/videos', { model: 'demo:video', prompt: 'p', wait: false }))
    ).envelope;
    expect(started.metadata).toMatchObject({ job_status: 'pending', demo: true });
    const polled = (await readEnvelope(await gateway.request(String(started.metadata.poll)))).envelope;
    expect(polled).toMatchObject({ success: true, provider: 'demo', metadata: { job_status: 'completed' } });
  });

  test('GET /v1/models labels it as the demo, offering every modality with two answering models and demo:fail', async () => {
    const { envelope } = await readEnvelope(await gateway.request('/v1/models'));
    expect(envelope.metadata.providers).toEqual([
      {
        id: 'demo',
        type: 'demo',
        modalities: ['text', 'images', 'speech', 'transcriptions', 'videos', 'embeddings'],
        // Every text option but parallel_tool_calls: the demo answers one tool call at most.
        text_options: [
          'temperature',
          'top_p',
          'top_k',
          'max_output_tokens',
          'stop',
          'seed',
          'presence_penalty',
          'frequency_penalty',
          'reasoning_effort',
          'tools',
          'tool_choice',
          'response_format',
          'provider_options',
        ],
        demo: true,
        models: DEMO_CATALOG,
      },
    ]);
  });

  test('is never configured from the environment', () => {
    const env = { OPENAI_API_KEY: 'sk-x', DEMO_API_KEY: 'x', VERDICT_DEMO: '1' };
    expect(Object.keys(providersFromEnv(env))).toEqual(['openai']);
    expect(Object.keys(providersFromEnv({}))).toEqual([]);
  });
});

describe('the demo text model as an AI SDK model', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const weather: ToolSet = {
    get_weather: {
      description: 'The weather in a city.',
      inputSchema: jsonSchema({
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city', 'days'],
      }),
    },
  };

  test('calls the offered tool with an input its schema accepts', async () => {
    const result = await generateText({
      model: DEMO_MODELS.text('chat'),
      prompt: 'Weather?',
      tools: weather,
    });
    expect(result.toolCalls).toMatchObject([{ toolName: 'get_weather', input: { city: 'Oslo', days: 1 } }]);
    const envelope = fromGenerateText(result, { provider: 'demo' });
    expect(envelope.metadata).toMatchObject({
      finish_reason: 'tool_calls',
      tool_calls: [{ name: 'get_weather' }],
    });
  });

  test('streams at the pace it was given, one word per pause, and at once without one', async () => {
    vi.useFakeTimers();
    const paced = createDemoModels({ paceMs: 1000 }).text('chat');
    const { stream } = await paced.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    const reader = stream.getReader();
    const deltas: string[] = [];
    let next = reader.read();
    while (deltas.length === 0) {
      const part = (await next).value;
      if (part?.type === 'text-delta') deltas.push(part.delta);
      next = reader.read();
    }
    // The second word waits for the pause: nothing arrives until the clock moves on by it.
    let arrived = false;
    void next.then(() => {
      arrived = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(arrived).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(arrived).toBe(true);
    await reader.cancel();
  });

  test('streams the tool call too', async () => {
    const result = streamText({ model: DEMO_MODELS.text('chat'), prompt: 'Weather?', tools: weather });
    const envelope = await fromStreamText(result as never, { provider: 'demo' });
    expect(envelope.metadata).toMatchObject({
      finish_reason: 'tool_calls',
      tool_calls: [{ name: 'get_weather' }],
    });
  });

  test('answers in text when no tool is offered, the choice is none, or a tool result came back', async () => {
    const plain = await generateText({ model: DEMO_MODELS.text('chat'), prompt: 'Hi' });
    expect(plain.toolCalls).toEqual([]);
    const none = await generateText({
      model: DEMO_MODELS.text('chat'),
      prompt: 'Hi',
      tools: weather,
      toolChoice: 'none',
    });
    expect(none.text).toBe(plain.text);
    const after = await generateText({
      model: DEMO_MODELS.text('chat'),
      tools: weather,
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'get_weather',
              output: { type: 'text', value: 'Sunny' },
            },
          ],
        },
      ],
    });
    expect(after.toolCalls).toEqual([]);
    expect(after.text).toBe(plain.text);
  });
});
