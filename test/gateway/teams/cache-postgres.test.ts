import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ResponseCache } from '../../../src/gateway/cache/response-cache.js';
import { resolveCacheSettings } from '../../../src/gateway/config/cache-settings.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { type GatewayStore, migrateStore, openStore } from '../../../src/gateway/store/index.js';
import type { UnifiedOutput } from '../../../src/unified/index.js';
import { startPostgres, type TestPostgres } from '../../helpers/embedded-postgres.mjs';
import type { ReplayProviders } from '../../helpers/replay-providers.js';
import { useReplay } from '../use-replay.js';

// Two gateway instances, each with its own pool, sharing the response cache through one real PostgreSQL
// (docs/gateway.md, "Cache").
const replayServer = useReplay();
let replay: ReplayProviders;
let postgres: TestPostgres;
let admin: GatewayStore;
let stores: GatewayStore[] = [];
let now = 1_800_000_000_000;

beforeAll(async () => {
  postgres = await startPostgres();
  admin = await openStore(postgres.url);
  await migrateStore(admin);
}, 180_000);
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await postgres?.close();
}, 60_000);
beforeEach(async () => {
  replay = replayServer();
  for (const store of stores) await store.close().catch(() => undefined);
  await admin.query('TRUNCATE verdict_cache, verdict_usage');
  stores = [];
  for (let index = 0; index < 2; index++) {
    stores.push(await openStore(postgres.url, { queryTimeoutMs: 10_000, onError: () => undefined }));
  }
});

function instance(store: GatewayStore, cache: GatewayOptions['cache'] = { ttl_s: 60 }): Gateway {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retries: 0,
    store,
    keys: ['static-key-of-the-cache-tests-0123'],
    cache,
    cacheClock: () => now,
  });
}

async function ask(gateway: Gateway, input: string) {
  const response = await gateway.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model: 'openai:gpt-4o-mini', input }),
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer static-key-of-the-cache-tests-0123',
    },
  });
  return {
    cache: response.headers.get('x-verdict-cache'),
    envelope: (await response.json()) as UnifiedOutput,
  };
}

function providerCalls(): number {
  return replay.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
}

/**
 * Wait until the store holds `count` entries: an instance writes its entry to the store after it answered, so
 * another instance finds it once the row is there.
 */
async function storedEntries(count: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if ((await rows()) === count) return;
  }
  throw new Error(`The store never held ${count} cache entries.`);
}

/** A cache of its own on `store`, to run a sweep with the given settings. */
function sweeper(config: GatewayOptions['cache'], store: GatewayStore | undefined): ResponseCache {
  const settings = resolveCacheSettings(config);
  if (settings === undefined) throw new Error('The cache settings are off.');
  return new ResponseCache(settings, { store, now: () => now });
}

async function rows(): Promise<number> {
  const counted = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM verdict_cache');
  return Number(counted[0]?.n ?? 0);
}

describe('the cache shared through PostgreSQL', () => {
  test("one instance's answer is another's hit", async () => {
    const [a, b] = stores.map((store) => instance(store)) as [Gateway, Gateway];
    const first = await ask(a, 'Capital of France?');
    expect(first.cache).toBe('miss');
    await storedEntries(1);
    const second = await ask(b, 'Capital of France?');
    expect(second.cache).toBe('hit');
    expect(second.envelope.metadata.cache).toMatchObject({
      status: 'hit',
      trace_id: first.envelope.metadata.trace_id,
    });
    expect(providerCalls()).toBe(1);
    expect(await rows()).toBe(1);
  });

  test('an expired entry answers no instance, and the sweep deletes it', async () => {
    const [a, b] = stores.map((store) => instance(store)) as [Gateway, Gateway];
    const first = await ask(a, 'Capital of France?');
    await storedEntries(1);
    now += 60_000;
    const second = await ask(b, 'Capital of France?');
    expect(second.cache).toBe('miss');
    expect(providerCalls()).toBe(2);
    // The new answer replaced the expired entry.
    let replaced = false;
    for (let tries = 0; tries < 500 && !replaced; tries++) {
      const stored = await admin.query<{ answer: string }>('SELECT answer FROM verdict_cache');
      replaced = stored[0]?.answer.includes(second.envelope.metadata.trace_id) === true;
    }
    expect(replaced).toBe(true);
    expect(first.envelope.metadata.trace_id).not.toBe(second.envelope.metadata.trace_id);
    now += 60_000;
    // The sweep runs off the request path now and then; the test runs one itself.
    expect(await sweeper({}, stores[0]).sweep()).toBe(1);
    expect(await rows()).toBe(0);
  });

  test('the sweep keeps the store under its size cap, newest entries first', async () => {
    const a = instance(stores[0] as GatewayStore);
    for (const city of ['France', 'Spain', 'Italy']) {
      await ask(a, `Capital of ${city}?`);
      now += 1_000;
    }
    await storedEntries(3);
    const sizes = await admin.query<{ bytes: number }>('SELECT bytes FROM verdict_cache ORDER BY stored_at');
    const newestTwo = sizes.slice(1).reduce((sum, row) => sum + Number(row.bytes), 0);
    expect(await sweeper({ max_store_bytes: newestTwo }, stores[1]).sweep()).toBe(1);
    expect(await rows()).toBe(2);
    // The oldest went: a second instance misses it and hits the newest.
    const b = instance(stores[1] as GatewayStore);
    expect((await ask(b, 'Capital of France?')).cache).toBe('miss');
    expect((await ask(b, 'Capital of Italy?')).cache).toBe('hit');
  });
});
