import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../../src/gateway/index.js';
import { createKey, type GatewayStore, migrateStore, openStore } from '../../../src/gateway/store/index.js';
import type { ReplayProviders } from '../../helpers/replay-providers.js';
import { useReplay } from '../use-replay.js';

/** Keys, limits and usage records behind the drop-in surfaces, as behind `/v1/text`. */

const replayServer = useReplay();
let replay: ReplayProviders;
let store: GatewayStore;
const ADMIN = 'admin-key-of-the-tests-0123456789';

// PGlite runs initdb when it creates a database, which takes seconds: one per file.
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

function gatewayOn() {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    store,
    adminKey: ADMIN,
    retries: 0,
  });
}

function openaiOf(gateway: ReturnType<typeof gatewayOn>, apiKey: string): OpenAI {
  return new OpenAI({
    apiKey,
    baseURL: 'http://localhost/openai/v1',
    maxRetries: 0,
    fetch: async (input, init) => gateway.request(String(input), init as RequestInit),
  });
}

describe('usage records of the OpenAI surface', () => {
  test('name the calling key, the route and the surface, with the tokens of the answer', async () => {
    const { key } = await createKey(store, 'team-openai');
    const gateway = gatewayOn();
    const completion = await openaiOf(gateway, key).chat.completions.create({
      model: 'openai:gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    const stream = await openaiOf(gateway, key).responses.create({
      model: 'anthropic:claude-sonnet-4-5',
      input: 'Hi',
      stream: true,
    });
    for await (const _event of stream) {
      // Read to the end: the record of a stream is written when it ends.
    }
    expect(await gateway.flush()).toBe(0);
    const rows = await store.query<Record<string, unknown>>(
      'SELECT key_name, route, surface, code, input_tokens, trace_id FROM verdict_usage ORDER BY route',
    );
    expect(rows).toEqual([
      {
        key_name: 'team-openai',
        route: '/openai/v1/chat/completions',
        surface: 'openai',
        code: 'ok',
        input_tokens: 1200,
        trace_id: completion._request_id,
      },
      expect.objectContaining({ key_name: 'team-openai', route: '/openai/v1/responses', surface: 'openai' }),
    ]);
    const page = await gateway.request('/v1/usage?group_by=surface', {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const groups = (await page.json()).metadata.usage.groups as { group: string; requests: number }[];
    expect(groups).toEqual([expect.objectContaining({ group: 'openai', requests: 2 })]);
  });

  test("a key's route and model permissions hold on the surface, answered in OpenAI's shape", async () => {
    const { key } = await createKey(store, 'team-images', { routes: ['images'] });
    const refused = await openaiOf(gatewayOn(), key)
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      type: 'permission_error',
      verdict_code: 'PERMISSION_DENIED',
    });
    const { key: scoped } = await createKey(store, 'team-claude', { models: ['anthropic:*'] });
    const model = await openaiOf(gatewayOn(), scoped)
      .chat.completions.create({ model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(model).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(replay.requests).toHaveLength(0);
  });
});
