import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { providerVariables } from '../../src/gateway/config/provider-variables.js';
import { createGateway } from '../../src/gateway/index.js';
import { consoleAsset, expectAccessible, saveEverySize, serveFetch, useConsolePage } from './browser.js';

// A gateway with no provider and no store: what a first `verdict gateway` without keys or flags serves.
const site = useConsolePage(async () =>
  serveFetch(createGateway({ providers: {}, console: consoleAsset }).fetch),
);

let page: Page;
beforeAll(() => {
  page = site.page;
});

describe('the callouts of a gateway that cannot answer yet', { timeout: 120_000 }, () => {
  test('Try and Compare say that no provider is configured, and name the variables that configure one', async () => {
    for (const view of ['try', 'compare']) {
      await page.goto(`${site.url}#${view}`);
      const callout = page.getByRole('alert', { name: 'No provider configured' });
      await callout.waitFor();
      const said = await callout.innerText();
      expect(said).toContain('--demo');
      expect(said).toContain('OPENAI_API_KEY');
      await callout.locator('summary').click();
      // Every variable the gateway itself reads to configure a provider, and no other.
      const listed = await callout.locator('ul.variables li').allInnerTexts();
      expect(listed).toHaveLength(providerVariables().length);
      for (const { provider, variables } of providerVariables())
        expect(listed).toContain(`${provider}: ${variables.map((set) => set.join(' + ')).join(' or ')}`);
      await expectAccessible(page);
      await saveEverySize(page, `callout-no-provider-${view}`);
    }
  });

  test('Usage says that the gateway keeps no usage and how to start one that does', async () => {
    await page.goto(`${site.url}#usage`);
    await page.getByRole('button', { name: 'Show usage' }).click();
    const callout = page.getByRole('alert', { name: 'This gateway keeps no usage' });
    await callout.waitFor();
    expect(await callout.innerText()).toContain('--store DIR');
    expect(await page.getByText(/No route GET \/v1\/usage/).count()).toBe(0);
    await expectAccessible(page);
    await saveEverySize(page, 'callout-no-store');
  });
});
