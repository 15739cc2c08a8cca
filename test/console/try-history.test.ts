import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { consoleAsset, eventually, expectAccessible, fileOf, serveFetch, useConsolePage } from './browser.js';

let replay: ReplayProviders;

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

describe("Try's History", { timeout: 120_000 }, () => {
  test('lists a transcription by its audio file, not by the text prompt sent before it', async () => {
    await page.goto(`${site.url}#try`);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    await page.getByLabel('Stream the answer').uncheck();
    await page.getByRole('combobox', { name: 'Route', exact: true }).selectOption('openai:gpt-4o-mini');
    await page.getByLabel('Message', { exact: true }).fill('A text prompt sent first');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('summary', { hasText: 'History (1)' }).waitFor();

    await page.getByRole('radio', { name: 'Transcription', exact: true }).check();
    await page.getByRole('combobox', { name: 'Route', exact: true }).selectOption({
      label: 'Another route: type provider:model',
    });
    await page.getByRole('textbox', { name: 'Route to send' }).fill('openai:whisper-1');
    await page
      .getByLabel('Audio file')
      .setInputFiles(fileOf('greeting.mp3', Buffer.from('SUQzBAAAAAAAD//7kGQAAA==', 'base64'), 'audio/mpeg'));
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('summary', { hasText: 'History (2)' }).click();
    const entries = page.getByRole('list', { name: 'History' }).getByRole('listitem');
    await eventually(() => entries.count()).toBe(2);
    const newest = await entries.first().innerText();
    expect(newest).toContain('openai:whisper-1');
    expect(newest).toContain('Audio file greeting.mp3');
    expect(newest).not.toContain('A text prompt sent first');
    expect(await entries.nth(1).innerText()).toContain('A text prompt sent first');
    await expectAccessible(page);
  });
});
