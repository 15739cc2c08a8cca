import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createClient, type ResponseInfo, type TextStreamEvent } from '../../src/client/index.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { validateUnifiedOutput } from '../../src/unified/index.js';
import { AGENT_TOOLS } from '../gateway/agent-wire.js';
import { useReplay } from '../gateway/use-replay.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { type Served, serveFetch } from './serve-gateway.js';

const replayServer = useReplay();
let replay: ReplayProviders;
let served: Served;
const KEY = 'gw-client-key-0123456789';

beforeAll(async () => {
  replay = replayServer();
  served = await serveFetch((request) =>
    createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      keys: [KEY],
      retries: 0,
      videoPollMs: 5,
    }).fetch(request),
  );
});
beforeEach(() => {
  replay = replayServer();
});
afterAll(() => served.close());

function client() {
  return createClient({ baseURL: served.url, key: KEY });
}

async function collect(events: AsyncIterable<TextStreamEvent>): Promise<TextStreamEvent[]> {
  const all: TextStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('createClient', () => {
  test('text() answers the envelope, narrowed by success, with the key sent as a Bearer token', async () => {
    const answer = await client().text({ model: 'anthropic:claude-sonnet-4-5', input: 'Say hi' });
    expect(answer.success).toBe(true);
    if (answer.success) expect(answer.content).toBe('Bonjour !');
    expect(replay.requests).toHaveLength(1);
    const refused = await createClient({ baseURL: served.url }).text({ model: 'openai:x', input: 'Hi' });
    expect(refused).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'AUTHENTICATION_ERROR' },
    });
  });

  test('text() passes tool calls through in metadata.tool_calls', async () => {
    replay.enqueue(fixture('openai.chat/success/tool-calls.json'));
    const answer = await client().text({
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [...AGENT_TOOLS],
    });
    if (!answer.success) throw new Error(answer.error.message);
    expect(answer.metadata.tool_calls).toEqual([
      { id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } },
    ]);
  });

  test('streamText() yields deltas then the envelope, equal to text() for the same answer', async () => {
    const events = await collect(client().streamText({ model: 'openai:gpt-4.1-nano', input: 'Say hello' }));
    expect(events.map((event) => event.type)).toEqual(['delta', 'delta', 'envelope']);
    const last = events.at(-1);
    if (last?.type !== 'envelope') throw new Error('no envelope');
    expect(last.envelope).toMatchObject({ success: true, content: 'Hello!' });
    const deltas = events.flatMap((event) => (event.type === 'delta' ? [event.text] : []));
    expect(deltas.join('')).toBe('Hello!');
  });

  test('streamText() yields tool-call events', async () => {
    replay.enqueue(fixture('openai.chat/success/stream-tool-call.json'));
    const events = await collect(
      client().streamText({ model: 'openai:gpt-4.1', input: 'Look it up', tools: [...AGENT_TOOLS] }),
    );
    expect(events[0]).toMatchObject({ type: 'tool_call_start', id: 'call_9', name: 'lookup' });
    expect(events.filter((event) => event.type === 'tool_call_delta').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({
      type: 'envelope',
      envelope: { metadata: { finish_reason: 'tool_calls' } },
    });
  });

  test('a failure before the stream starts is one envelope event', async () => {
    const events = await collect(client().streamText({ model: 'nope:x', input: 'Hi' }));
    expect(events).toEqual([
      {
        type: 'envelope',
        envelope: expect.objectContaining({
          success: false,
          error: expect.objectContaining({ code: 'NOT_FOUND' }),
        }),
      },
    ]);
  });

  test('images(), speech(), transcribe() (JSON and Blob), videos() and models() answer envelopes', async () => {
    const verdict = client();
    const images = await verdict.images({ model: 'openai:gpt-image-1', prompt: 'a fox' });
    expect(images.success && images.images.length).toBe(1);
    const speech = await verdict.speech({ model: 'openai:tts-1', input: 'Hello', voice: 'alloy' });
    expect(speech.success && speech.files[0]?.media_type).toBe('audio/mpeg');
    const json = await verdict.transcribe({
      model: 'openai:whisper-1',
      audio: 'SUQzBAAAAAAAD//7kGQAAA==',
      media_type: 'audio/mpeg',
    });
    expect(json).toMatchObject({ success: true, content: 'Hello from the recording.' });
    const blob = await verdict.transcribe({
      model: 'openai:whisper-1',
      audio: new Blob([Uint8Array.from(atob('SUQzBAAAAAAAD//7kGQAAA=='), (c) => c.charCodeAt(0))], {
        type: 'audio/mpeg',
      }),
      filename: 'hello.mp3',
    });
    expect(blob).toMatchObject({ success: true, content: 'Hello from the recording.' });
    const video = await verdict.videos({ model: 'replicate:minimax/video-01', prompt: 'a horse' });
    expect(video.success && video.videos.length).toBe(1);
    const models = await verdict.models();
    expect(models).toMatchObject({ success: true, provider: 'system' });
  });

  test('videos() with wait false, then waitForVideo() polls the job until it is done', async () => {
    const verdict = client();
    const started = await verdict.videos({
      model: 'replicate:minimax/video-01',
      prompt: 'a horse',
      wait: false,
    });
    if (!started.success) throw new Error(started.error.message);
    expect(started.metadata.job_status).toBe('pending');
    const done = await verdict.waitForVideo(String(started.metadata.job_id), { intervalMs: 1, maxPolls: 5 });
    expect(done).toMatchObject({ success: true, metadata: { job_status: 'completed' } });
  });
});

describe('onResponse', () => {
  test("hands over each answer's status and headers, the trace id among them", async () => {
    const seen: ResponseInfo[] = [];
    const onResponse = (info: ResponseInfo) => seen.push(info);
    const answer = await client().text({ model: 'openai:gpt-4o-mini', input: 'Say hi' }, { onResponse });
    const refused = await createClient({ baseURL: served.url }).models({ onResponse });
    expect(seen.map((info) => info.status)).toEqual([200, 401]);
    expect(seen[0]?.headers.get('x-trace-id')).toBe(answer.metadata.trace_id);
    expect(seen[1]?.headers.get('x-trace-id')).toBe(refused.metadata.trace_id);
  });

  test('is called once for a stream, before its first event', async () => {
    const order: string[] = [];
    const events = client().streamText(
      { model: 'openai:gpt-4.1-nano', input: 'Say hello' },
      { onResponse: (info) => order.push(`${info.status} ${info.headers.get('content-type')}`) },
    );
    for await (const event of events) order.push(event.type);
    expect(order).toEqual(['200 text/event-stream', 'delta', 'delta', 'envelope']);
  });

  test('is called for every poll of waitForVideo', async () => {
    const verdict = client();
    const started = await verdict.videos({
      model: 'replicate:minimax/video-01',
      prompt: 'a horse',
      wait: false,
    });
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
    const statuses: number[] = [];
    const done = await verdict.waitForVideo(String(started.metadata.job_id), {
      intervalMs: 1,
      onResponse: (info) => statuses.push(info.status),
    });
    expect(done).toMatchObject({ success: true, metadata: { job_status: 'completed' } });
    expect(statuses).toEqual([200, 200]);
  });

  test('passes the RateLimit headers on, and is not called when no answer arrives', async () => {
    const limited = createClient({
      baseURL: 'http://gateway.invalid',
      fetch: async () =>
        Response.json(await client().models(), {
          headers: { 'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '12' },
        }),
    });
    const seen: ResponseInfo[] = [];
    await limited.models({ onResponse: (info) => seen.push(info) });
    expect(['limit', 'remaining', 'reset'].map((name) => seen[0]?.headers.get(`ratelimit-${name}`))).toEqual([
      '60',
      '59',
      '12',
    ]);
    const down = await createClient({ baseURL: 'http://127.0.0.1:9' }).models({
      onResponse: (info) => seen.push(info),
    });
    expect(down).toMatchObject({ success: false, error: { code: 'PROVIDER_UNAVAILABLE' } });
    expect(seen).toHaveLength(1);
  });
});

describe('in a web page, a gateway that gives no answer', () => {
  const PAGE = 'http://console.test';
  afterEach(() => vi.unstubAllGlobals());

  /** A client in a page at PAGE whose calls fail as a browser's do, and whose `no-cors` probe `answers` or not. */
  function inPage(baseURL: string, answers: boolean) {
    vi.stubGlobal('location', { origin: PAGE });
    const asked: { url: string; mode: RequestMode | undefined }[] = [];
    const verdict = createClient({
      baseURL,
      fetch: async (input, init) => {
        asked.push({ url: String(input), mode: init?.mode });
        if (init?.mode === 'no-cors' && answers) return new Response(null, { status: 200 });
        throw new TypeError('Failed to fetch');
      },
    });
    return { verdict, asked };
  }

  test('refusing the page origin (CORS) is told from being down by a no-cors probe of /healthz', async () => {
    const refusing = inPage('http://127.0.0.1:8787/', true);
    expect(await refusing.verdict.models()).toMatchObject({
      success: false,
      provider: 'system',
      error: {
        code: 'PROVIDER_UNAVAILABLE',
        message: `The gateway at http://127.0.0.1:8787 answers but refuses requests from this page's origin (${PAGE}): its cors.origins setting must list "${PAGE}".`,
        details: { reason: 'origin_refused', gateway: 'http://127.0.0.1:8787', page_origin: PAGE },
      },
    });
    expect(refusing.asked).toEqual([
      { url: 'http://127.0.0.1:8787/v1/models', mode: undefined },
      { url: 'http://127.0.0.1:8787/healthz', mode: 'no-cors' },
    ]);
    const down = inPage('http://127.0.0.1:8787', false);
    const events = await collect(down.verdict.streamText({ model: 'openai:x', input: 'Hi' }));
    expect(events).toMatchObject([
      {
        type: 'envelope',
        envelope: {
          success: false,
          error: {
            code: 'PROVIDER_UNAVAILABLE',
            message: 'No answer from the gateway: Failed to fetch',
            details: { reason: 'unreachable', gateway: 'http://127.0.0.1:8787' },
          },
        },
      },
    ]);
  });

  test('on its own origin, or aborted, it sends no probe', async () => {
    const own = inPage('', true);
    expect(await own.verdict.models()).toMatchObject({
      error: { code: 'PROVIDER_UNAVAILABLE', details: { reason: 'unreachable', gateway: PAGE } },
    });
    expect(own.asked.map((call) => call.url)).toEqual(['/v1/models']);
    // A fetch that a signal aborted rejects with an AbortError, whatever the origin.
    const asked: string[] = [];
    const stopped = createClient({
      baseURL: 'http://127.0.0.1:8787',
      fetch: async (input) => {
        asked.push(String(input));
        throw new DOMException('The operation was aborted.', 'AbortError');
      },
    });
    const controller = new AbortController();
    controller.abort();
    expect(await stopped.models({ signal: controller.signal })).toMatchObject({
      error: { code: 'REQUEST_TIMEOUT' },
    });
    expect(asked).toEqual(['http://127.0.0.1:8787/v1/models']);
  });
});

describe('transport failures are envelopes, never throws', () => {
  test('no gateway at the address: PROVIDER_UNAVAILABLE from system', async () => {
    const answer = await createClient({ baseURL: 'http://127.0.0.1:9' }).text({
      model: 'openai:x',
      input: 'Hi',
    });
    expect(answer).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'PROVIDER_UNAVAILABLE' },
    });
    expect(validateUnifiedOutput(answer).valid).toBe(true);
  });

  test('a body that is not an envelope: INVALID_PROVIDER_RESPONSE with the trace id of the answer', async () => {
    const html = createClient({
      baseURL: 'http://gateway.invalid',
      fetch: async () =>
        new Response('<html>Sign in</html>', { status: 200, headers: { 'x-trace-id': 'trace-html' } }),
    });
    expect(await html.models()).toMatchObject({
      success: false,
      provider: 'system',
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { http_status: 200 } },
      metadata: { trace_id: 'trace-html' },
    });
    const notEnvelope = createClient({
      baseURL: 'http://gateway.invalid',
      fetch: async () => Response.json({ ok: true }),
    });
    const answer = await notEnvelope.text({ model: 'openai:x', input: 'Hi' });
    expect(answer).toMatchObject({ success: false, error: { code: 'INVALID_PROVIDER_RESPONSE' } });
    expect(
      (answer as { error: { details: { violations: unknown[] } } }).error.details.violations.length,
    ).toBeGreaterThan(0);
  });

  test('a body over the limit is refused without reading it all', async () => {
    const big = createClient({
      baseURL: 'http://gateway.invalid',
      maxBodyBytes: 16,
      fetch: async () => new Response('x'.repeat(1000)),
    });
    expect(await big.models()).toMatchObject({
      success: false,
      error: { code: 'INVALID_PROVIDER_RESPONSE', details: { max_body_bytes: 16 } },
    });
  });

  test('a stream that closes before its envelope ends with PROVIDER_UNAVAILABLE', async () => {
    const cut = createClient({
      baseURL: 'http://gateway.invalid',
      fetch: async () =>
        new Response('event: delta\ndata: {"text":"Hel"}\n\n', {
          headers: { 'content-type': 'text/event-stream' },
        }),
    });
    const events = await collect(cut.streamText({ model: 'openai:x', input: 'Hi' }));
    expect(events[0]).toEqual({ type: 'delta', text: 'Hel' });
    expect(events[1]).toMatchObject({
      type: 'envelope',
      envelope: { success: false, provider: 'system', error: { code: 'PROVIDER_UNAVAILABLE' } },
    });
  });

  test('an aborted call is REQUEST_TIMEOUT', async () => {
    const controller = new AbortController();
    controller.abort();
    const answer = await client().text({ model: 'openai:x', input: 'Hi' }, { signal: controller.signal });
    expect(answer).toMatchObject({ success: false, provider: 'system', error: { code: 'REQUEST_TIMEOUT' } });
  });
});
