import { beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import {
  createKey,
  type GatewayStore,
  migrateStore,
  openStore,
  UsageWriter,
} from '../../src/gateway/store/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import {
  consoleAsset,
  expectAccessible,
  expectNoSidewaysScroll,
  saveScreenshot,
  serveFetch,
  useConsolePage,
} from './browser.js';

const ADMIN = 'console-admin-key-0123456789abcdef';
let replay: ReplayProviders;
let store: GatewayStore;

/** An hour of traffic from three keys on three models: a few failures, latencies that vary. */
async function recordHour(): Promise<void> {
  const writer = new UsageWriter(store);
  const keys = ['team-a', 'team-b', 'batch-jobs'];
  const targets = ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5', 'google:gemini-2.5-flash'];
  const now = Date.now();
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  for (let index = 0; index < 900; index++) {
    const minute = Math.floor(random() * 60);
    const target = targets[index % 3] as string;
    const failed = random() < (minute > 40 && minute < 46 ? 0.4 : 0.03);
    writer.add({
      request_id: `seed-${index}`,
      time: new Date(now - minute * 60_000 - Math.floor(random() * 59_000)).toISOString(),
      trace_id: `seed-trace-${index}`,
      key_name: keys[Math.floor(random() * (minute < 20 ? 2 : 3))] as string,
      route: '/v1/text',
      surface: 'verdict',
      provider: target.split(':')[0] as string,
      model: target.split(':')[1] as string,
      target,
      attempts: failed ? 3 : 1,
      status: failed ? 429 : 200,
      code: failed ? 'RATE_LIMITED' : 'ok',
      latency_ms: Math.round(200 + random() * 600 + (index % 3) * 150),
      input_tokens: failed ? 0 : Math.round(200 + random() * 1500),
      output_tokens: failed ? 0 : Math.round(20 + random() * 300),
      // One success in thirty has no price, as the gateway records a model without one (no random draw: the
      // records' times and keys stay as they were).
      cost_usd: failed ? 0 : index % 30 === 2 ? null : ((index % 7) + 1) / 1e5,
      cost_reason: !failed && index % 30 === 2 ? 'unknown_price' : null,
    });
  }
  expect(await writer.flush(60_000)).toBe(0);
}

// PGlite creates its database in seconds (tens on a busy machine): before the browser and its own deadline.
beforeAll(async () => {
  store = await openStore(':memory:');
  await migrateStore(store);
  await recordHour();
}, 180_000);

const site = useConsolePage(async () => {
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    store,
    adminKey: ADMIN,
    console: consoleAsset,
  });
  const served = await serveFetch(gateway.fetch);
  // One real request, so the table has a record the test can search for by its trace id.
  await gateway.request('/v1/text', {
    method: 'POST',
    body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'Hi' }),
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${ADMIN}`,
      'x-trace-id': 'console-usage-trace',
    },
  });
  await gateway.flush();
  return {
    url: served.url,
    async close() {
      await served.close();
      await replay.close();
      await store.close();
    },
  };
});

describe('the Usage view', { timeout: 180_000 }, () => {
  test('asks for the admin key, then draws the charts and finds a request by trace id', async () => {
    const { page } = site;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${site.url}#usage`);
    await page.getByRole('button', { name: 'Show usage' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/^AUTHENTICATION_ERROR: .+ Enter the admin key above\.$/);

    await page.getByLabel('Admin key').fill(ADMIN);
    await page.getByRole('button', { name: 'Show usage' }).click();
    const requests = page.getByRole('img', { name: /^Requests \(requests\)/ });
    await requests.waitFor();
    // The seeded requests and the page's own before this read: the refused usage read, and the route catalog
    // that the console asks for when it opens.
    expect(await page.locator('.usage-totals').innerText()).toMatch(/Requests\s+90[12]\b/);
    // Dollars beside tokens, the calls without a price counted apart.
    expect(await page.locator('.usage-totals').innerText()).toMatch(/Cost\s+\$0\.\d+ \+ \d+ unpriced/);
    for (const name of ['Requests', 'Tokens', 'Cost', 'Error rate', 'Latency p50', 'Latency p95']) {
      await expect(page.getByRole('img', { name: new RegExp(`^${name} \\(`) }).count()).resolves.toBe(1);
    }
    expect(await page.locator('.usage-chart polyline').count()).toBeGreaterThan(5);
    const legend = page.getByRole('list', { name: 'Requests: lines' });
    expect(await legend.innerText()).toMatch(/team-a[\s\S]*team-b[\s\S]*batch-jobs|team-/);

    await page.getByLabel('Trace id').fill('console-usage-trace');
    await page.getByRole('button', { name: 'Search' }).click();
    // The trace is in the unfiltered table already: wait for the table the search answered.
    await expect.poll(() => page.locator('table.usage-requests tbody tr').count()).toBe(1);
    await page.getByRole('cell', { name: 'console-usage-trace' }).waitFor();
    await page.getByLabel('Trace id').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'More requests' }).waitFor();

    await page.getByRole('radio', { name: 'Model' }).check();
    await page.getByRole('list', { name: 'Requests: lines' }).getByText('gpt-4o-mini').waitFor();

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `usage-1280-${colorScheme}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `usage-390-${colorScheme}`);
    }
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
  });

  test("Try shows what is left of a stored key's limits after an answer, and the answer's rate limit headers", async () => {
    const { page } = site;
    const { key } = await createKey(store, 'try-team', {
      rpm: 60,
      budget_tokens: 100_000,
      budget_period: 'month',
    });
    await page.goto(`${site.url}#try`);
    await page.locator('summary', { hasText: 'Connection' }).click();
    await page.getByLabel(/^Gateway key/).fill(key);
    await page.getByRole('button', { name: 'Reload routes' }).click();
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    await page.getByLabel('Stream the answer').uncheck();
    await page.getByRole('combobox', { name: 'Route', exact: true }).selectOption('openai:gpt-4o-mini');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Say hi');
    await page.getByRole('button', { name: 'Send' }).click();
    const limits = page.getByText(/^Key "try-team" has left: /);
    await limits.waitFor();
    // 60 left when a new minute began between the answer and the read of the limits.
    expect(await limits.innerText()).toMatch(
      /^Key "try-team" has left: (?:59|60) of 60 requests this minute · [\d,]+ of 100,000 budget tokens \(month\)\.$/,
    );
    // The answer's own RateLimit-* headers, read as it arrived: this request is already counted.
    const row = /Rate limit\s+(\d+) of 60 requests left this minute, for \d+ s more/.exec(
      await page.locator('dl.facts').innerText(),
    );
    expect(Number(row?.[1])).toBeLessThan(60);

    // The answer's trace id stays on one line at 390 px, and links to its usage record.
    const traceId = await page.locator('dl.facts code.trace').innerText();
    await page.setViewportSize({ width: 390, height: 844 });
    const lines = await page
      .locator('dl.facts code.trace')
      .evaluate((code) => new Set([...code.getClientRects()].map((rect) => Math.round(rect.top))).size);
    expect(lines).toBe(1);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Usage record' }).click();
    expect(page.url()).toBe(`${site.url}#usage?trace_id=${encodeURIComponent(traceId)}`);
    expect(await page.getByText(/^The request records of trace /).innerText()).toContain(traceId);
    await page.getByLabel('Admin key').fill(ADMIN);
    await page.getByRole('button', { name: 'Show usage' }).click();
    await page.getByRole('cell', { name: traceId }).waitFor();
    expect(await page.getByLabel('Trace id').inputValue()).toBe(traceId);
    expect(await page.locator('table.usage-requests tbody tr').count()).toBe(1);
    expect(await page.locator('table.usage-requests tbody tr').innerText()).toMatch(/try-team/);
  });
});
