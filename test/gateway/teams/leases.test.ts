import { describe, expect, test, vi } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import {
  createKey,
  type GatewayStore,
  type KeyRecord,
  readCounts,
  readSpend,
  StoreError,
} from '../../../src/gateway/store/index.js';
import { CONSUMPTION_PACE_MS, KeyLeases, LEASE_PARTS } from '../../../src/gateway/store/key-leases.js';
import { useReplay } from '../use-replay.js';
import { useThreeInstances } from './use-three-instances.js';

// Leased admission (docs/gateway.md, "Leases") on both stores: three instances, each with its own pool on one
// embedded PostgreSQL, and three on one PGlite store.
const replay = useReplay();
const { stores } = useThreeInstances();
const NOON = new Date('2026-12-01T12:00:30.000Z');
const at = () => NOON;

/** A store that counts the statements and transactions it is asked for. */
function counting(inner: GatewayStore): GatewayStore & { statements: string[]; transactions: number } {
  const wrapped = {
    statements: [] as string[],
    transactions: 0,
    kind: inner.kind,
    location: inner.location,
    query: ((sql: string, params?: readonly unknown[]) => {
      wrapped.statements.push(sql);
      return inner.query(sql, params);
    }) as GatewayStore['query'],
    transaction: <T>(run: Parameters<GatewayStore['transaction']>[0]) => {
      wrapped.transactions++;
      return inner.transaction(run) as Promise<T>;
    },
    close: () => inner.close(),
  };
  return wrapped;
}

let serial = 0;
async function keyOn(store: GatewayStore, limits: Parameters<typeof createKey>[2]): Promise<KeyRecord> {
  serial++;
  return (await createKey(store, `lease-${serial}`, limits)).record;
}

describe.each(['postgres', 'pglite'] as const)('leases on %s, three instances', (kind) => {
  test('rpm is never passed: 300 concurrent admissions over three instances admit at most the rpm', async () => {
    const list = stores[kind];
    const key = await keyOn(list[0] as GatewayStore, { rpm: 100 });
    const instances = list.map((store) => new KeyLeases({ store }));
    const admissions = await Promise.all(
      Array.from({ length: 300 }, (_, index) => (instances[index % 3] as KeyLeases).admit(key, at)),
    );
    const admitted = admissions.filter((admission) => admission.admitted).length;
    expect(admitted).toBeLessThanOrEqual(100);
    // Refused only when the store has no request left: what is not admitted is at most a slice per instance,
    // leased by an instance whose callers were already served.
    expect(admitted).toBeGreaterThanOrEqual(100 - 3 * Math.floor(100 / LEASE_PARTS));
    const refused = admissions.find((admission) => !admission.admitted);
    expect(refused).toMatchObject({ admitted: false, refusal: { limit: 'rpm', value: 100 } });
    for (const instance of instances) expect(await instance.release(NOON)).toBe(0);
    expect((await readCounts(list[0] as GatewayStore, key, NOON)).minute_requests).toBe(admitted);
  }, 120_000);

  test('a slice not used goes back when its instance stops, and the minute counts only what was used', async () => {
    const list = stores[kind];
    const key = await keyOn(list[0] as GatewayStore, { rpm: 1600 });
    const [one, two] = list.map((store) => new KeyLeases({ store })) as [KeyLeases, KeyLeases];
    expect(await one.admit(key, at)).toMatchObject({ admitted: true });
    expect(await two.admit(key, at)).toMatchObject({ admitted: true });
    // Each leased a sixteenth of the rpm.
    expect((await readCounts(list[0] as GatewayStore, key, NOON)).minute_requests).toBe(
      2 * (1600 / LEASE_PARTS),
    );
    await one.release(NOON);
    await two.release(NOON);
    expect((await readCounts(list[0] as GatewayStore, key, NOON)).minute_requests).toBe(2);
  }, 60_000);

  test('tokens: admitted while a slice is left; past the budget by at most the tokens of the requests in flight', async () => {
    const list = stores[kind];
    const budget = 10_000;
    const perRequest = 700;
    const key = await keyOn(list[0] as GatewayStore, { budget_tokens: budget, budget_period: 'total' });
    const instances = list.map((store) => new KeyLeases({ store }));
    const inFlight = 4;
    let admitted = 0;
    let refused: unknown;
    // Four callers per instance, each admitting and then consuming, until refused.
    await Promise.all(
      Array.from({ length: 3 * inFlight }, async (_, caller) => {
        const leases = instances[caller % 3] as KeyLeases;
        for (;;) {
          const admission = await leases.admit(key, at);
          if (!admission.admitted) {
            refused = admission.refusal;
            return;
          }
          admitted++;
          leases.consume(key, { tokens: perRequest, usd: 0 }, NOON);
        }
      }),
    );
    for (const instance of instances) expect(await instance.release(NOON)).toBe(0);
    const consumed = (await readCounts(list[0] as GatewayStore, key, NOON)).period_tokens;
    expect(consumed).toBe(admitted * perRequest);
    expect(consumed).toBeGreaterThanOrEqual(budget);
    // The bound: every request admitted had a slice left when it came; past the budget are at most the
    // requests in flight at once over all instances, each with its tokens.
    expect(consumed - budget).toBeLessThanOrEqual(3 * inFlight * perRequest);
    expect(refused).toMatchObject({ limit: 'budget_tokens', value: budget, period: 'total' });
  }, 120_000);

  test("a crashed instance's dollar lease stops counting when it expires, and the budget is whole again", async () => {
    const list = stores[kind];
    const key = await keyOn(list[0] as GatewayStore, { budget_usd: 1, budget_period: 'total' });
    const crashed = new KeyLeases({ store: list[0] as GatewayStore });
    const survivor = new KeyLeases({ store: list[1] as GatewayStore });
    // The crashed instance asked for most of the budget (one call's worst case) and never came back.
    expect(await crashed.reserve(key, 0.9, 60_000, at)).toMatchObject({ reserved: true });
    const refused = await survivor.reserve(key, 0.5, 0, at);
    expect(refused).toMatchObject({ reserved: false, refusal: { limit: 'budget_usd', value: 1 } });
    const later = () => new Date(NOON.getTime() + 60_001);
    expect(await survivor.reserve(key, 0.5, 0, later)).toMatchObject({ reserved: true });
    expect(await survivor.release(later())).toBe(0);
    expect(await readSpend(list[0] as GatewayStore, key, later())).toEqual({ spent: 0, reserved: 0 });
  }, 60_000);
});

describe('store round trips', () => {
  test('admission whose lease has room takes no store round trip', async () => {
    const store = counting(stores.pglite[0] as GatewayStore);
    const key = await keyOn(store, {
      rpm: 16_000,
      tpm: 1_600_000,
      budget_tokens: 10_000_000,
      budget_usd: 100,
    });
    const leases = new KeyLeases({ store });
    expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
    expect(await leases.reserve(key, 0.01, 60_000, at)).toMatchObject({ reserved: true });
    const before = { statements: store.statements.length, transactions: store.transactions };
    for (let index = 0; index < 200; index++) {
      expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
      expect(await leases.reserve(key, 0.01, 60_000, at)).toMatchObject({ reserved: true });
    }
    expect(store.statements.length).toBe(before.statements);
    expect(store.transactions).toBe(before.transactions);
    expect(leases.exchanges).toBe(2);
  }, 60_000);

  test('consumption of answers that end close together shares an exchange, and all of it reaches the store', async () => {
    const store = counting(stores.pglite[0] as GatewayStore);
    const key = await keyOn(store, { tpm: 1_600_000, budget_tokens: 10_000_000 });
    const leases = new KeyLeases({ store });
    expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
    const before = leases.exchanges;
    const started = performance.now();
    // Twenty answers, each ending after the store has answered something else (as under load).
    for (let index = 0; index < 20; index++) {
      leases.consume(key, { tokens: 10, usd: 0 }, NOON);
      await store.query('SELECT 1');
    }
    const elapsed = performance.now() - started;
    await vi.waitFor(async () => expect((await readCounts(store, key, NOON)).period_tokens).toBe(200));
    // One exchange per pace at most (and one started before the loop's first pace ran out).
    expect(leases.exchanges - before).toBeLessThanOrEqual(2 + Math.ceil(elapsed / CONSUMPTION_PACE_MS));
    expect(await leases.release(NOON)).toBe(0);
  }, 60_000);

  test('through the gateway, a limited key costs no store statement per request besides its usage record', async () => {
    const store = counting(stores.pglite[0] as GatewayStore);
    const { key } = await createKey(store, 'lease-gateway', { rpm: 16_000 });
    const gateway = createGateway({
      providers: replay().providers() as GatewayOptions['providers'],
      store,
      storeClock: at,
    });
    const send = () =>
      gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Capital of France?' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      });
    expect((await send()).status).toBe(200);
    const warm = { statements: store.statements.length, transactions: store.transactions };
    for (let index = 0; index < 20; index++) expect((await send()).status).toBe(200);
    // The key's record is cached and its lease of requests has room: only the usage writer reaches the store.
    const during = store.statements.slice(warm.statements);
    expect(during.filter((sql) => !sql.includes('INSERT INTO verdict_usage'))).toEqual([]);
    expect(store.transactions).toBe(warm.transactions);
    expect(await gateway.flush()).toBe(0);
  }, 60_000);
});

describe('the store unreachable', () => {
  test('a lease with room admits without the store; consumption waits and is written when the store is back', async () => {
    const inner = stores.pglite[0] as GatewayStore;
    let down = false;
    const store: GatewayStore = {
      kind: inner.kind,
      location: inner.location,
      query: ((sql: string, params?: readonly unknown[]) =>
        down
          ? Promise.reject(new StoreError('store_unreachable', 'The store failed: connect ECONNREFUSED'))
          : inner.query(sql, params)) as GatewayStore['query'],
      transaction: (run) =>
        down
          ? Promise.reject(new StoreError('store_unreachable', 'The store failed: connect ECONNREFUSED'))
          : inner.transaction(run),
      close: () => inner.close(),
    };
    const key = await keyOn(inner, { rpm: 160, budget_tokens: 160_000, budget_period: 'month' });
    const failures: unknown[] = [];
    const leases = new KeyLeases({ store, onError: (error) => failures.push(error) });
    expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
    down = true;
    // Ten requests (the rpm's sixteenth) were leased: nine more are admitted with the store down.
    for (let index = 0; index < 9; index++) {
      expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
      leases.consume(key, { tokens: 100, usd: 0 }, NOON);
    }
    // The slice of requests is used up: the next admission needs the store, and fails as it does.
    await expect(leases.admit(key, at)).rejects.toThrow(/ECONNREFUSED/);
    expect(failures.length).toBeGreaterThan(0);
    down = false;
    // The consumption kept in memory goes with the next exchange.
    expect(await leases.admit(key, at)).toMatchObject({ admitted: true });
    expect((await readCounts(inner, key, NOON)).period_tokens).toBe(900);
    expect(await leases.release(NOON)).toBe(0);
  }, 60_000);
});
