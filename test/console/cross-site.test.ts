import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { eventually, type Site, serveFetch, useConsolePage } from './browser.js';

// A gateway without keys on 127.0.0.1, and a page of another site (another origin on this machine) that tries to
// spend its provider keys through a visitor's browser: requests a page may send without asking (no preflight).
let replay: ReplayProviders;
let gateway: Site;
const site = useConsolePage(async () => {
  replay = await startReplayProviders();
  gateway = await serveFetch(
    createGateway({ providers: replay.providers() as GatewayOptions['providers'], host: '127.0.0.1' }).fetch,
  );
  const target = `${gateway.url}v1/text`;
  // The form's one field spells a JSON document once the browser writes it as `name=value`.
  const page = `<!doctype html><title>elsewhere</title>
<form method="post" enctype="text/plain" action="${target}">
<input type="hidden" name='{"model":"openai:gpt-4o-mini","input":"spent by a form","x":"' value='"}'>
<button>Go</button></form>`;
  const other = await serveFetch(() => new Response(page, { headers: { 'content-type': 'text/html' } }));
  return {
    // Another origin: `localhost` and its own port, where the gateway is 127.0.0.1 and its port.
    url: other.url.replace('127.0.0.1', 'localhost'),
    async close() {
      await other.close();
      await gateway.close();
      await replay.close();
    },
  };
});
beforeAll(() => {
  replay.requests.length = 0;
});
afterAll(() => {
  expect(replay.requests).toEqual([]);
});

describe('a gateway without keys, from a page of another site', { timeout: 120_000 }, () => {
  test('a no-cors text/plain fetch and a text/plain form reach no provider', async () => {
    const { page } = site;
    await page.goto(site.url);
    const sent = await page.evaluate(async (url) => {
      const answer = await fetch(url, {
        method: 'POST',
        mode: 'no-cors',
        body: JSON.stringify({ model: 'openai:gpt-4o-mini', input: 'spent by a fetch' }),
      });
      return answer.type;
    }, `${gateway.url}v1/text`);
    expect(sent).toBe('opaque');
    await page.getByRole('button', { name: 'Go' }).click();
    // The form's answer is shown as the page: the gateway's refusal.
    await eventually(() => page.url()).toBe(`${gateway.url}v1/text`);
    const shown = JSON.parse(await page.locator('body').innerText()) as Record<string, unknown>;
    expect(shown).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { reason: 'content_type', content_type: 'text/plain' } },
    });
    expect(replay.requests).toEqual([]);
  });
});
