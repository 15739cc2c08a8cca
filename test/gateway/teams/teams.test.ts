import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import {
  createKey,
  type GatewayStore,
  migrateStore,
  openStore,
  readCounts,
  revokeKey,
  StoreError,
  UsageWriter,
  updateKey,
} from '../../../src/gateway/store/index.js';
import type { ReplayAnswer, ReplayProviders } from '../../helpers/replay-providers.js';
import { useReplay } from '../use-replay.js';

const replayServer = useReplay();
let replay: ReplayProviders;
let store: GatewayStore;
const ADMIN = 'admin-key-of-the-tests-0123456789';
// Limit tests run on a stopped clock, so a minute boundary passing during a test cannot open a new window.
const NOON = new Date('2026-12-01T12:00:30.000Z');
const stopped = { storeClock: () => NOON };

/** A clock that stands still until a test moves it. */
function movable() {
  const clock = { at: NOON.getTime(), storeClock: () => new Date(clock.at) };
  return clock;
}
const STATIC = 'static-key-of-the-tests-0123456789';

/** A store that can be switched off: every query then fails as an unreachable store does. */
function switchable(inner: GatewayStore): GatewayStore & { down: boolean } {
  const wrapped = {
    down: false,
    kind: inner.kind,
    location: inner.location,
    query: (async (sql: string, params?: readonly unknown[]) => {
      if (wrapped.down) throw new StoreError('store_unreachable', 'The store failed: connect ECONNREFUSED');
      return inner.query(sql, params);
    }) as GatewayStore['query'],
    transaction: inner.transaction.bind(inner),
    close: () => inner.close(),
  };
  return wrapped;
}

// PGlite runs initdb when it creates a database, which takes seconds (tens on a busy machine): one per file.
beforeAll(async () => {
  store = await openStore(':memory:');
  await migrateStore(store);
}, 180_000);
afterAll(async () => {
  await store.close();
});
beforeEach(async () => {
  replay = replayServer();
  await store.query('TRUNCATE verdict_keys, verdict_counters, verdict_usage, verdict_leases');
});

function gatewayOn(target: GatewayStore, options: GatewayOptions = {}) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    store: target,
    adminKey: ADMIN,
    keys: [STATIC],
    ...options,
  });
}

function text(
  gateway: ReturnType<typeof createGateway>,
  key: string,
  model = 'openai:gpt-4o-mini',
  traceId?: string,
) {
  return gateway.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model, input: 'Capital of France?' }),
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      ...(traceId === undefined ? {} : { 'x-trace-id': traceId }),
    },
  });
}

function getAs(gateway: ReturnType<typeof createGateway>, path: string, key: string) {
  return gateway.request(path, { headers: { authorization: `Bearer ${key}` } });
}

describe('keys in the store', () => {
  test('a created key is shown once and the store holds only its hash', async () => {
    const { key, record } = await createKey(store, 'team-a', { rpm: 10, models: ['openai:*'] });
    expect(key).toMatch(/^vk_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ name: 'team-a', rpm: 10, models: ['openai:*'], revoked_at: null });
    const gateway = gatewayOn(store);
    expect((await text(gateway, key)).status).toBe(200);
    await gateway.flush();
    for (const table of ['verdict_keys', 'verdict_counters', 'verdict_usage']) {
      const dump = JSON.stringify(await store.query(`SELECT * FROM ${table}`));
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(3));
    }
  });

  test('a stored key is taken from x-api-key and api-key as from Authorization', async () => {
    const { key } = await createKey(store, 'team-a');
    const gateway = gatewayOn(store);
    for (const header of ['x-api-key', 'api-key']) {
      const answer = await gateway.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Capital of France?' }),
        headers: { 'content-type': 'application/json', [header]: key },
      });
      expect(answer.status, header).toBe(200);
      const wrong = await gateway.request('/v1/models', { headers: { [header]: `vk_${'x'.repeat(43)}` } });
      expect(wrong.status, header).toBe(401);
    }
    const admin = await gateway.request('/v1/usage', { headers: { 'x-api-key': ADMIN } });
    expect(admin.status).toBe(200);
  });

  test('a taken name and bad limits are refused with what is wrong', async () => {
    await createKey(store, 'team-a');
    await expect(createKey(store, 'team-a')).rejects.toThrow(/exists already/);
    await expect(createKey(store, 'static')).rejects.toThrow(/environment/);
    await expect(createKey(store, 'team-b', { rpm: 0 })).rejects.toThrow(
      /rpm must be a positive whole number/,
    );
  });

  test('a revoked key is refused once its cached record is older than the key cache', async () => {
    const { key } = await createKey(store, 'team-a');
    const clock = movable();
    const gateway = gatewayOn(store, { storeClock: clock.storeClock });
    expect((await text(gateway, key)).status).toBe(200);
    await revokeKey(store, 'team-a');
    // The instance read the key less than 5 s ago: it still works (docs/gateway.md, "Keys").
    clock.at += 4_999;
    expect((await text(gateway, key)).status).toBe(200);
    clock.at += 1;
    const refused = await text(gateway, key);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatchObject({
      code: 'AUTHENTICATION_ERROR',
      details: { key: 'team-a' },
    });
  });

  test('an expired key is refused; unknown and missing keys are refused without naming a key', async () => {
    const { key } = await createKey(store, 'team-a', { expires_at: '2020-01-01' });
    const gateway = gatewayOn(store);
    expect((await text(gateway, key)).status).toBe(401);
    const unknown = await text(gateway, `vk_${'x'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');
    const missing = await gateway.request('/v1/models');
    expect(missing.status).toBe(401);
  });

  test('static keys and the admin key keep working, unlimited, under their own names', async () => {
    const lines: string[] = [];
    const gateway = gatewayOn(store, { log: (line) => lines.push(line) });
    expect((await text(gateway, STATIC)).status).toBe(200);
    expect((await text(gateway, ADMIN)).status).toBe(200);
    expect(lines.map((line) => JSON.parse(line).key)).toEqual(['static', 'admin']);
  });
});

describe('limits', () => {
  test('rpm: over the limit is RATE_LIMITED with retry-after and coherent RateLimit headers', async () => {
    const { key } = await createKey(store, 'team-a', { rpm: 2 });
    const gateway = gatewayOn(store, stopped);
    const first = await text(gateway, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await text(gateway, key)).headers.get('ratelimit-remaining')).toBe('0');
    const refused = await text(gateway, key);
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(reset));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const body = await refused.json();
    expect(body.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'rpm', value: 2, used: 2, key: 'team-a', retry_after_s: reset },
    });
    expect(replay.requests).toHaveLength(2);
  });

  test('tpm: once a minute has used its tokens, the next request is RATE_LIMITED naming tpm', async () => {
    const { key } = await createKey(store, 'team-a', { tpm: 1000 });
    const gateway = gatewayOn(store, stopped);
    expect((await text(gateway, key)).status).toBe(200);
    const { record } = { record: (await updateKey(store, 'team-a', {}))! };
    await vi.waitFor(async () => expect((await readCounts(store, record, NOON)).minute_tokens).toBe(1280));
    const refused = await text(gateway, key);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.details).toMatchObject({ limit: 'tpm', value: 1000, used: 1280 });
  });

  test('a spent budget is INSUFFICIENT_CREDITS (402) naming the budget and its period', async () => {
    const { key } = await createKey(store, 'team-a', { budget_tokens: 2000, budget_period: 'month' });
    const gateway = gatewayOn(store, stopped);
    expect((await text(gateway, key)).status).toBe(200);
    const record = (await updateKey(store, 'team-a', {}))!;
    await vi.waitFor(async () => expect((await readCounts(store, record, NOON)).period_tokens).toBe(1280));
    expect((await text(gateway, key)).status).toBe(200);
    await vi.waitFor(async () => expect((await readCounts(store, record, NOON)).period_tokens).toBe(2560));
    const refused = await text(gateway, key);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { limit: 'budget_tokens', value: 2000, used: 2560, period: 'month' },
    });
  });

  test('models and routes the key may not use are PERMISSION_DENIED (403) naming what it may use', async () => {
    const { key } = await createKey(store, 'team-a', { models: ['anthropic:claude-*'], routes: ['text'] });
    const gateway = gatewayOn(store, stopped);
    expect((await text(gateway, key, 'anthropic:claude-sonnet-4-5')).status).toBe(200);
    const model = await text(gateway, key, 'openai:gpt-4o-mini');
    expect(model.status).toBe(403);
    expect((await model.json()).error).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { limit: 'models', model: 'openai:gpt-4o-mini', allowed: ['anthropic:claude-*'] },
    });
    const route = await gateway.request('/v1/images', {
      method: 'POST',
      body: JSON.stringify({ model: 'openai:gpt-image-1', prompt: 'a cat' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    expect(route.status).toBe(403);
    expect((await route.json()).error.details).toMatchObject({
      limit: 'routes',
      route: 'images',
      allowed: ['text'],
    });
    expect(replay.requests).toHaveLength(1);
  });

  test('GET /v1/key answers the calling key its limits and what is left', async () => {
    const { key } = await createKey(store, 'team-a', { rpm: 5, budget_tokens: 10_000 });
    const gateway = gatewayOn(store, stopped);
    await text(gateway, key);
    const record = (await updateKey(store, 'team-a', {}))!;
    await vi.waitFor(async () => expect((await readCounts(store, record, NOON)).period_tokens).toBe(1280));
    const answer = await (await getAs(gateway, '/v1/key', key)).json();
    expect(answer.metadata.key).toMatchObject({
      name: 'team-a',
      remaining: { rpm: 4, tpm: null, budget_tokens: 8720 },
    });
  });
});

describe('usage', () => {
  test('one record per request; /v1/usage groups them for the admin key only', async () => {
    const { key } = await createKey(store, 'team-a');
    const gateway = gatewayOn(store);
    await text(gateway, key, 'openai:gpt-4o-mini', 'trace-usage-one');
    await text(gateway, key, 'anthropic:claude-sonnet-4-5');
    await text(gateway, STATIC, 'nope:model');
    expect(await gateway.flush()).toBe(0);
    expect((await getAs(gateway, '/v1/usage', key)).status).toBe(403);
    const usage = await (await getAs(gateway, '/v1/usage?group_by=key&bucket=minute', ADMIN)).json();
    expect(usage.success).toBe(true);
    const report = usage.metadata.usage;
    // The refused /v1/usage of team-a is a request too.
    expect(report.totals).toMatchObject({ requests: 4, errors: 2 });
    expect(report.groups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ group: 'team-a', requests: 3, errors: 1 }),
        expect.objectContaining({ group: 'static', requests: 1, errors: 1 }),
      ]),
    );
    expect(report.series.length).toBeGreaterThan(0);
    const page = await (await getAs(gateway, '/v1/usage/requests?trace_id=trace-usage-one', ADMIN)).json();
    expect(page.metadata.requests).toHaveLength(1);
    expect(page.metadata.requests[0]).toMatchObject({
      trace_id: 'trace-usage-one',
      key_name: 'team-a',
      route: '/v1/text',
      surface: 'verdict',
      provider: 'openai',
      target: 'openai:gpt-4o-mini',
      status: 200,
      code: 'ok',
      attempts: 1,
      input_tokens: 1200,
      output_tokens: 80,
    });
    expect(JSON.stringify(page)).not.toContain('Capital of France');
  });

  test('an Anthropic client is recorded under its key, with the anthropic surface, plain and streamed', async () => {
    const { key } = await createKey(store, 'team-a');
    const gateway = gatewayOn(store);
    for (const [trace, stream] of [
      ['trace-anthropic-plain', false],
      ['trace-anthropic-stream', true],
    ] as const) {
      const answer = await gateway.request('/anthropic/v1/messages', {
        method: 'POST',
        body: JSON.stringify({
          model: 'anthropic:claude-sonnet-4-5',
          max_tokens: 64,
          stream,
          messages: [{ role: 'user', content: 'Capital of France?' }],
        }),
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-request-id': trace },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('request-id')).toBe(trace);
      await answer.text();
    }
    await gateway.flush();
    for (const trace of ['trace-anthropic-plain', 'trace-anthropic-stream']) {
      const page = await (await getAs(gateway, `/v1/usage/requests?trace_id=${trace}`, ADMIN)).json();
      expect(page.metadata.requests, trace).toHaveLength(1);
      expect(page.metadata.requests[0]).toMatchObject({
        key_name: 'team-a',
        route: '/anthropic/v1/messages',
        surface: 'anthropic',
        provider: 'anthropic',
        target: 'anthropic:claude-sonnet-4-5',
        code: 'ok',
      });
      expect(page.metadata.requests[0].input_tokens).toBeGreaterThan(0);
    }
  });

  test("a key's route and model permissions hold on the Anthropic surface, refused in Anthropic's shape", async () => {
    const { key: imagesOnly } = await createKey(store, 'images-only', { routes: ['images'] });
    const { key: openaiOnly } = await createKey(store, 'openai-only', { models: ['openai:*'] });
    const gateway = gatewayOn(store);
    for (const key of [imagesOnly, openaiOnly]) {
      const refused = await gateway.request('/anthropic/v1/messages', {
        method: 'POST',
        body: JSON.stringify({
          model: 'anthropic:claude-sonnet-4-5',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Hi' }],
        }),
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        type: 'error',
        error: { type: 'permission_error', verdict_code: 'PERMISSION_DENIED' },
      });
    }
    expect(replay.requests).toHaveLength(0);
  });

  test('pages follow next_cursor and filter by code; bad queries are VALIDATION_ERROR', async () => {
    const gateway = gatewayOn(store);
    for (let index = 0; index < 5; index++) await text(gateway, STATIC);
    await gateway.flush();
    const seen = new Set<string>();
    let cursor: string | null = '';
    for (let round = 0; round < 10 && cursor !== null; round++) {
      const answer = await (
        await getAs(
          gateway,
          `/v1/usage/requests?code=ok&limit=2${cursor === '' ? '' : `&cursor=${cursor}`}`,
          ADMIN,
        )
      ).json();
      for (const record of answer.metadata.requests) seen.add(record.request_id);
      cursor = answer.metadata.next_cursor;
    }
    expect(seen.size).toBe(5);
    const bad = await getAs(gateway, '/v1/usage?group_by=prompt&from=yesterday', ADMIN);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('VALIDATION_ERROR');
  });

  test('/metrics counts records written', async () => {
    const gateway = gatewayOn(store);
    await text(gateway, STATIC);
    await gateway.flush();
    const metrics = await (await getAs(gateway, '/metrics', STATIC)).text();
    expect(metrics).toMatch(/verdict_gateway_usage_records_written_total [1-9]/);
    expect(metrics).toContain('verdict_gateway_usage_records_dropped_total 0');
  });
});

describe('the usage writer', () => {
  test('a full queue drops records and counts every one', async () => {
    const down = switchable(store);
    down.down = true;
    const drops: number[] = [];
    const writer = new UsageWriter(down, { maxQueue: 3, onDrop: (count) => drops.push(count) });
    const record = (id: string) => ({
      request_id: id,
      time: new Date().toISOString(),
      trace_id: id,
      key_name: null,
      route: '/v1/text',
      surface: 'verdict',
      provider: null,
      model: null,
      target: null,
      attempts: 0,
      status: 200,
      code: 'ok',
      latency_ms: 1,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      cost_reason: null,
    });
    const added = ['a', 'b', 'c', 'd', 'e'].map((id) => writer.add(record(id)));
    expect(added).toEqual([true, true, true, false, false]);
    expect(writer.stats.dropped).toBe(2);
    down.down = false;
    expect(await writer.flush(5000)).toBe(0);
    expect(writer.stats).toMatchObject({ written: 3, dropped: 2, queued: 0 });
    expect(drops).toEqual([1, 2]);
  });
});

describe('the store unreachable', () => {
  test('limited keys are refused with PROVIDER_UNAVAILABLE once their lease or record must be read, static keys go on, /healthz says the store is down', async () => {
    const { key } = await createKey(store, 'team-a', { rpm: 100 });
    const down = switchable(store);
    const clock = movable();
    const gateway = gatewayOn(down, { storeClock: clock.storeClock });
    expect((await text(gateway, key)).status).toBe(200);
    down.down = true;
    // The key's record is cached and its lease of the minute's requests has room: admitted without the store.
    expect((await text(gateway, key)).status).toBe(200);
    // A new minute needs a new lease, and the record is older than the key cache.
    clock.at += 60_000;
    const refused = await text(gateway, key);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      details: { store: 'unreachable' },
    });
    expect((await text(gateway, STATIC)).status).toBe(200);
    const health = await gateway.request('/healthz');
    expect(health.status).toBe(503);
    expect((await health.json()).error.details).toEqual({ store: 'down' });
    down.down = false;
    expect((await gateway.request('/healthz')).status).toBe(200);
    // Records queued while the store was down are written once it answers again.
    expect(await gateway.flush()).toBe(0);
    const rows = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM verdict_usage');
    expect(rows[0]?.n).toBe(4);
  });

  test('with fail-open, a key seen before is admitted without limits and counted in /metrics', async () => {
    const { key } = await createKey(store, 'team-a', { rpm: 100 });
    const down = switchable(store);
    const clock = movable();
    const gateway = gatewayOn(down, { storeFailOpen: true, storeClock: clock.storeClock });
    expect((await text(gateway, key)).status).toBe(200);
    down.down = true;
    clock.at += 60_000;
    expect((await text(gateway, key)).status).toBe(200);
    expect((await text(gateway, `vk_${'y'.repeat(43)}`)).status).toBe(503);
    const health = await gateway.request('/healthz');
    expect(health.status).toBe(200);
    expect((await health.json()).metadata.store).toBe('down');
    const metrics = await (await getAs(gateway, '/metrics', STATIC)).text();
    expect(metrics).toContain('verdict_gateway_fail_open_admissions_total 1');
    down.down = false;
    // The records queued while the store was down land now, not in the next test's tables.
    expect(await gateway.flush()).toBe(0);
  });
});

describe('what a request is charged', () => {
  /** A Chat Completions stream of `deltas` deltas of 1,000 characters, then a finish chunk reporting its usage. */
  function longStream(deltas: number): ReplayAnswer {
    const chunk = (delta: object, finish: string | null, usage: object | null = null) => ({
      id: 'chatcmpl-long',
      object: 'chat.completion.chunk',
      created: 1767225700,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage,
    });
    return {
      events: [
        ...Array.from({ length: deltas }, () => chunk({ content: 'word '.repeat(200) }, null)),
        chunk({}, 'stop', {
          prompt_tokens: 10,
          completion_tokens: deltas * 250,
          total_tokens: 10 + deltas * 250,
        }),
      ],
      // The provider's last event never comes before the client leaves.
      stallAfterEvents: deltas,
    };
  }

  /** Post a stream, read `deltas` delta events, then go away before the final event. */
  async function readAndLeave(gateway: ReturnType<typeof createGateway>, key: string, deltas: number) {
    const leave = new AbortController();
    const answer = await gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Write at length.', stream: true }),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'x-trace-id': 'cut-stream',
      },
      signal: leave.signal,
    });
    if (answer.status !== 200 || answer.body === null) return answer.status;
    const reader = answer.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while ((seen.match(/event: delta/g) ?? []).length < deltas) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).not.toContain('event: envelope');
    leave.abort();
    await reader.cancel().catch(() => undefined);
    return answer.status;
  }

  test('streams a client reads and leaves before the last event are charged what they streamed', async () => {
    const { key } = await createKey(store, 'team-a', {
      budget_tokens: 1000,
      budget_period: 'month',
      tpm: 1000,
    });
    const record = (await updateKey(store, 'team-a', {}))!;
    const gateway = gatewayOn(store, stopped);
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) {
      replay.enqueue(longStream(12));
      statuses.push(await readAndLeave(gateway, key, 12));
      // The charge lands when the stream's bookkeeping ends, off the request's path.
      if (index === 0)
        await vi.waitFor(async () =>
          expect((await readCounts(store, record, NOON)).period_tokens).toBeGreaterThanOrEqual(3000),
        );
    }
    // 12,000 characters streamed, estimated at four a token, and the prompt: the first stream spent the budget.
    expect(statuses).toEqual([200, 402, 402, 402, 402]);
    const counts = await readCounts(store, record, NOON);
    expect(counts.period_tokens).toBeGreaterThanOrEqual(3000);
    expect(counts.period_tokens).toBeLessThan(3100);
    await gateway.flush();
    // On the stopped clock a record's time is NOON less its latency, which says nothing of the order: by tokens.
    const rows = await store.query<{ output_tokens: number; code: string }>(
      "SELECT output_tokens::int AS output_tokens, code FROM verdict_usage WHERE trace_id = 'cut-stream' ORDER BY output_tokens DESC",
    );
    expect(rows).toEqual([
      { output_tokens: 3000, code: 'client_closed' },
      ...Array.from({ length: 4 }, () => ({ output_tokens: 0, code: 'INSUFFICIENT_CREDITS' })),
    ]);
  });

  test('an answer that fails its structured-output check is charged what the provider reported', async () => {
    const { key } = await createKey(store, 'team-a', { budget_tokens: 5000, budget_period: 'month' });
    const record = (await updateKey(store, 'team-a', {}))!;
    const gateway = gatewayOn(store, stopped);
    const answer = await gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({
        model: 'openai:gpt-4o-mini',
        input: 'Capital of France?',
        response_format: { type: 'json_object' },
      }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    expect((await answer.json()).error.code).toBe('INVALID_PROVIDER_RESPONSE');
    await vi.waitFor(async () => expect((await readCounts(store, record, NOON)).period_tokens).toBe(1280));
    await gateway.flush();
    const rows = await store.query<{ input_tokens: number; output_tokens: number }>(
      "SELECT input_tokens::int AS input_tokens, output_tokens::int AS output_tokens FROM verdict_usage WHERE route = '/v1/text'",
    );
    expect(rows).toEqual([{ input_tokens: 1200, output_tokens: 80 }]);
  });
});
