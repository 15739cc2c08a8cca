import { generateText, jsonSchema, streamText, type ToolSet } from 'ai';
import { describe, expect, test } from 'vitest';
import { DEMO_MODELS } from '../../src/gateway/demo/create-demo-models.js';
import { createGateway, providersFromEnv } from '../../src/gateway/index.js';
import { fromGenerateText, fromStreamText } from '../../src/unified/ai-sdk.js';
import { postJson, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';

const gateway = createGateway({ providers: { demo: {} } });

const post = (path: string, body: unknown) => postJson(gateway, path, body);

describe('the demo provider through the gateway', () => {
  test.each([
    ['/v1/text', { model: 'demo:chat', input: 'Say hi' }, "Hello! I'm doing well"],
    ['/v1/images', { model: 'demo:image', prompt: 'a lighthouse', n: 2 }, 'Generated 2 images.'],
    ['/v1/speech', { model: 'demo:tts', input: 'Hello' }, 'Generated speech audio (audio/mpeg).'],
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

  test('images, audio and video carry media', async () => {
    const images = (await readEnvelope(await post('/v1/images', { model: 'demo:x', prompt: 'p' }))).envelope;
    expect(images.images).toEqual([{ data: expect.stringMatching(/^iVBORw0KGgo/), media_type: 'image/png' }]);
    const speech = (await readEnvelope(await post('/v1/speech', { model: 'demo:x', input: 'p' }))).envelope;
    expect(speech.files?.[0]).toMatchObject({ media_type: 'audio/mpeg', name: 'speech.mp3' });
    const video = (await readEnvelope(await post('/v1/videos', { model: 'demo:x', prompt: 'p' }))).envelope;
    expect(video.videos?.[0]).toMatchObject({
      media_type: 'video/mp4',
      url: expect.stringMatching(/^https:/),
    });
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

  test('GET /v1/models labels it as the demo, offering every modality', async () => {
    const { envelope } = await readEnvelope(await gateway.request('/v1/models'));
    expect(envelope.metadata.providers).toEqual([
      {
        id: 'demo',
        type: 'demo',
        modalities: ['text', 'images', 'speech', 'transcriptions', 'videos', 'embeddings'],
        demo: true,
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
