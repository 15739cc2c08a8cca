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

  /** Types a route into column `n` under "Another route". */
  async function typeRoute(n: number, route: string) {
    await page
      .getByRole('combobox', { name: `Route ${n}`, exact: true })
      .selectOption({ label: 'Another route: type provider:model' });
    await page.getByLabel(`Route ${n} to send`).fill(route);
  }

  /** Expects the columns' answers to start level with each other, and their Remove buttons too. */
  async function expectLevel(count: number) {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        column(i + 1)
          .locator('.card')
          .first()
          .boundingBox(),
      ),
    );
    for (const box of answers) expect(box?.y).toBe(answers[0]?.y);
    const removes = await page.getByRole('button', { name: /^Remove route \d$/ }).all();
    const tops = await Promise.all(removes.map(async (button) => (await button.boundingBox())?.y));
    for (const top of tops) expect(top).toBe(tops[0]);
  }

  test('compares two, then three models of one provider, a picked route level with typed ones', async () => {
    // A fresh page: the same address with its fragment alone would keep the earlier test's three routes.
    await page.goto('about:blank');
    await page.goto(`${site.url}#compare`);
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route 1', exact: true }).inputValue())
      .toBe('openai:gpt-4o-mini');
    // A long model name that wraps in its column's heading must not push that column's answer down.
    await typeRoute(2, 'openai:gpt-4.1-2025-04-14-with-a-long-fine-tune-suffix');
    await page.getByLabel('Prompt').fill('What is the capital of France?');
    replay.reset();
    await page.getByRole('button', { name: 'Send to 2 routes' }).click();
    for (const n of [1, 2]) await column(n).locator('dl.facts').waitFor();
    expect(replay.requests.map((r) => (r.body as { model?: string }).model).sort()).toEqual([
      'gpt-4.1-2025-04-14-with-a-long-fine-tune-suffix',
      'gpt-4o-mini',
    ]);
    await expectLevel(2);
    await expectAccessible(page);
    await saveEverySize(page, 'compare-two-models');

    await page.getByRole('button', { name: 'Add a route' }).click();
    await typeRoute(3, 'openai:gpt-4o');
    await page.getByRole('button', { name: 'Send to 3 routes' }).click();
    for (const n of [1, 2, 3]) await column(n).locator('dl.facts').waitFor();
    await expectLevel(3);
    // At 390 px the columns stack, one under the other; saveEverySize checks that nothing scrolls sideways.
    await expectAccessible(page);
    await saveEverySize(page, 'compare-three-models');
  });
});
