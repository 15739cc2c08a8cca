import { describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { consoleAsset, serveFetch, useConsolePage } from './browser.js';

const KEY = 'console-test-gateway-key-0123456789';
let replay: ReplayProviders;

// A gateway that asks for a key: the console page itself is public, its API calls are not.
const site = useConsolePage(async () => {
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    keys: [KEY],
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

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Try view with a gateway that asks for a key', { timeout: 120_000 }, () => {
  test('says the key is missing, then lists the routes and answers once it is given', async () => {
    const { page } = site;
    await page.goto(`${site.url}#try`);
    const note = page.getByText(/^GET \/v1\/models failed/);
    await note.waitFor();
    expect(await note.innerText()).toMatch(/^GET \/v1\/models failed \(HTTP 401, AUTHENTICATION_ERROR\): .+/);
    await page.getByRole('alert', { name: 'This gateway needs a key' }).waitFor();
    await page.locator('summary', { hasText: 'Connection' }).click();
    await page.getByLabel('Gateway key (this gateway needs one)').fill(KEY);
    await page.getByRole('button', { name: 'Reload routes' }).click();
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    await page.getByLabel('Stream the answer').uncheck();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route', exact: true }).inputValue())
      .toBe('openai:gpt-4o-mini');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Say hi');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('region', { name: 'Answer', exact: true });
    await answer.waitFor();
    expect(await answer.innerText()).toBe('Paris is the capital of France.');
    expect(replay.requests).toHaveLength(1);
    expect(JSON.stringify(replay.requests[0]?.headers)).not.toContain(KEY);
  });
});
