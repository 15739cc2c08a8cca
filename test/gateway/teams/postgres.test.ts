import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { run } from '../../../src/cli/run.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../../src/gateway/index.js';
import {
  createKey,
  type GatewayStore,
  MIGRATIONS,
  migrateStore,
  openStore,
  readCounts,
  revokeKey,
} from '../../../src/gateway/store/index.js';
import { startPostgres, type TestPostgres } from '../../helpers/embedded-postgres.mjs';
import { memoryIo } from '../../helpers/memory-io.js';
import type { ReplayProviders } from '../../helpers/replay-providers.js';
import { spawnCli } from '../../helpers/spawn-cli.js';
import { useReplay } from '../use-replay.js';

// Three gateway instances, each with its own pool, on one real PostgreSQL (docs/gateway.md, "Teams").
const replayServer = useReplay();
let replay: ReplayProviders;
let postgres: TestPostgres;
let admin: GatewayStore;
let instances: { gateway: Gateway; store: GatewayStore }[] = [];
const STATIC = 'static-key-of-the-tests-0123456789';
const TOKENS_PER_ANSWER = 1280;
/** The instances' clock: the system's, moved on by `offset` milliseconds when a test skips ahead. */
const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

beforeAll(async () => {
  postgres = await startPostgres();
  admin = await openStore(postgres.url);
  await migrateStore(admin);
}, 180_000);
afterAll(async () => {
  for (const instance of instances) await instance.store.close().catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await postgres?.close();
}, 60_000);
beforeEach(async () => {
  replay = replayServer();
  for (const instance of instances) await instance.store.close().catch(() => undefined);
  await admin.query('TRUNCATE verdict_keys, verdict_counters, verdict_usage, verdict_leases');
  instances = [];
  clock.offset = 0;
  for (let index = 0; index < 3; index++) {
    // Several instances migrating at once take turns on the advisory lock.
    // A generous deadline: on a busy machine a new connection alone can take a second.
    const store = await openStore(postgres.url, { queryTimeoutMs: 10_000, onError: () => undefined });
    instances.push({ store, gateway: undefined as unknown as Gateway });
  }
  await Promise.all(instances.map((instance) => migrateStore(instance.store)));
  for (const instance of instances) {
    instance.gateway = createGateway({
      providers: replay.providers() as GatewayOptions['providers'],
      retryBaseMs: 1,
      store: instance.store,
      keys: [STATIC],
      storeClock: clock.now,
    });
  }
});

async function text(gateway: Gateway, key: string): Promise<Response> {
  return gateway.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Capital of France?' }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  });
}

/** Send `total` requests over the instances in turn, `concurrency` at a time; answers every response in order. */
async function spread(total: number, concurrency: number, send: (gateway: Gateway) => Promise<Response>) {
  const answers: Response[] = new Array(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        answers[index] = await send((instances[index % instances.length] as { gateway: Gateway }).gateway);
      }
    }),
  );
  return answers;
}

async function usageRows(where = 'TRUE', params: unknown[] = []): Promise<number> {
  const rows = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM verdict_usage WHERE ${where}`,
    params,
  );
  return Number(rows[0]?.n ?? 0);
}

describe('three instances on one PostgreSQL', () => {
  test('rpm 60 over 300 requests: at most 60 admitted per minute window, the rest RATE_LIMITED with coherent headers', async () => {
    const { key } = await createKey(admin, 'team-a', { rpm: 60 });
    const answers = await spread(300, 30, (gateway) => text(gateway, key));
    const admitted = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    const others = answers.filter((answer) => answer.status !== 200 && answer.status !== 429);
    expect(await Promise.all(others.map(async (answer) => (await answer.json()).error))).toEqual([]);
    expect(admitted.length + limited.length).toBe(300);
    // Requests leased and not used go back to their minute when the instances stop.
    for (const instance of instances) expect(await instance.gateway.flush()).toBe(0);
    // A run that crosses a minute boundary has two windows; each leases at most 60 (under the key's lock).
    const windows = await admin.query<{ used: string }>(
      "SELECT used FROM verdict_counters WHERE key_name = 'team-a' AND kind = 'requests'",
    );
    for (const window of windows) expect(Number(window.used)).toBeLessThanOrEqual(60);
    // Within one minute every leased request not used went back; a minute that ended kept its unused slices
    // (docs/gateway.md, "Leases"), so across a boundary the counters hold at least what was admitted.
    const used = windows.reduce((sum, window) => sum + Number(window.used), 0);
    if (windows.length === 1) expect(admitted.length).toBe(used);
    else expect(admitted.length).toBeLessThanOrEqual(used);
    expect(admitted.length).toBeLessThanOrEqual(60 * windows.length);
    expect(admitted.length).toBeGreaterThanOrEqual(60);
    for (const answer of limited) {
      const reset = answer.headers.get('ratelimit-reset');
      expect(answer.headers.get('ratelimit-limit')).toBe('60');
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      expect(answer.headers.get('retry-after')).toBe(reset);
      expect(Number(reset)).toBeGreaterThanOrEqual(1);
      expect(Number(reset)).toBeLessThanOrEqual(60);
      expect((await answer.json()).error.details).toMatchObject({ limit: 'rpm', value: 60 });
    }
    for (const answer of admitted) {
      const remaining = Number(answer.headers.get('ratelimit-remaining'));
      expect(remaining).toBeGreaterThanOrEqual(0);
      expect(remaining).toBeLessThan(60);
    }
    expect(replay.requests).toHaveLength(admitted.length);
    expect(await usageRows("key_name = 'team-a' AND code = 'ok'")).toBe(admitted.length);
    expect(await usageRows("key_name = 'team-a'")).toBe(300);
  }, 120_000);

  test('a budget that runs out mid-run is exceeded by at most the documented bound', async () => {
    const concurrency = 6;
    const budget = TOKENS_PER_ANSWER * 10;
    const { key, record } = await createKey(admin, 'team-b', {
      budget_tokens: budget,
      budget_period: 'total',
    });
    const answers = await spread(60, concurrency, (gateway) => text(gateway, key));
    const admitted = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 402);
    expect(admitted + refused.length).toBe(60);
    expect(admitted).toBeGreaterThanOrEqual(10);
    // Documented bound: requests in flight, and finished ones whose count is still being written (one write
    // each), at most twice the key's concurrency, each with its answer's tokens.
    expect(admitted).toBeLessThanOrEqual(10 + 2 * concurrency);
    expect((await (refused[0] as Response).json()).error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { limit: 'budget_tokens', value: budget, period: 'total' },
    });
    for (const instance of instances) await instance.gateway.flush();
    const counted = await readCounts(admin, record, new Date());
    expect(counted.period_tokens).toBe(admitted * TOKENS_PER_ANSWER);
    expect(counted.period_tokens - budget).toBeLessThanOrEqual(2 * concurrency * TOKENS_PER_ANSWER);
  }, 120_000);

  test("a revoked key is refused on every instance within the key cache's 5 s", async () => {
    const { key } = await createKey(admin, 'team-c');
    for (const { gateway } of instances) expect((await text(gateway, key)).status).toBe(200);
    await revokeKey(admin, 'team-c');
    clock.offset += 5_000;
    for (const { gateway } of instances) expect((await text(gateway, key)).status).toBe(401);
  });

  test('PostgreSQL stopped mid-run and restarted: no hung request, limited keys refused meanwhile, no usage lost', async () => {
    const { key } = await createKey(admin, 'team-d', { rpm: 100_000 });
    const statuses: number[] = [];
    const send = async (gateway: Gateway, which: string) => {
      // A request that hangs would hold the run past this test's deadline; each must end on its own.
      const answer = await text(gateway, which);
      statuses.push(answer.status);
      return answer;
    };
    await spread(30, 5, (gateway) => send(gateway, key));
    expect(statuses.every((status) => status === 200)).toBe(true);
    await postgres.stop();
    // Leases with room and cached key records keep admitting for a while; a minute on, both must be read.
    clock.offset += 60_000;
    const during = await spread(30, 5, (gateway) => send(gateway, key));
    expect(during.every((answer) => answer.status === 503)).toBe(true);
    expect((await (during[0] as Response).json()).error).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      details: { store: 'unreachable' },
    });
    const staticDuring = await spread(9, 3, (gateway) => send(gateway, STATIC));
    expect(staticDuring.every((answer) => answer.status === 200)).toBe(true);
    for (const { gateway } of instances) expect((await gateway.request('/healthz')).status).toBe(503);
    await postgres.start();
    for (const { gateway } of instances) {
      let health = 0;
      for (let round = 0; round < 50 && health !== 200; round++)
        health = (await gateway.request('/healthz')).status;
      expect(health).toBe(200);
    }
    const after = await spread(30, 5, (gateway) => send(gateway, key));
    expect(after.every((answer) => answer.status === 200)).toBe(true);
    let dropped = 0;
    for (const { gateway } of instances) dropped += await gateway.flush(20_000);
    const total = 30 + 30 + 9 + 30;
    expect((await usageRows()) + dropped).toBe(total);
    expect(dropped).toBe(0);
  }, 180_000);
});

describe('verdict gateway keys and migrate on PostgreSQL', () => {
  test('create, list, show, update and revoke round trip; the key is printed once and never stored', async () => {
    const store = ['--store', postgres.url, '--json'];
    const migrated = await spawnCli(['gateway', 'migrate', ...store]);
    expect(migrated.status).toBe(0);
    expect(JSON.parse(migrated.stdout)).toMatchObject({
      success: true,
      version: MIGRATIONS.length,
      applied: [],
    });
    const created = await spawnCli([
      'gateway',
      'keys',
      'create',
      '--name',
      'team-cli',
      '--rpm',
      '60',
      '--budget-tokens',
      '100000',
      '--budget-period',
      'month',
      '--models',
      'openai:*,anthropic:claude-*',
      ...store,
    ]);
    expect(created.status).toBe(0);
    const document = JSON.parse(created.stdout);
    expect(document).toMatchObject({
      success: true,
      record: {
        name: 'team-cli',
        rpm: 60,
        budget_tokens: 100000,
        budget_period: 'month',
        models: ['openai:*', 'anthropic:claude-*'],
      },
    });
    const key = document.key as string;
    expect(key).toMatch(/^vk_/);
    const listed = await spawnCli(['gateway', 'keys', 'list', ...store]);
    expect(listed.stdout).not.toContain(key);
    expect(JSON.parse(listed.stdout).keys).toEqual([
      expect.objectContaining({ name: 'team-cli', revoked: false }),
    ]);
    const updated = await spawnCli([
      'gateway',
      'keys',
      'update',
      'team-cli',
      '--rpm',
      '5',
      '--models',
      'none',
      ...store,
    ]);
    expect(JSON.parse(updated.stdout).record).toMatchObject({ rpm: 5, models: null, budget_period: 'month' });
    const { gateway } = instances[0] as { gateway: Gateway };
    expect((await text(gateway, key)).status).toBe(200);
    const shown = await spawnCli(['gateway', 'keys', 'show', 'team-cli', ...store]);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      record: { rpm: 5 },
      used: { period_tokens: TOKENS_PER_ANSWER },
    });
    const revoked = await spawnCli(['gateway', 'keys', 'revoke', 'team-cli', ...store]);
    expect(JSON.parse(revoked.stdout).record.revoked_at).toEqual(expect.any(String));
    // Refused once the instance's cached record of the key is 5 s old.
    clock.offset += 5_000;
    expect((await text(gateway, key)).status).toBe(401);
    const dump = JSON.stringify(await admin.query('SELECT * FROM verdict_keys'));
    expect(dump).not.toContain(key);
    const missing = await spawnCli(['gateway', 'keys', 'show', 'nobody', ...store]);
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ success: false, error_code: 'not_found' });
    const bad = await spawnCli(['gateway', 'keys', 'create', '--name', 'Bad Name', ...store]);
    expect(bad.status).not.toBe(0);
    expect(JSON.parse(bad.stdout)).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  }, 120_000);
});

describe('verdict gateway --store postgres://…', () => {
  test('serves stored keys, and a graceful stop writes every usage record before it exits', async () => {
    const { key } = await createKey(admin, 'team-serve', { rpm: 1000 });
    const controller = new AbortController();
    const io = memoryIo({
      env: {
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: replay.baseURL.openai,
        VERDICT_ADMIN_KEY: 'admin-key-of-the-serve-test-0123',
      },
      cwd: process.cwd(),
      signal: controller.signal,
    });
    const exit = run(['gateway', '--port', '0', '--store', postgres.url], io);
    let url: string | undefined;
    await expect
      .poll(
        () => {
          url = /serving on (http:\/\/[^ ]+)/.exec(io.stderr.text())?.[1];
          return url !== undefined || io.stderr.text().includes('could not');
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(io.stderr.text()).toContain(`store postgres://postgres@127.0.0.1:`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${url}/v1/text`, {
          method: 'POST',
          body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
          headers: { authorization: `Bearer ${key}` },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    controller.abort();
    expect(await exit).toBe(0);
    expect(await usageRows("key_name = 'team-serve' AND code = 'ok'")).toBe(20);
    expect(io.stderr.text()).not.toContain('could not be written');
  }, 120_000);
});
