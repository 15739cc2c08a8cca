import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { type GatewayStore, migrateStore, openStore } from '../../../src/gateway/store/index.js';
import { postJson } from '../envelope-assertions.js';
import { useReplay } from '../use-replay.js';

const replay = useReplay();
let store: GatewayStore;
const ADMIN = 'admin-key-of-the-tests-0123456789';
const M = 1_000_000;

beforeAll(async () => {
  store = await openStore(':memory:');
  await migrateStore(store);
}, 180_000);
afterAll(async () => {
  await store.close();
});
beforeEach(async () => {
  await store.query('TRUNCATE verdict_keys, verdict_counters, verdict_usage, verdict_leases');
});

function gateway() {
  const providers = replay().providers();
  return createGateway({
    providers: {
      ...(providers as GatewayOptions['providers']),
      local: { type: 'openai-compatible', baseURL: providers.openrouter?.baseURL as string },
    },
    retries: 0,
    store,
    adminKey: ADMIN,
  });
}

function asAdmin(target: ReturnType<typeof gateway>, path: string) {
  return target.request(path, { headers: { authorization: `Bearer ${ADMIN}` } });
}

describe('dollars in the usage record', () => {
  test('each record keeps its cost or the reason it has none; /v1/usage sums dollars and counts the unpriced', async () => {
    const target = gateway();
    const send = (model: string) =>
      target.request('/v1/text', {
        method: 'POST',
        body: JSON.stringify({ model, input: 'Capital?' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      });
    // The default Chat Completions answer: gpt-4.1-mini, 1 200 input tokens (1 024 cached), 80 output.
    const priced = (176 * 0.4 + 1024 * 0.1 + 80 * 1.6) / M;
    for (const model of ['openai:gpt-4.1-mini', 'openai:gpt-4.1-mini', 'local:my-finetune'])
      expect((await send(model)).status).toBe(200);
    expect(await target.flush()).toBe(0);

    const usage = await (await asAdmin(target, '/v1/usage?group_by=provider')).json();
    const report = usage.metadata.usage;
    expect(report.totals.cost_usd).toBeCloseTo(2 * priced, 12);
    expect(report.totals.unpriced).toBe(1);
    expect(report.groups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ group: 'local', requests: 1, cost_usd: 0, unpriced: 1 }),
        expect.objectContaining({ group: 'openai', requests: 2, unpriced: 0 }),
      ]),
    );
    expect(usage.content).toContain('1 request(s) without a price');

    const page = await (await asAdmin(target, '/v1/usage/requests?limit=10')).json();
    const byTarget = new Map(
      (page.metadata.requests as { target: string; cost_usd: number | null; cost_reason: string | null }[])
        .filter((record) => record.target !== null)
        .map((record) => [record.target, record]),
    );
    expect(byTarget.get('local:my-finetune')).toMatchObject({ cost_usd: null, cost_reason: 'unknown_price' });
    expect(byTarget.get('openai:gpt-4.1-mini')?.cost_usd).toBeCloseTo(priced, 12);
  });

  test('a request no provider billed is recorded at 0 dollars, not as unpriced', async () => {
    const target = gateway();
    const response = await postJson(target, '/v1/text', { model: 'nope:model', input: 'Hi' });
    expect(response.status).toBe(401);
    expect(await target.flush()).toBe(0);
    const rows = await store.query<{ cost_usd: number | null; cost_reason: string | null }>(
      'SELECT cost_usd, cost_reason FROM verdict_usage',
    );
    expect(rows).toEqual([{ cost_usd: 0, cost_reason: null }]);
  });
});
