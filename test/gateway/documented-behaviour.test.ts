import { createServer } from 'node:net';
import { beforeEach, describe, expect, test } from 'vitest';
import { checkGatewayConfig, createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/** What docs/gateway.md promises about request bodies, checked against the replay providers. */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

function gatewayWith(options: GatewayOptions = {}) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retries: 0,
    ...options,
  });
}

const CONVERSATION = [
  { role: 'system', content: 'Answer in one word.' },
  { role: 'user', content: 'Capital of France?' },
  { role: 'assistant', content: 'Paris.' },
  { role: 'user', content: 'And of Italy?' },
];

describe('POST /v1/text with a list of messages', () => {
  test.each([
    ['openai:gpt-4o-mini', (body: Record<string, unknown>) => body.messages, 'system'],
    ['anthropic:claude-sonnet-4-5', (body: Record<string, unknown>) => body.system, 'Answer in one word.'],
    [
      'google:gemini-2.5-flash',
      (body: Record<string, unknown>) => body.systemInstruction,
      'Answer in one word.',
    ],
  ])('%s takes a system message in the list, as the docs allow', async (model, systemOf, sent) => {
    for (const stream of [false, true]) {
      replay.reset();
      const response = await createGatewayRequest(model, stream);
      const envelope = stream
        ? readStreamEnvelope(await response.text()).envelope
        : (await readEnvelope(response)).envelope;
      expect(envelope).toMatchObject({ success: true });
      expect(JSON.stringify(systemOf(replay.requests[0]?.body as Record<string, unknown>))).toContain(sent);
    }
  });
});

function createGatewayRequest(model: string, stream: boolean) {
  return gatewayWith().request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model, input: CONVERSATION, ...(stream ? { stream: true } : {}) }),
  });
}

describe('checkGatewayConfig', () => {
  test('lists every problem at once: wrong types and unknown members with those between members', () => {
    const check = checkGatewayConfig({
      providers: {
        openai: { baseURL: 'not a url', colour: 'red' },
        'Bad Id': { type: 'openai' },
        local: {},
        odd: { type: 'telepathy', api: 'chat' },
        anthropic: { api: 'responses' },
      },
      aliases: { fast: 'mistral:small', both: ['openai:gpt-4o-mini', 'nowhere:x'], broken: 'no-colon' },
      retries: -1,
      nonsense: true,
    });
    expect(check.ok).toBe(false);
    const paths = check.ok ? [] : check.problems.map((problem) => problem.path);
    expect(paths.sort()).toEqual(
      [
        '/providers/openai/baseURL',
        '/providers/openai/colour',
        '/providers/odd/type',
        '/aliases/broken',
        '/retries',
        '/nonsense',
        '/providers/Bad Id',
        '/providers/local/baseURL',
        '/providers/anthropic/api',
        '/aliases/fast',
        '/aliases/both/1',
      ].sort(),
    );
  });

  test('a valid configuration passes', () => {
    const check = checkGatewayConfig({ providers: { openai: {} }, aliases: { fast: 'openai:gpt-4o-mini' } });
    expect(check).toMatchObject({ ok: true, config: { aliases: { fast: 'openai:gpt-4o-mini' } } });
  });
});

describe('the modality table', () => {
  test('an openai-compatible provider serves images from its images endpoint', async () => {
    const response = await gatewayWith().request('/v1/images', {
      method: 'POST',
      body: JSON.stringify({ model: 'openrouter:some/image-model', prompt: 'a red fox', n: 1 }),
    });
    const answer = await readEnvelope(response);
    expect(answer.status).toBe(200);
    expect(answer.envelope).toMatchObject({
      success: true,
      provider: 'openrouter',
      content: 'Generated 1 image.',
      images: [{ data: 'UklGRiQAAABXRUJQVlA4IBgAAAAw', media_type: 'image/webp' }],
    });
    expect(replay.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/v1/images/generations',
    ]);
    expect(replay.requests[0]?.headers.authorization).toBe('Bearer sk-or-replay-secret');
    expect(replay.requests[0]?.body).toMatchObject({ model: 'some/image-model', prompt: 'a red fox' });
  });
});

describe('retries', () => {
  test("OpenAI's retry-after-ms is honoured; one that would pass the deadline ends the retries at once", async () => {
    replay.enqueue({
      ...fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'),
      headers: { 'retry-after-ms': '5' },
    });
    const retried = await readEnvelope(
      await gatewayWith({ retries: 1 }).request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
      }),
    );
    expect(retried.envelope).toMatchObject({ success: true, metadata: { attempts: 2 } });

    replay.reset();
    replay.enqueue({
      ...fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'),
      headers: { 'retry-after-ms': '15000' },
    });
    // The asked wait (15 s) is within maxRetryAfterMs but past the deadline; the deadline is generous so that a
    // slow first attempt on a busy machine cannot reach it.
    const gateway = gatewayWith({ retries: 3, timeoutMs: 10_000, maxRetryAfterMs: 20000 });
    const limited = await readEnvelope(
      await gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
      }),
    );
    // Not a PROVIDER_TIMEOUT after waiting out the deadline: the provider's own answer, at once.
    expect(limited.status).toBe(429);
    expect(limited.envelope).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED' },
      metadata: { attempts: 1 },
    });
    expect(replay.requests).toHaveLength(1);
  });
});

/** A port on 127.0.0.1 that nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the providers' addresses stay out of answers", () => {
  test('a provider that cannot be reached is PROVIDER_UNAVAILABLE naming the network error, not the address', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const gateway = createGateway({
      providers: { openai: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-unreachable-secret' } },
      retries: 0,
      log: (line) => lines.push(line),
    });
    const response = await gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
    });
    const text = await response.clone().text();
    const answer = await readEnvelope(response);
    expect(answer.status).toBe(503);
    expect(answer.envelope).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'PROVIDER_UNAVAILABLE', message: 'Cannot connect to the provider (ECONNREFUSED).' },
    });
    for (const secret of [`:${port}`, '127.0.0.1', 'sk-unreachable-secret']) {
      expect(text).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
    }
  });
});

describe('streaming', () => {
  test('a deadline that passes after text was sent ends the stream with a PROVIDER_TIMEOUT envelope event', async () => {
    const stream = fixture('openai.chat/success/stream-text.json');
    const events = stream.events as { choices: { delta: { content?: string } }[] }[];
    // The first text at once, then silence past every deadline tried below. The deadline must
    // pass after the first text arrived: on a machine so busy that it did not, the answer is a plain 504
    // (correct, but not what this test is about), and the test tries again with a longer deadline.
    let response: Response | undefined;
    for (const timeoutMs of [1500, 5000, 15_000]) {
      replay.aborted.length = 0;
      replay.enqueue({ ...stream, events: events.slice(1), eventDelayMs: 20_000 });
      const gateway = gatewayWith({ routes: { text: { timeoutMs } } });
      response = await gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4.1-nano', input: 'Say hello', stream: true }),
      });
      if (response.status === 200) break;
      expect(response.status).toBe(504);
      await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
    }
    if (response === undefined) throw new Error('no answer');
    expect(response.status).toBe(200);
    const { deltas, envelope } = readStreamEnvelope(await response.text());
    expect(deltas).toEqual(['Hel']);
    expect(envelope).toMatchObject({
      success: false,
      provider: 'openai',
      error: { code: 'PROVIDER_TIMEOUT' },
    });
    await expect.poll(() => replay.aborted.length, { timeout: 15_000 }).toBe(1);
  });
});
