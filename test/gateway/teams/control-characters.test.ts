import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import {
  createKey,
  type GatewayStore,
  migrateStore,
  openStore,
  StoreError,
  type UsageRecord,
  UsageWriter,
} from '../../../src/gateway/store/index.js';
import { startPostgres, type TestPostgres } from '../../helpers/embedded-postgres.mjs';
import { fixture, type ReplayProviders } from '../../helpers/replay-providers.js';
import { useReplay } from '../use-replay.js';

// PostgreSQL refuses a NUL in text ("invalid byte sequence for encoding UTF8: 0x00"): one bad id must neither
// reach the store nor, if one does, stop usage from being recorded. Run on both stores the gateway opens.
const replayServer = useReplay();
let replay: ReplayProviders;
const ADMIN = 'admin-key-of-the-tests-0123456789';
const STATIC = 'static-key-of-the-tests-0123456789';

function record(id: string, model: string | null = 'gpt-4o-mini'): UsageRecord {
  return {
    request_id: id,
    time: new Date().toISOString(),
    trace_id: id,
    key_name: null,
    route: '/v1/text',
    surface: 'verdict',
    provider: 'openai',
    model,
    target: null,
    attempts: 1,
    status: 200,
    code: 'ok',
    latency_ms: 1,
    input_tokens: 1,
    output_tokens: 1,
    cost_usd: null,
    cost_reason: null,
  };
}

/** A store whose usage inserts fail as a revoked grant does, while every other statement answers. */
function refusingInserts(inner: GatewayStore): GatewayStore {
  return {
    kind: inner.kind,
    location: inner.location,
    query: (async (sql: string, params?: readonly unknown[]) => {
      if (sql.startsWith('INSERT INTO verdict_usage')) {
        const cause = Object.assign(new Error('permission denied for table verdict_usage'), {
          code: '42501',
        });
        throw new StoreError('store_unreachable', `The store failed: ${cause.message}`, { cause });
      }
      return inner.query(sql, params);
    }) as GatewayStore['query'],
    transaction: inner.transaction.bind(inner),
    close: () => inner.close(),
  };
}

const stores: { name: string; open: () => Promise<{ store: GatewayStore; close: () => Promise<void> }> }[] = [
  {
    name: 'PGlite',
    open: async () => {
      const store = await openStore(':memory:');
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const postgres: TestPostgres = await startPostgres();
      const store = await openStore(postgres.url, { queryTimeoutMs: 10_000, onError: () => undefined });
      return {
        store,
        close: async () => {
          await store.close().catch(() => undefined);
          await postgres.close();
        },
      };
    },
  },
];

describe.each(stores)('control characters in ids on $name', ({ open }) => {
  let store: GatewayStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
    await migrateStore(store);
  }, 180_000);
  afterAll(async () => {
    await close?.();
  }, 60_000);
  beforeEach(async () => {
    replay = replayServer();
    await store.query('TRUNCATE verdict_keys, verdict_counters, verdict_usage, verdict_leases');
  });

  function gatewayOn(target: GatewayStore, log?: (line: string) => void) {
    return createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      retryBaseMs: 1,
      store: target,
      adminKey: ADMIN,
      keys: [STATIC],
      log,
    });
  }

  function post(gateway: ReturnType<typeof createGateway>, key: string, model: string) {
    return gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({ model, input: 'Capital of France?' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
  }

  test('a model id holding a NUL is a 400 at the edge, and usage goes on being recorded', async () => {
    const { key } = await createKey(store, 'team-a');
    const gateway = gatewayOn(store);
    for (const model of [
      'evil:x\u0000y',
      'openai:gpt\u001b[2J',
      'openai:\u0085',
      `openai:${'m'.repeat(300)}`,
    ]) {
      const refused = await post(gateway, key, model);
      expect(refused.status).toBe(400);
      const body = await refused.json();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(body)).toMatch(/control characters|at most 256|too_big|256/i);
    }
    expect((await post(gateway, key, 'openai:gpt-4o-mini')).status).toBe(200);
    expect(await gateway.flush()).toBe(0);
    const rows = await store.query<{ model: string | null; code: string }>(
      'SELECT model, code FROM verdict_usage ORDER BY time',
    );
    expect(rows).toHaveLength(5);
    expect(rows.map((row) => row.code)).toEqual([
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'ok',
    ]);
  });

  test('a NUL in a usage query is a 400, not a store failure', async () => {
    const gateway = gatewayOn(store);
    for (const query of ['key=a%00b', 'code=ok%00', 'trace_id=%00']) {
      const answer = await gateway.request(`/v1/usage/requests?${query}`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      expect(answer.status).toBe(400);
      expect((await answer.json()).error.code).toBe('VALIDATION_ERROR');
    }
    // A cursor is decoded: one that carries a NUL inside is not a cursor of a page.
    const cursor = Buffer.from(JSON.stringify([new Date().toISOString(), 'a\u0000b'])).toString('base64url');
    const answer = await gateway.request(`/v1/usage/requests?cursor=${cursor}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(answer.status).toBe(400);
    await gateway.flush();
  });

  test('the writer parks a record the store refuses, with one log line, and writes the rest', async () => {
    const parked: string[] = [];
    const writer = new UsageWriter(store, { onPark: (bad) => parked.push(bad.request_id) });
    writer.add(record('before'));
    writer.add(record('poison', 'evil:x\u0000y'));
    writer.add(record('after'));
    expect(await writer.flush(20_000)).toBe(0);
    expect(parked).toEqual(['poison']);
    expect(writer.stats).toMatchObject({ written: 2, parked: 1, dropped: 0, queued: 0 });
    writer.add(record('later'));
    expect(await writer.flush(20_000)).toBe(0);
    const rows = await store.query<{ request_id: string }>(
      "SELECT request_id FROM verdict_usage WHERE route = '/v1/text' AND key_name IS NULL ORDER BY request_id",
    );
    expect(rows.map((row) => row.request_id)).toEqual(['after', 'before', 'later']);
  });

  test('the writer parks a record missing a required value, and writes the rest', async () => {
    const parked: string[] = [];
    const writer = new UsageWriter(store, { onPark: (bad) => parked.push(bad.request_id) });
    writer.add(record('complete'));
    // A record from a writer of an older shape: the column it lacks is NOT NULL.
    writer.add({ ...record('incomplete'), surface: undefined } as unknown as UsageRecord);
    expect(await writer.flush(20_000)).toBe(0);
    expect(parked).toEqual(['incomplete']);
    expect(writer.stats).toMatchObject({ written: 1, parked: 1, dropped: 0, queued: 0 });
  });

  test('a model the provider reports with a control character is recorded with the character replaced', async () => {
    const lines: string[] = [];
    const gateway = gatewayOn(store, (line) => lines.push(line));
    const answer = fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json');
    replay.enqueue({ ...answer, body: { ...(answer.body as object), model: 'gpt\u0000-4o' } });
    const answer200 = await post(gateway, STATIC, 'openai:gpt-4o-mini');
    expect(answer200.status).toBe(200);
    expect(await gateway.flush()).toBe(0);
    const rows = await store.query<{ model: string }>('SELECT model FROM verdict_usage');
    expect(rows).toEqual([{ model: 'gpt\ufffd-4o' }]);
    expect(lines.filter((line) => line.includes('usage_write_failed'))).toEqual([]);
  });

  test('/healthz fails while the store answers but refuses every usage record', async () => {
    const lines: string[] = [];
    let failures = 0;
    let reached: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gateway = gatewayOn(refusingInserts(store), (line) => {
      lines.push(line);
      if (line.includes('usage_write_failed') && ++failures === 3) reached();
    });
    expect((await post(gateway, STATIC, 'openai:gpt-4o-mini')).status).toBe(200);
    await stuck;
    const health = await gateway.request('/healthz');
    expect(health.status).toBe(503);
    expect((await health.json()).error.details).toEqual({ store: 'up', usage_writer: 'stuck' });
    await gateway.flush(10);
  }, 30_000);
});
