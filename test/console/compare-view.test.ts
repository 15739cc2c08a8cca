import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { consoleAsset, expectAccessible, saveEverySize, serveFetch, useConsolePage } from './browser.js';

let replay: ReplayProviders;

// The console served by the gateway itself, its providers the local replay servers of the gateway's tests.
const site = useConsolePage(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    console: consoleAsset,
  });
  const served = await serveFetch(gateway.fetch);
  return {
    url: served.url,
    async close() {
      await served.close();
      await replay.close();
    },
  };
});

let page: Page;
beforeAll(() => {
  page = site.page;
});

const column = (n: number) => page.getByRole('region', { name: new RegExp(`^Route ${n}: `) });

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Compare view', { timeout: 120_000 }, () => {
  test('sends one prompt to three routes and shows the envelopes side by side, one of them failed', async () => {
    await page.goto(`${site.url}#compare`);
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    // Two routes to begin with, each on a route of its own; a third added.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route 1', exact: true }).inputValue())
      .toBe('openai:gpt-4o-mini');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route 2', exact: true }).inputValue())
      .toBe('anthropic:claude-sonnet-4-5');
    await page.getByRole('button', { name: 'Add a route' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route 3', exact: true }).inputValue())
      .toBe('google:gemini-2.5-flash');
    replay.enqueue({
      ...fixture('anthropic.messages/AUTHENTICATION_ERROR/authentication-401.json'),
      match: '/messages',
    });
    await page.getByLabel('Prompt').fill('What is the capital of France?');
    await page.getByRole('button', { name: 'Send to 3 routes' }).click();

    await column(1).getByRole('region', { name: 'Answer from openai:gpt-4o-mini' }).waitFor();
    await column(2).getByRole('alert').waitFor();
    await column(3).getByRole('region', { name: 'Answer from google:gemini-2.5-flash' }).waitFor();
    expect(replay.requests.map((r) => r.path.split('?')[0]).sort()).toEqual([
      '/v1/chat/completions',
      '/v1/messages',
      '/v1beta/models/gemini-2.5-flash:generateContent',
    ]);
    // The same envelope facts line up in every column, whatever provider answered.
    for (const n of [1, 3]) {
      const facts = await column(n).locator('dl.facts').innerText();
      expect(facts).toMatch(/Usage\s+\d+ input tokens, \d+ output tokens/);
      expect(facts).toMatch(/Latency\s+\d+ ms at the gateway/);
      expect(facts).toMatch(/Finish reason\s+stop/);
    }
    expect(await column(2).getByRole('alert').getByRole('heading').innerText()).toBe(
      'AUTHENTICATION_ERROR HTTP 401',
    );
    expect(await column(2).locator('dl.facts').innerText()).toMatch(/Provider\s+anthropic/);
    // Side by side at desktop width.
    const boxes = await Promise.all([1, 2, 3].map((n) => column(n).boundingBox()));
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);
    expect(boxes[2]!.x).toBeGreaterThan(boxes[1]!.x + boxes[1]!.width - 1);
    await expectAccessible(page);
    await saveEverySize(page, 'compare-three-routes');
  });
});
