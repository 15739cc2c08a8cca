import OpenAI from 'openai';
import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createKey, migrateStore, openStore, queryRequests } from '../../src/gateway/store/index.js';
import { createHold, type ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

/**
 * The response cache (docs/gateway.md, "Cache") driven by the official `openai` client: chat completions plain
 * and streamed, and embeddings, each answered once by the provider and then from the cache, with
 * `x-verdict-cache` read from the raw response; and what a hit writes in the usage records.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const ADMIN = 'admin-key-of-the-cache-tests-0123456789';
const CHAT_MODEL = 'openai:gpt-4o-mini';
const EMBEDDING_MODEL = 'openai:text-embedding-3-small';

function gateway(options: GatewayOptions = {}): Gateway {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retries: 0,
    cache: { ttl_s: 60 },
    ...options,
  });
}

/** The official OpenAI client pointed at the gateway, in process. */
function openaiOf(app: Gateway, apiKey = 'unused-without-gateway-keys'): OpenAI {
  return new OpenAI({
    apiKey,
    baseURL: 'http://localhost/openai/v1',
    maxRetries: 0,
    fetch: async (input, init) => app.request(String(input), init as RequestInit),
  });
}

/** Provider requests that reached the replay server on a path ending so. */
function providerCalls(suffix: string): number {
  return replay.requests.filter((request) => request.path.endsWith(suffix)).length;
}

/** An OpenAI embeddings answer, as OpenAI's API documents it. */
function embeddingsAnswer(vectors: number[][], tokens = 5) {
  return {
    match: '/embeddings',
    body: {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

const QUESTION = {
  model: CHAT_MODEL,
  messages: [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: 'Capital of France?' },
  ],
};

describe('the OpenAI surface through the cache, with the official client', () => {
  test('a chat completion is answered once by the provider, then by the cache', async () => {
    const client = openaiOf(gateway());
    const first = await client.chat.completions.create(QUESTION).withResponse();
    const second = await client.chat.completions.create(QUESTION).withResponse();
    expect(first.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(second.response.headers.get('x-verdict-cache')).toBe('hit');
    expect(second.data.object).toBe('chat.completion');
    expect(second.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(second.data.usage).toEqual(first.data.usage);
    expect(second.data.model).toBe(first.data.model);
    // The client's own request id is the hit's trace id, not the original's.
    expect(second.request_id).not.toBe(first.request_id);
    expect(providerCalls('/chat/completions')).toBe(1);
    // The same request with members the answer does not depend on (the end user, stream options off) hits too.
    const asUser = await client.chat.completions
      .create({ ...QUESTION, user: 'someone', n: 1 })
      .withResponse();
    expect(asUser.response.headers.get('x-verdict-cache')).toBe('hit');
    // A parameter that changes the answer is another entry.
    const warmer = await client.chat.completions.create({ ...QUESTION, temperature: 0.9 }).withResponse();
    expect(warmer.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(providerCalls('/chat/completions')).toBe(2);
  });

  test('a streamed chat completion is replayed as the same chunks; a plain request gets its answer', async () => {
    const client = openaiOf(gateway());
    const rounds: { cache: string | null; deltas: string[]; usage: unknown }[] = [];
    for (let round = 0; round < 2; round++) {
      const { data, response } = await client.chat.completions
        .create({ ...QUESTION, stream: true, stream_options: { include_usage: true } })
        .withResponse();
      const deltas: string[] = [];
      let usage: unknown;
      for await (const chunk of data) {
        expect(chunk.object).toBe('chat.completion.chunk');
        const delta = chunk.choices[0]?.delta.content;
        if (typeof delta === 'string' && delta !== '') deltas.push(delta);
        if (chunk.usage) usage = chunk.usage;
      }
      rounds.push({ cache: response.headers.get('x-verdict-cache'), deltas, usage });
    }
    expect(rounds.map((round) => round.cache)).toEqual(['miss', 'hit']);
    expect(rounds[0]?.deltas.length).toBeGreaterThan(1);
    expect(rounds[1]?.deltas).toEqual(rounds[0]?.deltas);
    expect(rounds[1]?.usage).toEqual(rounds[0]?.usage);
    const plain = await client.chat.completions.create(QUESTION).withResponse();
    expect(plain.response.headers.get('x-verdict-cache')).toBe('hit');
    expect(plain.data.choices[0]?.message.content).toBe(rounds[0]?.deltas.join(''));
    expect(providerCalls('/chat/completions')).toBe(1);
  });

  test('embeddings: one entry answers floats and base64, one text or a list of it; dimensions make another', async () => {
    const client = openaiOf(gateway());
    const vector = [0.25, -0.5, 0.125, 1];
    replay.enqueue(embeddingsAnswer([vector]));
    const first = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: 'The quick brown fox', encoding_format: 'float' })
      .withResponse();
    expect(first.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(first.data.data[0]?.embedding).toEqual(vector);
    // The client asks for base64 by default and decodes it: the entry's numbers, encoded for this request.
    const second = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: ['The quick brown fox'] })
      .withResponse();
    expect(second.response.headers.get('x-verdict-cache')).toBe('hit');
    expect(second.data.data[0]?.embedding).toEqual(vector);
    expect(second.data.usage).toEqual(first.data.usage);
    const raw = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: 'The quick brown fox', encoding_format: 'base64' })
      .asResponse();
    expect(raw.headers.get('x-verdict-cache')).toBe('hit');
    const encoded = ((await raw.json()) as { data: { embedding: string }[] }).data[0]?.embedding ?? '';
    const bytes = Buffer.from(encoded, 'base64');
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)]).toEqual(vector);
    expect(providerCalls('/embeddings')).toBe(1);

    replay.enqueue(embeddingsAnswer([[0.5, 0.5]]));
    const fewer = await client.embeddings
      .create({
        model: EMBEDDING_MODEL,
        input: 'The quick brown fox',
        dimensions: 2,
        encoding_format: 'float',
      })
      .withResponse();
    expect(fewer.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(fewer.data.data[0]?.embedding).toEqual([0.5, 0.5]);
    // Whitespace inside a text is part of the text.
    replay.enqueue(embeddingsAnswer([[0.1, 0.2, 0.3, 0.4]]));
    const spaced = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: 'The quick  brown fox', encoding_format: 'float' })
      .withResponse();
    expect(spaced.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(providerCalls('/embeddings')).toBe(3);
    // The list in another order is another request: its answer's order is different.
    replay.enqueue(embeddingsAnswer([vector, [0, 0, 0, 1]]));
    const pair = ['The quick brown fox', 'jumps'];
    await client.embeddings.create({ model: EMBEDDING_MODEL, input: pair, encoding_format: 'float' });
    replay.enqueue(embeddingsAnswer([[0, 0, 0, 1], vector]));
    const reversed = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: [...pair].reverse(), encoding_format: 'float' })
      .withResponse();
    expect(reversed.response.headers.get('x-verdict-cache')).toBe('miss');
    expect(reversed.data.data.map((item) => item.embedding)).toEqual([[0, 0, 0, 1], vector]);
    expect(providerCalls('/embeddings')).toBe(5);
  });

  test('embeddings: a failure is never kept, and no-cache skips the read', async () => {
    const app = gateway();
    const client = openaiOf(app);
    replay.enqueue({ match: '/embeddings', status: 500, body: { error: { message: 'Upstream broke.' } } });
    const failed = (await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: 'text', encoding_format: 'float' })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.headers?.get('x-verdict-cache')).toBe('miss');
    replay.enqueue(embeddingsAnswer([[1, 2]]));
    const kept = await client.embeddings
      .create({ model: EMBEDDING_MODEL, input: 'text', encoding_format: 'float' })
      .withResponse();
    expect(kept.response.headers.get('x-verdict-cache')).toBe('miss');
    replay.enqueue(embeddingsAnswer([[3, 4]]));
    const skipped = await client.embeddings
      .create(
        { model: EMBEDDING_MODEL, input: 'text', encoding_format: 'float' },
        { headers: { 'cache-control': 'no-cache' } },
      )
      .withResponse();
    expect(skipped.response.headers.get('x-verdict-cache')).toBe('bypass');
    expect(skipped.data.data[0]?.embedding).toEqual([3, 4]);
    expect(providerCalls('/embeddings')).toBe(3);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('verdict_gateway_cache_misses_total 2');
    expect(metrics).toContain('verdict_gateway_cache_bypasses_total 1');
  });
});

describe('identical embeddings requests in flight', () => {
  test('20 at once make one provider call; the others wait for it and are hits', async () => {
    const client = openaiOf(gateway());
    const hold = createHold();
    replay.enqueue({ ...embeddingsAnswer([[0.75, -0.25]]), holdUntil: hold.promise });
    const body = { model: EMBEDDING_MODEL, input: 'the same text', encoding_format: 'float' as const };
    const answers = Array.from({ length: 20 }, () => client.embeddings.create(body).withResponse());
    // Released once the first request reached the provider; the others are waiting for it by then or soon.
    for (let turn = 0; turn < 100_000 && providerCalls('/embeddings') === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    hold.release();
    const done = await Promise.all(answers);
    const statuses = done.map((each) => each.response.headers.get('x-verdict-cache'));
    expect(statuses.filter((status) => status === 'miss')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'hit')).toHaveLength(19);
    for (const each of done) expect(each.data.data[0]?.embedding).toEqual([0.75, -0.25]);
    expect(providerCalls('/embeddings')).toBe(1);
  });
});

describe('usage records of hits', () => {
  test('a hit costs nothing and records what it saved; /v1/usage sums the savings', async () => {
    const store = await openStore(':memory:');
    await migrateStore(store);
    try {
      const { key } = await createKey(store, 'team-embed');
      const app = gateway({ store, adminKey: ADMIN });
      const client = openaiOf(app, key);
      replay.enqueue(embeddingsAnswer([[0.5, 0.25]], 2_000_000));
      const body = { model: EMBEDDING_MODEL, input: 'priced text', encoding_format: 'float' as const };
      expect(
        (await client.embeddings.create(body).withResponse()).response.headers.get('x-verdict-cache'),
      ).toBe('miss');
      for (let round = 0; round < 2; round++) {
        const hit = await client.embeddings.create(body).withResponse();
        expect(hit.response.headers.get('x-verdict-cache')).toBe('hit');
      }
      await client.chat.completions.create(QUESTION);
      await client.chat.completions.create(QUESTION);
      // Another instance on the same store answers from the store's entry: the same vectors, exactly.
      const otherApp = gateway({ store, adminKey: ADMIN });
      const shared = await openaiOf(otherApp, key).embeddings.create(body).withResponse();
      expect(shared.response.headers.get('x-verdict-cache')).toBe('hit');
      expect(shared.data.data[0]?.embedding).toEqual([0.5, 0.25]);
      expect(providerCalls('/embeddings')).toBe(1);

      expect(await app.flush(5000)).toBe(0);
      expect(await otherApp.flush(5000)).toBe(0);
      const records = (await queryRequests(store, { key: 'team-embed' }, { limit: 10 })).requests;
      const embeddings = records.filter((record) => record.route === '/openai/v1/embeddings');
      const miss = embeddings.find((record) => record.cache === 'miss');
      const hits = embeddings.filter((record) => record.cache === 'hit');
      expect(hits).toHaveLength(3);
      // 2 million tokens of an embedding model are priced: the hits saved that, and cost nothing.
      expect(miss?.cost_usd).toBeGreaterThan(0);
      expect(miss?.cost_saved_usd).toBeNull();
      for (const hit of hits) {
        expect(hit).toMatchObject({ input_tokens: 0, output_tokens: 0, cost_usd: 0, attempts: 0 });
        expect(hit.cost_saved_usd).toBe(miss?.cost_usd);
      }
      const chats = records.filter((record) => record.route === '/openai/v1/chat/completions');
      const chatMiss = chats.find((record) => record.cache === 'miss');
      const chatHit = chats.find((record) => record.cache === 'hit');
      expect(chatHit?.cost_saved_usd).toBe(chatMiss?.cost_usd);

      const usage = await app.request('/v1/usage?group_by=route', {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      const report = (await usage.json()).metadata.usage as {
        totals: { cost_saved_usd: number; cost_usd: number };
        groups: { group: string; cost_saved_usd: number }[];
      };
      const saved = 3 * (miss?.cost_usd ?? 0) + (chatMiss?.cost_usd ?? 0);
      expect(report.totals.cost_saved_usd).toBeCloseTo(saved, 12);
      expect(report.totals.cost_usd).toBeCloseTo((miss?.cost_usd ?? 0) + (chatMiss?.cost_usd ?? 0), 12);
      expect(
        report.groups.find((group) => group.group === '/openai/v1/embeddings')?.cost_saved_usd,
      ).toBeCloseTo(3 * (miss?.cost_usd ?? 0), 12);
    } finally {
      await store.close();
    }
  });
});
