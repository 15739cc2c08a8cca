import { describe, expect, test } from 'vitest';
import { run } from '../../../src/cli/run.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { createKey, type GatewayStore, readSpend, reserveSpend } from '../../../src/gateway/store/index.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { fixture } from '../../helpers/replay-providers.js';
import { useReplay } from '../use-replay.js';
import { useThreeInstances } from './use-three-instances.js';

// Budgets in dollars on both stores (docs/gateway.md, "Budgets in dollars"): three gateway instances, each with
// its own pool on one embedded PostgreSQL, and three on one PGlite store.
const replay = useReplay();
const M = 1_000_000;
const { stores, postgresUrl } = useThreeInstances();

/** A Chat Completions answer of gpt-4.1-mini with the given usage (0.40 input, 1.60 output per million tokens). */
function answer(input: number, output: number) {
  const body = fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json').body as Record<
    string,
    unknown
  >;
  return {
    body: {
      ...body,
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    },
  };
}

const REQUEST = JSON.stringify({ model: 'openai:gpt-4.1-mini', input: 'Capital?', max_output_tokens: 20 });
// The worst case reserved for REQUEST: its body's bytes as input tokens, and its 20 output tokens.
const RESERVED = (Buffer.byteLength(REQUEST) * 0.4 + 20 * 1.6) / M;

function gatewaysOn(list: GatewayStore[]): Gateway[] {
  return list.map((store) =>
    createGateway({ providers: replay().providers() as GatewayOptions['providers'], retries: 0, store }),
  );
}

/** Send `total` requests at once over the gateways in turn. */
function sendAll(gateways: Gateway[], key: string, total: number): Promise<Response[]> {
  return Promise.all(
    Array.from({ length: total }, (_, index) =>
      (gateways[index % gateways.length] as Gateway).request('/v1/text', {
        method: 'POST',
        body: REQUEST,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      }),
    ),
  );
}

/** The dollars the admitted answers cost, by their envelopes. */
async function spentBy(answers: Response[]): Promise<{ usd: number; admitted: number; refused: unknown[] }> {
  let usd = 0;
  let admitted = 0;
  const refused: unknown[] = [];
  for (const response of answers) {
    const envelope = await response.json();
    if (response.status === 200) {
      admitted++;
      usd += envelope.metadata.cost.usd;
    } else {
      expect(response.status).toBe(402);
      refused.push(envelope.error);
    }
  }
  return { usd, admitted, refused };
}

describe.each(['postgres', 'pglite'] as const)('dollar budgets on %s, three instances', (kind) => {
  test('200 concurrent requests whose cost stays within their reservation never spend past the budget', async () => {
    const list = stores[kind];
    const { key, record } = await createKey(list[0] as GatewayStore, `usd-a-${kind}`, {
      budget_usd: 0.0018,
      budget_period: 'total',
    });
    // 10 input and 20 output tokens: 0.000036 dollars, below the reservation.
    const cost = (10 * 0.4 + 20 * 1.6) / M;
    expect(cost).toBeLessThanOrEqual(RESERVED);
    replay().enqueue(...Array.from({ length: 200 }, () => answer(10, 20)));
    const gateways = gatewaysOn(list);
    const { usd, admitted, refused } = await spentBy(await sendAll(gateways, key, 200));
    for (const gateway of gateways) expect(await gateway.flush()).toBe(0);
    // The bound: spend ≤ budget + (calls in flight) × (cost − reservation)⁺, which is 0 here.
    expect(usd).toBeLessThanOrEqual(0.0018 + 1e-12);
    // Admission is near exact, not timid: when a call is refused, each instance's lease has less than one
    // worst case left (docs/gateway.md, "Leases"), so at most three worst cases go unused.
    expect(admitted).toBeGreaterThanOrEqual(Math.floor(0.0018 / RESERVED) - 3);
    expect(admitted + refused.length).toBe(200);
    expect(refused[0]).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { limit: 'budget_usd', value: 0.0018, period: 'total', reset_s: null },
    });
    const spend = await readSpend(list[0] as GatewayStore, record, new Date());
    expect(spend.reserved).toBe(0);
    expect(spend.spent).toBeCloseTo(usd, 8);
  }, 180_000);

  test('answers that cost more than their reservation overshoot by at most the documented bound', async () => {
    const list = stores[kind];
    const { key } = await createKey(list[0] as GatewayStore, `usd-b-${kind}`, {
      budget_usd: 0.0018,
      budget_period: 'total',
    });
    // A provider that ignores the output maximum: 100 output tokens where 20 were reserved.
    const cost = (10 * 0.4 + 100 * 1.6) / M;
    replay().enqueue(...Array.from({ length: 200 }, () => answer(10, 100)));
    const { usd, admitted } = await spentBy(await sendAll(gatewaysOn(list), key, 200));
    // At most 200 calls are in flight at once; each can pass its reservation by cost − reservation.
    expect(usd).toBeLessThanOrEqual(0.0018 + 200 * (cost - RESERVED) + 1e-12);
    // Without reservations all 200 would be admitted, past that bound.
    expect(200 * cost).toBeGreaterThan(0.0018 + 200 * (cost - RESERVED));
    expect(admitted).toBeLessThan(200);
  }, 180_000);
});

describe('reservations', () => {
  test('one an instance never settled (it crashed) stops counting when it expires', async () => {
    const store = stores.pglite[0] as GatewayStore;
    const { record } = await createKey(store, 'usd-crash', { budget_usd: 1, budget_period: 'day' });
    const noon = new Date('2026-12-01T12:00:00Z');
    expect(await reserveSpend(store, record, 0.75, 60_000, noon)).toMatchObject({ reserved: true });
    const refused = await reserveSpend(store, record, 0.5, 60_000, new Date(noon.getTime() + 59_000));
    expect(refused).toMatchObject({ reserved: false, refusal: { limit: 'budget_usd', used: 0.75 } });
    expect(await readSpend(store, record, new Date(noon.getTime() + 61_000))).toEqual({
      spent: 0,
      reserved: 0,
    });
    expect(await reserveSpend(store, record, 0.5, 60_000, new Date(noon.getTime() + 61_000))).toMatchObject({
      reserved: true,
    });
  });

  test('GET /v1/key shows the dollars left, and an answer settles at its real cost', async () => {
    const store = stores.pglite[0] as GatewayStore;
    const { key } = await createKey(store, 'usd-left', { budget_usd: 0.01, budget_period: 'month' });
    const [gateway] = gatewaysOn([store]) as [Gateway];
    replay().enqueue(answer(10, 20));
    const response = await gateway.request('/v1/text', {
      method: 'POST',
      body: REQUEST,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(await gateway.flush()).toBe(0);
    const shown = await (
      await gateway.request('/v1/key', { headers: { authorization: `Bearer ${key}` } })
    ).json();
    expect(shown.metadata.key.remaining.budget_usd).toBeCloseTo(0.01 - (10 * 0.4 + 20 * 1.6) / M, 9);
    expect(shown.metadata.key.used.reserved_usd).toBe(0);
  });
});

describe('verdict gateway keys --budget-usd', () => {
  test('creates, shows and removes a dollar budget', async () => {
    const cli = async (...argv: string[]) => {
      const io = memoryIo({ cwd: process.cwd() });
      const status = await run(['gateway', 'keys', ...argv, '--store', postgresUrl(), '--json'], io);
      return { status, document: JSON.parse(io.stdout.text()) };
    };
    const created = await cli(
      'create',
      '--name',
      'usd-cli',
      '--budget-usd',
      '25.5',
      '--budget-period',
      'month',
    );
    expect(created.status).toBe(0);
    expect(created.document.record).toMatchObject({
      budget_usd: 25.5,
      budget_period: 'month',
      budget_tokens: null,
    });
    const shown = await cli('show', 'usd-cli');
    expect(shown.document.used).toMatchObject({ period_usd: 0, reserved_usd: 0 });
    const removed = await cli('update', 'usd-cli', '--no-budget-usd');
    expect(removed.document.record).toMatchObject({ budget_usd: null });
    const refused = await cli('create', '--name', 'usd-bad', '--budget-usd', '-1');
    expect(refused.status).toBe(2);
  }, 60_000);
});
