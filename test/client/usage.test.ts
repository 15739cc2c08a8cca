import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { createKey, type GatewayStore, migrateStore, openStore } from '../../src/gateway/store/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { type Served, serveFetch } from './serve-gateway.js';

const ADMIN = 'client-admin-key-0123456789abcdef';
let store: GatewayStore;
let replay: ReplayProviders;
let served: Served;
let gateway: ReturnType<typeof createGateway>;

// PGlite creates its database in seconds (tens on a busy machine).
beforeAll(async () => {
  store = await openStore(':memory:');
  await migrateStore(store);
  replay = await startReplayProviders();
  gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    store,
    adminKey: ADMIN,
  });
  served = await serveFetch(gateway.fetch);
}, 180_000);
afterAll(async () => {
  await served?.close();
  await replay?.close();
  await store?.close();
});

describe('the usage and key methods of verdict/client', { timeout: 60_000 }, () => {
  test("key() answers the calling key's limits and what is left of them", async () => {
    const { key } = await createKey(store, 'client-team', { rpm: 30 });
    const answer = await createClient({ baseURL: served.url, key }).key();
    expect(answer).toMatchObject({
      success: true,
      metadata: { key: { name: 'client-team', limits: { rpm: 30 }, remaining: { rpm: 30 } } },
    });
  });

  test('usage() and usageRequests() send their query and answer the record', async () => {
    const admin = createClient({ baseURL: served.url, key: ADMIN });
    const sent = await admin.text(
      { model: 'openai:gpt-4o-mini', input: 'Hi' },
      { headers: { 'x-trace-id': 'client-usage-trace' } },
    );
    expect(sent.success).toBe(true);
    await gateway.flush();
    const report = await admin.usage({ group_by: 'route', bucket: 'minute' });
    if (!report.success) throw new Error(report.error.message);
    // The records so far: this text request, and the key() read of the test before.
    expect(report.metadata.usage).toMatchObject({ group_by: 'route', bucket: 'minute' });
    expect((report.metadata.usage as { groups: unknown[] }).groups).toContainEqual(
      expect.objectContaining({ group: '/v1/text', requests: 1 }),
    );
    const page = await admin.usageRequests({ trace_id: 'client-usage-trace', limit: 5 });
    expect(page).toMatchObject({
      success: true,
      metadata: { requests: [{ trace_id: 'client-usage-trace', target: 'openai:gpt-4o-mini' }] },
    });
    const refused = await admin.usage({ bucket: 'fortnight' as 'day' });
    expect(refused).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    const anonymous = await createClient({ baseURL: served.url }).usageRequests();
    expect(anonymous).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_ERROR' } });
  });
});
