import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import {
  consoleAsset,
  eventually,
  expectAccessible,
  saveEverySize,
  serveFetch,
  useConsolePage,
} from './browser.js';

// The console served by a gateway with the demo provider only, as `verdict gateway --demo` serves it: the demo's
// picture, audio and video must load and play in the browser, not just be there.
const site = useConsolePage(async () => {
  const gateway = createGateway({ providers: { demo: { type: 'demo' } }, console: consoleAsset });
  return serveFetch(gateway.fetch);
});

let page: Page;
beforeAll(() => {
  page = site.page;
});

const answer = () => page.getByRole('region', { name: 'Answer', exact: true });
const picker = () => page.getByRole('combobox', { name: 'Route', exact: true });

/** Opens Try, picks the modality and route, types the prompt and sends it. */
async function send(modality: string, route: string, prompt: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${site.url}#try`);
  await eventually(() => page.getByText(/^Routes from GET \/v1\/models: /).count()).toBe(1);
  await page.getByRole('radio', { name: modality, exact: true }).check();
  await picker().selectOption(route);
  // Text takes its next message; the other modalities have one prompt field.
  const field =
    modality === 'Text'
      ? page.getByRole('textbox', { name: 'Message', exact: true })
      : page.locator('form textarea');
  await field.fill(prompt);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The media element's duration and size once the browser has read its metadata (it rejects on a decode error). */
function metadataOf(player: Locator) {
  return player.evaluate(
    (media: HTMLMediaElement) =>
      new Promise<{ duration: number; width: number; height: number }>((resolve, reject) => {
        const done = () =>
          resolve({
            duration: media.duration,
            width: (media as HTMLVideoElement).videoWidth ?? 0,
            height: (media as HTMLVideoElement).videoHeight ?? 0,
          });
        if (media.readyState >= 1) return done();
        media.addEventListener('loadedmetadata', done, { once: true });
        media.addEventListener('error', () => reject(new Error(`media error ${media.error?.code}`)), {
          once: true,
        });
      }),
  );
}

describe('the demo in the console', { timeout: 120_000 }, () => {
  test('lists two answering routes and demo:fail for every modality it compares', async () => {
    await page.goto(`${site.url}#try`);
    await eventually(() => page.getByText(/^Routes from GET \/v1\/models: /).count()).toBe(1);
    for (const [modality, routes] of [
      ['Text', ['demo:chat', 'demo:chat-mini', 'demo:fail']],
      ['Image', ['demo:image', 'demo:image-sketch', 'demo:fail']],
      ['Speech', ['demo:tts', 'demo:tts-bright', 'demo:fail']],
      ['Video', ['demo:video', 'demo:video-short', 'demo:fail']],
    ] as const) {
      await page.getByRole('radio', { name: modality, exact: true }).check();
      const offered = await picker()
        .locator('optgroup option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(offered).toEqual(routes);
    }
  });

  test('Compare starts with two different demo routes and compares three', async () => {
    await page.goto(`${site.url}#compare`);
    const route = (n: number) => page.getByRole('combobox', { name: `Route ${n}`, exact: true });
    await expect.poll(() => route(1).inputValue()).toBe('demo:chat');
    await expect.poll(() => route(2).inputValue()).toBe('demo:chat-mini');
    await page.getByRole('button', { name: 'Add a route' }).click();
    await expect.poll(() => route(3).inputValue()).toBe('demo:fail');
    await page.getByLabel('Prompt').fill('Hello');
    await page.getByRole('button', { name: 'Send to 3 routes' }).click();
    const column = (n: number) => page.getByRole('region', { name: new RegExp(`^Route ${n}: `) });
    await column(1).getByRole('region', { name: 'Answer from demo:chat' }).waitFor();
    await column(2).getByRole('region', { name: 'Answer from demo:chat-mini' }).waitFor();
    await column(3).getByRole('alert').waitFor();
    await expectAccessible(page);
    await saveEverySize(page, 'compare-demo');
  });

  test('draws the picture at the size the demo made it', async () => {
    await send('Image', 'demo:image', 'a lighthouse at dusk');
    const image = answer().locator('img');
    await image.waitFor();
    await eventually(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(512);
  });

  test('plays a second or more of speech', async () => {
    await send('Speech', 'demo:tts', 'Hello from the demo');
    const player = answer().locator('audio[controls]');
    await player.waitFor({ state: 'attached' });
    const { duration } = await metadataOf(player);
    expect(duration).toBeGreaterThanOrEqual(1);
  });

  test('plays the two-second video', async () => {
    await send('Video', 'demo:video', 'a square crossing the sky');
    const player = answer().locator('video[controls]');
    await player.waitFor({ state: 'attached' });
    const metadata = await metadataOf(player);
    expect(metadata).toMatchObject({ width: 320, height: 180 });
    expect(metadata.duration).toBeGreaterThan(1.5);
  });

  test('shows demo:fail as a failure card with its code', async () => {
    await send('Text', 'demo:fail', 'Say hi');
    await eventually(() => page.getByText(/PROVIDER_UNAVAILABLE/).count()).toBeGreaterThan(0);
    expect(await page.getByText(/fails on purpose/).count()).toBeGreaterThan(0);
  });
});
