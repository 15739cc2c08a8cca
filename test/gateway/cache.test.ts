import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, test } from 'vitest';
import { hashCacheKey, keyedTextRequest } from '../../src/gateway/cache/cache-key.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import {
  createKey,
  migrateStore,
  openStore,
  queryRequests,
  readCounts,
} from '../../src/gateway/store/index.js';
import type { UnifiedOutput } from '../../src/unified/index.js';
import { createHold, fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { parseSse, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

/**
 * The response cache (docs/gateway.md, "Cache") in front of the replay providers: what is a hit, a miss and a
 * bypass on `/v1/text` and the Anthropic surface, streams replayed event for event, what is never kept, and
 * identical requests in flight answered by one provider call.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const MODEL = 'openai:gpt-4o-mini';
const QUESTION = { model: MODEL, input: 'Capital of France?', temperature: 0 };

function gateway(options: GatewayOptions = {}): Gateway {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retries: 0,
    cache: { ttl_s: 60 },
    ...options,
  });
}

function post(app: Gateway, body: unknown, headers: Record<string, string> = {}, path = '/v1/text') {
  return app.request(path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Provider requests that reached the replay server for a chat completion. */
function providerCalls(): number {
  return replay.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
}

async function answer(response: Response): Promise<{ cache: string | null; envelope: UnifiedOutput }> {
  const cache = response.headers.get('x-verdict-cache');
  return { cache, envelope: (await readEnvelope(response)).envelope };
}

describe('POST /v1/text through the cache', () => {
  test('the first request misses and calls the provider; the same request then hits, honest about it', async () => {
    const app = gateway();
    const first = await answer(await post(app, QUESTION));
    expect(first.cache).toBe('miss');
    expect(first.envelope.metadata.cache).toBeUndefined();
    const second = await answer(await post(app, QUESTION));
    expect(second.cache).toBe('hit');
    expect(providerCalls()).toBe(1);
    if (!first.envelope.success || !second.envelope.success) throw new Error('expected successes');
    expect(second.envelope.content).toBe(first.envelope.content);
    expect(second.envelope.usage).toEqual(first.envelope.usage);
    expect(second.envelope.metadata.trace_id).not.toBe(first.envelope.metadata.trace_id);
    expect(second.envelope.metadata.attempts).toBe(0);
    // The provider's answer was priced; the hit cost nothing and says what it saved.
    expect(first.envelope.metadata.cost).toMatchObject({ source: 'genai-prices' });
    expect(second.envelope.metadata.cost).toBeUndefined();
    expect(second.envelope.metadata.cache).toEqual({
      status: 'hit',
      trace_id: first.envelope.metadata.trace_id,
      age_s: 0,
      cost_saved: first.envelope.metadata.cost,
    });
  });

  test('member order and whitespace do not change the key; any parameter that changes the answer does', async () => {
    const app = gateway();
    await post(app, QUESTION);
    const reordered = `{ "temperature" : 0,\n  "input": "Capital of France?",\t"model":"${MODEL}" }`;
    expect((await post(app, reordered)).headers.get('x-verdict-cache')).toBe('hit');
    expect((await post(app, { ...QUESTION, temperature: 0.5 })).headers.get('x-verdict-cache')).toBe('miss');
    expect(
      (await post(app, { ...QUESTION, input: 'Capital of Spain?' })).headers.get('x-verdict-cache'),
    ).toBe('miss');
    expect(providerCalls()).toBe(3);
  });

  test('an alias is keyed by the targets it resolves to, not by its name', async () => {
    const app = gateway({ aliases: { fast: MODEL, tried: [MODEL, 'openrouter:any-model'] } });
    expect((await post(app, QUESTION)).headers.get('x-verdict-cache')).toBe('miss');
    // An alias of the one target asked for by name is the same request.
    expect((await post(app, { ...QUESTION, model: 'fast' })).headers.get('x-verdict-cache')).toBe('hit');
    // An alias of other targets (here a fallback besides) is another entry.
    expect((await post(app, { ...QUESTION, model: 'tried' })).headers.get('x-verdict-cache')).toBe('miss');
    expect((await post(app, { ...QUESTION, model: 'tried' })).headers.get('x-verdict-cache')).toBe('hit');
    expect(providerCalls()).toBe(2);
  });

  test('cache-control: no-cache skips the read, no-store skips the write', async () => {
    const app = gateway();
    await post(app, QUESTION);
    const skipped = await post(app, QUESTION, { 'cache-control': 'no-cache' });
    expect(skipped.headers.get('x-verdict-cache')).toBe('bypass');
    expect(providerCalls()).toBe(2);
    const fresh = { ...QUESTION, input: 'Capital of Italy?' };
    expect((await post(app, fresh, { 'cache-control': 'no-store' })).headers.get('x-verdict-cache')).toBe(
      'miss',
    );
    expect((await post(app, fresh)).headers.get('x-verdict-cache')).toBe('miss');
    expect((await post(app, fresh)).headers.get('x-verdict-cache')).toBe('hit');
  });

  test('a namespace is its own set of entries; a bad TTL or namespace header is refused', async () => {
    const app = gateway();
    await post(app, QUESTION);
    const namespaced = { 'x-verdict-cache-namespace': 'eval-run-7' };
    expect((await post(app, QUESTION, namespaced)).headers.get('x-verdict-cache')).toBe('miss');
    expect((await post(app, QUESTION, namespaced)).headers.get('x-verdict-cache')).toBe('hit');
    for (const headers of [
      { 'x-verdict-cache-ttl': '0' },
      { 'x-verdict-cache-ttl': 'soon' },
      { 'x-verdict-cache-namespace': 'a b' },
    ]) {
      const refused = await answer(await post(app, QUESTION, headers));
      expect(refused.envelope.success ? undefined : refused.envelope.error.code).toBe('VALIDATION_ERROR');
      expect(refused.cache).toBe('bypass');
    }
  });

  test('the TTL ends an entry, by the cache clock; a request may ask for its own', async () => {
    let now = 1_700_000_000_000;
    const app = gateway({ cacheClock: () => now });
    await post(app, QUESTION, { 'x-verdict-cache-ttl': '10' });
    now += 9_000;
    const aged = await answer(await post(app, QUESTION));
    expect(aged.cache).toBe('hit');
    expect(aged.envelope.metadata.cache).toMatchObject({ age_s: 9 });
    now += 1_000;
    expect((await post(app, QUESTION)).headers.get('x-verdict-cache')).toBe('miss');
    expect(providerCalls()).toBe(2);
  });

  test('failures are never kept', async () => {
    const app = gateway();
    replay.enqueue(fixture('openai.chat/PROVIDER_ERROR/server-error-500.json'));
    const failed = await answer(await post(app, QUESTION));
    expect(failed.envelope.success).toBe(false);
    expect(failed.cache).toBe('miss');
    expect((await post(app, QUESTION)).headers.get('x-verdict-cache')).toBe('miss');
    expect(providerCalls()).toBe(2);
  });

  test('requests with provider_options are never cached', async () => {
    const app = gateway();
    const body = { ...QUESTION, provider_options: { openai: { user: 'someone' } } };
    expect((await post(app, body)).headers.get('x-verdict-cache')).toBe('bypass');
    expect((await post(app, body)).headers.get('x-verdict-cache')).toBe('bypass');
    expect(providerCalls()).toBe(2);
  });

  test('a route or an alias turned off bypasses the cache; without a cache no answer has the header', async () => {
    const offAlias = gateway({ aliases: { fresh: MODEL }, cache: { aliases: { fresh: false } } });
    await post(offAlias, { ...QUESTION, model: 'fresh' });
    expect((await post(offAlias, { ...QUESTION, model: 'fresh' })).headers.get('x-verdict-cache')).toBe(
      'bypass',
    );
    const offRoute = gateway({ cache: { routes: { text: false } } });
    await post(offRoute, QUESTION);
    expect((await post(offRoute, QUESTION)).headers.get('x-verdict-cache')).toBe('bypass');
    const none = gateway({ cache: undefined });
    expect((await post(none, QUESTION)).headers.has('x-verdict-cache')).toBe(false);
    const disabled = gateway({ cache: { enabled: false } });
    expect((await post(disabled, QUESTION)).headers.has('x-verdict-cache')).toBe(false);
    // Refusals and other routes of a gateway with a cache say bypass.
    expect((await app404()).headers.get('x-verdict-cache')).toBe('bypass');
  });

  test('an answer with immutable headers (a console handler passing on a fetched one) says bypass too', async () => {
    const app = gateway({ console: () => Response.redirect('http://localhost/console/', 302) });
    const answer = await app.request('/somewhere');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://localhost/console/');
    expect(answer.headers.get('x-verdict-cache')).toBe('bypass');
  });

  test('/openapi.json lists the cache headers of the routes that go through it', async () => {
    const document = (await (await gateway().request('/openapi.json')).json()) as {
      paths: Record<string, { post?: { parameters?: { name: string; in: string }[] } }>;
    };
    const headersOf = (path: string) =>
      (document.paths[path]?.post?.parameters ?? []).filter((parameter) => parameter.in === 'header');
    const names = ['cache-control', 'x-verdict-cache-ttl', 'x-verdict-cache-namespace'];
    expect(headersOf('/v1/text').map((parameter) => parameter.name)).toEqual(names);
    expect(headersOf('/anthropic/v1/messages').map((parameter) => parameter.name)).toEqual(names);
    expect(headersOf('/openai/v1/embeddings').map((parameter) => parameter.name)).toEqual(names);
    expect(headersOf('/v1/images')).toEqual([]);
  });

  test('/metrics counts hits, misses and bypasses', async () => {
    const app = gateway();
    await post(app, QUESTION);
    await post(app, QUESTION);
    await post(app, QUESTION, { 'cache-control': 'no-cache' });
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('verdict_gateway_cache_hits_total 1');
    expect(metrics).toContain('verdict_gateway_cache_misses_total 1');
    expect(metrics).toContain('verdict_gateway_cache_bypasses_total 1');
    expect(metrics).toMatch(/verdict_gateway_cache_memory_bytes [1-9]/);
  });
});

async function app404(): Promise<Response> {
  return gateway().request('/v1/nowhere');
}

describe('streams through the cache', () => {
  async function stream(app: Gateway, body: unknown = QUESTION, path = '/v1/text') {
    const response = await post(app, { ...(body as object), stream: true }, {}, path);
    return { cache: response.headers.get('x-verdict-cache'), text: await response.text() };
  }

  test('a streamed hit replays the stream event for event, then its own envelope', async () => {
    const app = gateway();
    const first = await stream(app);
    const second = await stream(app);
    expect([first.cache, second.cache]).toEqual(['miss', 'hit']);
    expect(providerCalls()).toBe(1);
    const before = parseSse(first.text);
    const after = parseSse(second.text);
    expect(before.filter((event) => event.event === 'delta').length).toBeGreaterThan(1);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    const original = readStreamEnvelope(first.text).envelope;
    const replayed = readStreamEnvelope(second.text).envelope;
    expect(replayed.metadata.cache).toMatchObject({ status: 'hit', trace_id: original.metadata.trace_id });
    if (!original.success || !replayed.success) throw new Error('expected successes');
    expect(replayed.content).toBe(original.content);
  });

  test('a plain request hit by a streamed entry gets the plain answer, and a stream is made from a plain entry', async () => {
    const app = gateway();
    const streamed = readStreamEnvelope((await stream(app)).text).envelope;
    const plain = await answer(await post(app, QUESTION));
    expect(plain.cache).toBe('hit');
    if (!plain.envelope.success || !streamed.success) throw new Error('expected successes');
    expect(plain.envelope.content).toBe(streamed.content);
    const other = { ...QUESTION, input: 'Capital of Peru?' };
    const kept = await answer(await post(app, other));
    const replayed = await stream(app, other);
    expect(replayed.cache).toBe('hit');
    const { deltas, envelope } = readStreamEnvelope(replayed.text);
    if (!kept.envelope.success) throw new Error('expected a success');
    expect(deltas.join('')).toBe(kept.envelope.content);
    expect(envelope.metadata.cache).toMatchObject({ status: 'hit' });
    expect(providerCalls()).toBe(2);
  });

  test('an answer larger than the entry size limit is served, not kept, streamed or not', async () => {
    const app = gateway({ cache: { max_entry_bytes: 64 } });
    expect((await stream(app)).cache).toBe('miss');
    expect((await stream(app)).cache).toBe('miss');
    expect((await post(app, QUESTION)).headers.get('x-verdict-cache')).toBe('miss');
    expect((await post(app, QUESTION)).headers.get('x-verdict-cache')).toBe('miss');
    expect(providerCalls()).toBe(4);
    expect(await (await app.request('/metrics')).text()).toContain('verdict_gateway_cache_too_large_total 4');
  });

  test('a stream cut short is never kept', async () => {
    const app = gateway();
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { dropAfterEvents: 3, eventDelayMs: 30 }));
    const cut = await stream(app);
    expect(cut.cache).toBe('miss');
    const { deltas, envelope } = readStreamEnvelope(cut.text);
    expect(deltas.length).toBeGreaterThan(0);
    expect(envelope.success).toBe(false);
    const again = await stream(app);
    expect(again.cache).toBe('miss');
    expect(readStreamEnvelope(again.text).envelope.success).toBe(true);
    expect(providerCalls()).toBe(2);
  });
});

describe('the Anthropic surface through the cache', () => {
  function client(app: Gateway) {
    return new Anthropic({
      baseURL: 'http://localhost/anthropic',
      apiKey: 'unused-without-gateway-keys',
      fetch: (async (input: string | URL | Request, init?: RequestInit) =>
        app.request(input instanceof Request ? input : String(input), init)) as typeof globalThis.fetch,
      maxRetries: 0,
    });
  }
  const REQUEST = {
    model: MODEL,
    max_tokens: 200,
    messages: [{ role: 'user' as const, content: 'Capital of France?' }],
  };

  test('the official client gets a hit as a Message, and a streamed hit as Anthropic events', async () => {
    const app = gateway();
    const first = await client(app).messages.create(REQUEST).withResponse();
    const second = await client(app).messages.create(REQUEST).withResponse();
    expect(first.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(second.response.headers.get('x-verdict-cache')).toBe('hit');
    expect(second.data.content).toEqual(first.data.content);
    expect(second.data.type).toBe('message');
    expect(providerCalls()).toBe(1);

    const texts: string[][] = [];
    const headers: (string | null)[] = [];
    for (let round = 0; round < 2; round++) {
      const pieces: string[] = [];
      const streamed = client(app).messages.stream({ ...REQUEST, max_tokens: 300 });
      streamed.on('text', (text) => pieces.push(text));
      const message = await streamed.finalMessage();
      expect(message.content[0]).toMatchObject({ type: 'text' });
      texts.push(pieces);
      headers.push((await streamed.withResponse()).response.headers.get('x-verdict-cache'));
    }
    expect(headers).toEqual(['miss', 'hit']);
    expect(texts[1]).toEqual(texts[0]);
    expect(providerCalls()).toBe(2);
  });
});

describe('provider options the key can hold', () => {
  test("the Anthropic surface's extended thinking is cached; other provider options are not", async () => {
    const app = gateway();
    const thinking = {
      model: MODEL,
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Capital of France?' }],
    };
    const headers = { 'anthropic-version': '2023-06-01' };
    const first = await post(app, thinking, headers, '/anthropic/v1/messages');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-verdict-cache')).toBe('miss');
    expect(
      (await post(app, thinking, headers, '/anthropic/v1/messages')).headers.get('x-verdict-cache'),
    ).toBe('hit');
    // Another budget is another request.
    const other = { ...thinking, thinking: { type: 'enabled', budget_tokens: 2048 } };
    expect((await post(app, other, headers, '/anthropic/v1/messages')).headers.get('x-verdict-cache')).toBe(
      'miss',
    );
    expect(providerCalls()).toBe(2);
    const mixed = {
      ...QUESTION,
      provider_options: { anthropic: { thinking: { type: 'adaptive' } }, openai: {} },
    };
    expect((await post(app, mixed)).headers.get('x-verdict-cache')).toBe('miss');
    expect((await post(app, mixed)).headers.get('x-verdict-cache')).toBe('hit');
    const unknown = { ...QUESTION, provider_options: { anthropic: { cacheControl: { type: 'ephemeral' } } } };
    expect((await post(app, unknown)).headers.get('x-verdict-cache')).toBe('bypass');
    expect(providerCalls()).toBe(4);
  });
});

describe('identical requests in flight', () => {
  test('50 concurrent identical requests make one provider call; the others are hits', async () => {
    const app = gateway();
    const hold = createHold();
    replay.enqueue(
      fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json', { holdUntil: hold.promise }),
    );
    const answers = Array.from({ length: 50 }, () => post(app, QUESTION));
    // Released once the first request reached the provider; the others are waiting for it by then or soon.
    for (let turn = 0; turn < 1000 && providerCalls() === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    hold.release();
    const responses = await Promise.all(answers);
    const statuses = responses.map((response) => response.headers.get('x-verdict-cache'));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(statuses.filter((status) => status === 'miss')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'hit')).toHaveLength(49);
    expect(providerCalls()).toBe(1);
  });
});

describe('identical streams in flight', () => {
  test('wait for the first stream to end, then replay it: one provider call', async () => {
    const app = gateway();
    const hold = createHold();
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { holdUntil: hold.promise }));
    const answers = Array.from({ length: 10 }, () => post(app, { ...QUESTION, stream: true }));
    for (let turn = 0; turn < 1000 && providerCalls() === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    hold.release();
    const responses = await Promise.all(answers);
    const texts = await Promise.all(responses.map((response) => response.text()));
    const statuses = responses.map((response) => response.headers.get('x-verdict-cache'));
    expect(statuses.filter((status) => status === 'miss')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'hit')).toHaveLength(9);
    const deltas = texts.map((text) => readStreamEnvelope(text).deltas);
    for (const each of deltas) expect(each).toEqual(deltas[0]);
    expect(providerCalls()).toBe(1);
  });
});

describe('keys and usage records', () => {
  test("entries are the key's own unless shared; a hit is recorded with no tokens and counts no tokens", async () => {
    const store = await openStore(':memory:');
    await migrateStore(store);
    try {
      const a = await createKey(store, 'team-a', { rpm: 1000, tpm: 1_000_000 });
      const b = await createKey(store, 'team-b');
      const clock = new Date('2026-03-02T10:00:30Z');
      const app = gateway({ store, storeClock: () => clock });
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      const missed = await answer(await post(app, QUESTION, as(a.key)));
      expect(missed.cache).toBe('miss');
      if (!missed.envelope.success) throw new Error('expected a success');
      const tokens = missed.envelope.usage.input_tokens + missed.envelope.usage.output_tokens;
      expect((await post(app, QUESTION, as(b.key))).headers.get('x-verdict-cache')).toBe('miss');
      expect((await post(app, QUESTION, as(a.key))).headers.get('x-verdict-cache')).toBe('hit');
      expect(await app.flush(5000)).toBe(0);
      const records = (await queryRequests(store, {}, { limit: 10 })).requests;
      const ofA = records.filter((record) => record.key_name === 'team-a');
      expect(ofA.map((record) => record.cache).sort()).toEqual(['hit', 'miss']);
      const hit = ofA.find((record) => record.cache === 'hit');
      expect(hit).toMatchObject({ input_tokens: 0, output_tokens: 0, attempts: 0, target: MODEL });
      // The limits counted both requests, and the tokens of the miss only (the counts are written off the
      // request's path: read once the miss's are there).
      let counts = await readCounts(store, a.record, clock);
      for (let tries = 0; tries < 500 && counts.minute_tokens === 0; tries++) {
        counts = await readCounts(store, a.record, clock);
      }
      expect(counts).toMatchObject({ minute_requests: 2, minute_tokens: tokens });

      // An entry whose envelope says its cost (metadata.cost) answers without it: the hit cost nothing, and
      // says what it saved.
      const body = { ...QUESTION, input: 'What does it cost?' };
      const key = await hashCacheKey({
        route: 'text',
        targets: [MODEL],
        request: keyedTextRequest(body),
        scope: 'team-a',
        namespace: '',
      });
      const priced = {
        ...missed.envelope,
        metadata: { ...missed.envelope.metadata, cost: { total_usd: 0.002 } },
      };
      const expires = new Date(Date.now() + 3_600_000);
      await store.query(
        'INSERT INTO verdict_cache (key, answer, bytes, stored_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [key, JSON.stringify({ envelope: priced }), 100, new Date().toISOString(), expires.toISOString()],
      );
      const saved = await answer(await post(app, body, as(a.key)));
      expect(saved.cache).toBe('hit');
      expect(saved.envelope.metadata.cost).toBeUndefined();
      expect(saved.envelope.metadata.cache).toMatchObject({ cost_saved: { total_usd: 0.002 } });

      const shared = gateway({ store, cache: { share: 'gateway' } });
      await post(shared, QUESTION, as(a.key));
      expect((await post(shared, QUESTION, as(b.key))).headers.get('x-verdict-cache')).toBe('hit');
    } finally {
      await store.close();
    }
  });
});
