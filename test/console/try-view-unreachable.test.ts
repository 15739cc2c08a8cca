import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { eventually, type Site, serveFetch, useConsolePage } from './browser.js';

// The console as a static site on one origin; gateways on others, with and without CORS for it.
const site = useConsolePage();
let refusing: Site;
let allowing: Site;
let closedPort: number;

beforeAll(async () => {
  const origin = new URL(site.url).origin;
  refusing = await serveFetch(createGateway({ providers: { demo: {} } }).fetch);
  allowing = await serveFetch(createGateway({ providers: { demo: {} }, cors: { origins: [origin] } }).fetch);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}, 60_000);
afterAll(async () => {
  await refusing?.close();
  await allowing?.close();
});

/** Points the Try view at a gateway and reloads its routes; resolves with the note it shows. */
async function connect(baseUrl: string): Promise<void> {
  const { page } = site;
  if (!(await page.getByLabel(/^Gateway URL/).isVisible())) await page.getByText('Connection').click();
  await page.getByLabel(/^Gateway URL/).fill(baseUrl);
  await page.getByRole('button', { name: 'Reload routes' }).click();
}

const note = () => site.page.getByRole('status').first().innerText();

describe('the Try view when the gateway gives no answer it may read', { timeout: 120_000 }, () => {
  test('tells a gateway refusing the origin (CORS) from one that is down, with the fix for each', async () => {
    const { page } = site;
    const origin = new URL(site.url).origin;
    await page.goto(`${site.url}#try`);
    const refused = refusing.url.replace(/\/$/, '');
    await connect(refused);
    await eventually(note).toContain("answers but refuses requests from this page's origin");
    expect(await note()).toContain(`add "${origin}" to cors.origins`);
    expect(await note()).toContain(`${refused}/`);

    await connect(`http://127.0.0.1:${closedPort}`);
    await eventually(note).toContain(`No gateway answers at http://127.0.0.1:${closedPort}`);
    expect(await note()).not.toContain('cors.origins');

    await connect(allowing.url.replace(/\/$/, ''));
    await eventually(note).toContain('Routes from GET /v1/models: 1 provider, 0 aliases.');
  });
});
