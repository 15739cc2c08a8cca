import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import {
  consoleAsset,
  DESKTOP,
  eventually,
  expectAccessible,
  fileOf,
  PHONE,
  saveEverySize,
  saveScreenshot,
  serveFetch,
  useConsolePage,
} from './browser.js';

let replay: ReplayProviders;

// The console served by the gateway itself at `/`, its providers the local replay servers of the gateway's tests.
const site = useConsolePage(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    videoPollMs: 10,
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
beforeAll(async () => {
  page = site.page;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
});
beforeEach(() => {
  replay.requests.length = 0;
});

/** Opens the Try view freshly loaded from the gateway, with no history, and waits for its routes. */
async function openTry(): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${site.url}#try`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await eventually(() => page.getByText(/^Routes from GET \/v1\/models: /).count()).toBe(1);
}

/** The field of the prompt: the next message of a text conversation, the prompt of the other modalities. */
const PROMPT_LABELS: Record<string, string> = {
  Text: 'Message',
  Image: 'Image prompt',
  Speech: 'Text to speak',
  Video: 'Video prompt',
};
const promptBox = (modality = 'Text') =>
  page.getByRole('textbox', { name: PROMPT_LABELS[modality] ?? 'Prompt', exact: true });

const picker = () => page.getByRole('combobox', { name: 'Route', exact: true });

/** Chooses a route: from the picker when it offers it, else typed under "Another route". */
async function chooseRoute(model: string): Promise<void> {
  const offered = await picker()
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  if (offered.includes(model)) {
    await picker().selectOption(model);
    return;
  }
  await picker().selectOption({ label: 'Another route: type provider:model' });
  await page.getByRole('textbox', { name: 'Route to send' }).fill(model);
}

/** Fills the form and sends it. */
async function send(model: string, modality: string, prompt?: string): Promise<void> {
  await page.getByRole('radio', { name: modality, exact: true }).check();
  await chooseRoute(model);
  if (prompt !== undefined) await promptBox(modality).fill(prompt);
  await page.getByRole('button', { name: 'Send' }).click();
}

const answer = () => page.getByRole('region', { name: 'Answer', exact: true });
const facts = () => page.locator('dl.facts').last();

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Try view, served by the gateway', { timeout: 120_000 }, () => {
  test("runs under the gateway's Content-Security-Policy, which refuses an inline script and reports it", async () => {
    await openTry();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.title = "injected"';
      document.body.append(script);
    });
    await eventually(() => site.cspViolations.length).toBe(1);
    expect(site.cspViolations.splice(0)).toEqual([expect.stringMatching(/^script-src-elem: inline$/)]);
    expect(await page.title()).toBe('verdict console');
  });

  test('offers the routes of GET /v1/models and answers the default route without typing a model', async () => {
    await openTry();
    await expect.poll(() => picker().inputValue()).toBe('openai:gpt-4o-mini');
    const groups = await picker()
      .locator('optgroup')
      .evaluateAll((all) => all.map((g) => (g as HTMLOptGroupElement).label));
    expect(groups).toEqual(['openai', 'anthropic', 'google']);
    expect(await page.getByRole('status').first().innerText()).toBe(
      'Routes from GET /v1/models: 5 providers, 0 aliases. For openrouter, choose Another route and type provider:model.',
    );
    await page.getByLabel('Stream the answer').uncheck();
    await promptBox().fill('Say hi');
    await page.getByRole('button', { name: 'Send' }).click();
    await answer().waitFor();
    expect(await answer().innerText()).toBe('Paris is the capital of France.');
    const shown = await facts().innerText();
    expect(shown).toMatch(/Provider\s+openai/);
    expect(shown).toMatch(/Finish reason\s+stop/);
    expect(shown).toMatch(/Usage\s+\d+ input tokens, \d+ output tokens/);
    expect(shown).toMatch(/Latency\s+\d+ ms at the gateway, \d+ ms in this page/);
    expect(shown).toMatch(/Attempts\s+1/);
    const traceId = await page.locator('code.trace').innerText();
    expect(replay.requests.map((r) => r.headers['x-trace-id'])).toEqual([traceId]);
    expect(replay.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Say hi' }],
    });
    // Request on the left, answer on the right at desktop width.
    const form = await page.getByRole('form', { name: 'Request' }).boundingBox();
    const shownAnswer = await answer().boundingBox();
    expect(shownAnswer!.x).toBeGreaterThan(form!.x + form!.width);
    await expectAccessible(page);
    await saveEverySize(page, 'try-text');
    // Served by the gateway, the page runs under its Content-Security-Policy and nothing was refused.
    const served = await page.request.get(site.url);
    expect(served.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(site.cspViolations).toEqual([]);
  });

  test('filters the routes by modality and keeps a typed provider:model', async () => {
    await openTry();
    await page.getByRole('radio', { name: 'Video', exact: true }).check();
    await eventually(() => picker().inputValue()).toBe('google:veo-3.0-generate-001');
    const offered = await picker().locator('option').allInnerTexts();
    expect(offered).toEqual([
      'google:veo-3.0-generate-001',
      'replicate:minimax/video-01',
      'Another route: type provider:model',
    ]);
    await page.getByRole('radio', { name: 'Text', exact: true }).check();
    await chooseRoute('openrouter:meta-llama/llama-3.1-8b-instruct');
    await page.getByRole('radio', { name: 'Image', exact: true }).check();
    expect(await page.getByRole('textbox', { name: 'Route to send' }).inputValue()).toBe(
      'openrouter:meta-llama/llama-3.1-8b-instruct',
    );
  });

  test('shows the raw envelope, formatted, on its own tab with a copy button', async () => {
    await openTry();
    await page.getByLabel('Stream the answer').uncheck();
    await send('anthropic:claude-sonnet-4-5', 'Text', 'Say hi');
    await answer().waitFor();
    await page.getByRole('tab', { name: 'Envelope' }).click();
    const raw = page.getByRole('tabpanel').locator('pre.json');
    expect(await raw.innerText()).toMatch(/^\{\n {2}"success": true,\n {2}"content": /);
    await page.getByRole('button', { name: 'Copy envelope' }).click();
    await eventually(() => page.getByRole('tabpanel').getByRole('status').innerText()).toBe('Copied.');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied).toMatchObject({ success: true, provider: 'anthropic', metadata: { attempts: 1 } });
    await expectAccessible(page);
    await saveScreenshot(page, 'try-envelope');
    await page.getByRole('tab', { name: 'Answer' }).click();
    await answer().waitFor();
  });

  test('scrolls the answer into view on a phone, where it sits below the request', async () => {
    await openTry();
    await page.setViewportSize(PHONE);
    try {
      await page.getByLabel('Stream the answer').uncheck();
      await promptBox().fill('Say hi');
      await page.getByRole('button', { name: 'Send' }).click();
      await answer().waitFor();
      const form = await page.getByRole('form', { name: 'Request' }).boundingBox();
      const shown = await answer().boundingBox();
      expect(shown!.y).toBeGreaterThan(form!.y + form!.height);
      await eventually(() =>
        answer().evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.top < innerHeight;
        }),
      ).toBe(true);
      await saveScreenshot(page, 'try-text-390-scrolled', { fullPage: false });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  test('keeps a history in this browser: re-run or open an entry, and clear it', async () => {
    await openTry();
    await page.getByLabel('Stream the answer').uncheck();
    await send('openai:gpt-4o-mini', 'Text', 'First question');
    await answer().waitFor();
    await send('google:gemini-2.5-flash-image', 'Image', 'a lighthouse');
    await page.locator('summary', { hasText: 'History (2)' }).waitFor();
    await page.reload();
    await page.locator('summary', { hasText: 'History (2)' }).click();
    const entries = page.getByRole('list', { name: 'History' }).getByRole('listitem');
    await eventually(() => entries.count()).toBe(2);
    expect(await entries.first().innerText()).toContain('google:gemini-2.5-flash-image');
    replay.requests.length = 0;
    await page.getByRole('button', { name: 'Re-run Text · openai:gpt-4o-mini' }).click();
    await answer().waitFor();
    expect(replay.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
    // Re-run on a text entry starts a conversation with its message, sent at once.
    expect(replay.requests[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: 'First question' }],
    });
    await page.getByRole('button', { name: 'Open Image · google:gemini-2.5-flash-image' }).click();
    expect(await page.getByRole('radio', { name: 'Image', exact: true }).isChecked()).toBe(true);
    await expect.poll(() => picker().inputValue()).toBe('google:gemini-2.5-flash-image');
    expect(await promptBox('Image').inputValue()).toBe('a lighthouse');
    await expectAccessible(page);
    await saveScreenshot(page, 'try-history');
    await page.getByRole('button', { name: 'Clear history' }).click();
    expect(await entries.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('verdict-console-history'))).toBeNull();
  });

  test('is usable from the keyboard alone, with a visible focus on every control it reaches', async () => {
    await openTry();
    const outlineOf = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement;
        // A segment's radio is drawn by its label: the ring is there.
        const drawn = active.matches('fieldset.segmented input')
          ? (active.parentElement as HTMLElement)
          : active;
        const style = getComputedStyle(drawn);
        return `${active.tagName.toLowerCase()}:${style.outlineStyle}`;
      });
    await page.getByRole('radio', { name: 'Text', exact: true }).focus();
    expect(await outlineOf()).toBe('input:solid');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Image', exact: true }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    // Back on Text, the picker chooses a listed route again once the page has drawn it; until then it shows the
    // field for a typed route, which the next Tab would reach.
    expect(await page.getByRole('radio', { name: 'Text', exact: true }).isChecked()).toBe(true);
    await eventually(() => page.getByRole('textbox', { name: 'Route to send' }).count()).toBe(0);
    await page.keyboard.press('Tab');
    expect(await outlineOf()).toBe('select:solid');
    await page.keyboard.press('Tab');
    expect(await outlineOf()).toBe('textarea:solid');
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.firstChild?.textContent)).toBe(
      'System prompt',
    );
    await page.keyboard.press('Tab');
    expect(await outlineOf()).toBe('textarea:solid');
    await page.keyboard.type('Say hi');
    await page.keyboard.press('Tab');
    expect(await outlineOf()).toBe('input:solid');
    await page.keyboard.press('Tab');
    expect(await outlineOf()).toBe('button:solid');
    await page.keyboard.press('Enter');
    await answer().waitFor();
    await page.getByRole('tab', { name: 'Answer' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Envelope' }).getAttribute('aria-selected')).toBe('true');
    expect(await outlineOf()).toBe('button:solid');
    expect(await page.getByRole('tabpanel').locator('pre.json').innerText()).toMatch(/"success": true/);
  });

  test('shows a streamed answer growing as its deltas arrive, then the final envelope', async () => {
    await openTry();
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { eventDelayMs: 100 }));
    // Record every text the answer shows while it streams, whatever the timing.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const content = document.querySelector('[aria-label="Answer so far"] .content');
        if (content !== null) seen.push(content.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send('openai:gpt-4o-mini', 'Text', 'Say hello');
    await answer().waitFor();
    expect(await answer().innerText()).toBe('Hello!');
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen).toContain('Hel');
    expect(replay.requests[0]?.body).toMatchObject({ stream: true });
    expect(await facts().innerText()).toMatch(/Usage\s+9 input tokens, 2 output tokens/);
  });

  test('shows a streamed tool call growing as its argument deltas arrive, then the final tool calls', async () => {
    await openTry();
    replay.enqueue(fixture('openai.chat/success/stream-tool-call.json', { eventDelayMs: 100 }));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const calls = document.querySelector('[aria-label="Tool calls so far"]');
        if (calls !== null) seen.push(calls.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send('openai:gpt-4.1-nano', 'Text', 'Look up tea');
    const calls = answer().getByRole('list', { name: 'Tool calls' });
    await calls.waitFor();
    expect(await calls.locator(':scope > li').allInnerTexts()).toEqual([
      expect.stringMatching(/^lookup call_9\s+q: "tea"$/),
    ]);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen).toContain('lookup {"q":');
    expect(await facts().innerText()).toMatch(/Finish reason\s+tool_calls/);
  });

  test('renders a generated image', async () => {
    // A real PNG for the provider to return: a picture the browser draws and screenshots, on a blank page (the
    // console's own policy refuses inline styles).
    await page.goto('about:blank');
    await page.setContent(
      '<div style="width:160px;height:96px;background:linear-gradient(135deg,#1f4fbf,#f0b429)"></div>',
    );
    const png = await page.locator('div').screenshot();
    const recorded = fixture('openai.images/success/b64-json-with-usage.json');
    const body = recorded.body as { output_format: string; data: { b64_json: string }[] };
    replay.enqueue({
      ...recorded,
      body: { ...body, output_format: 'png', data: [{ b64_json: png.toString('base64') }] },
    });
    await openTry();
    await send('openai:gpt-image-1', 'Image', 'a gradient');
    const image = answer().getByRole('img');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await image.getAttribute('alt')).toBe('Generated image 1 of 1');
    await eventually(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    expect(replay.requests.map((r) => r.path)).toEqual(['/v1/images/generations']);
    await expectAccessible(page);
    await saveEverySize(page, 'try-image');
  });

  test('puts a speech answer in an audio player', async () => {
    await openTry();
    await send('openai:tts-1', 'Speech', 'Hello');
    const player = answer().locator('audio[controls]');
    await player.waitFor({ state: 'attached' });
    expect(await player.getAttribute('src')).toMatch(/^data:audio\/mpeg;base64,/);
    expect(await player.getAttribute('aria-label')).toBe('Audio answer: speech.mp3');
    await expectAccessible(page);
  });

  test('starts a video job, polls it from the page, and puts the video in a player', async () => {
    await openTry();
    const asked: string[] = [];
    const note = (request: { method(): string; url(): string }) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/v1/videos'))
        asked.push(
          `${request.method()} ${path.replace(/[^/]+$/, (last) => (last === 'videos' ? last : 'JOB'))}`,
        );
    };
    page.on('request', note);
    try {
      // The job is still processing at the first poll and done at the second.
      replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions' });
      replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
      await send('replicate:minimax/video-01', 'Video', 'an astronaut riding a horse');
      await page
        .getByText(/^The video is being made: this page asks the gateway for it every 2 s\.$/)
        .waitFor();
      const player = answer().locator('video[controls]');
      await player.waitFor({ state: 'attached' });
      expect(await player.getAttribute('src')).toBe('https://replicate.delivery/pbxt/xyz/output.mp4');
      expect(await player.getAttribute('aria-label')).toBe('Generated video 1');
      expect(await answer().innerText()).toContain('Generated 1 video.');
    } finally {
      page.off('request', note);
    }
    expect(asked).toEqual(['POST /v1/videos', 'GET /v1/videos/JOB', 'GET /v1/videos/JOB']);
    expect(replay.requests.map((r) => r.body)[0]).toMatchObject({
      input: { prompt: 'an astronaut riding a horse' },
    });
  });

  test('cancels a video job it is polling, and says so without an HTTP status', async () => {
    await openTry();
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions' });
    replay.enqueue({ ...fixture('replicate.prediction/success/processing.json'), match: '/predictions/' });
    await send('replicate:minimax/video-01', 'Video', 'a slow sunrise');
    await page.getByText(/^The video is being made: /).waitFor();
    await eventually(() => replay.requests.length).toBe(2);
    await page.getByRole('button', { name: 'Stop' }).click();
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toBe('REQUEST_TIMEOUT');
    expect(await card.locator('.message').innerText()).toBe('Cancelled.');
    expect(await facts().innerText()).not.toMatch(/Trace id/);
  });

  test('uploads audio for a transcription', async () => {
    await openTry();
    await page.getByRole('radio', { name: 'Transcription', exact: true }).check();
    await chooseRoute('openai:whisper-1');
    await page
      .getByLabel('Audio file')
      .setInputFiles(fileOf('hi.mp3', Buffer.from('SUQzBAAAAAAAD//7kGQAAA==', 'base64'), 'audio/mpeg'));
    await page.getByRole('button', { name: 'Send' }).click();
    await answer().waitFor();
    expect(await answer().innerText()).toBe('Hello from the recording.');
    expect(replay.requests.map((r) => r.path)).toEqual(['/v1/audio/transcriptions']);
  });

  test('shows a provider failure as a card with code, status, message and a trace id to copy', async () => {
    await openTry();
    replay.enqueue(fixture('openai.chat/AUTHENTICATION_ERROR/invalid-api-key-401.json'));
    await page.getByLabel('Stream the answer').uncheck();
    await send('openai:gpt-4o-mini', 'Text', 'Say hi');
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toBe('AUTHENTICATION_ERROR HTTP 401');
    expect(await card.locator('.message').innerText()).toMatch(/\S+/);
    expect(await facts().innerText()).toMatch(/Provider\s+openai/);
    const traceId = await page.locator('code.trace').innerText();
    expect(replay.requests.map((r) => r.headers['x-trace-id'])).toEqual([traceId]);
    await page.getByRole('button', { name: 'Copy trace id' }).click();
    await eventually(() => facts().getByRole('status').innerText()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(traceId);
    await expectAccessible(page);
    await saveEverySize(page, 'try-failure');
  });

  test('cancels a request that takes too long, and the provider call is aborted too', async () => {
    await openTry();
    replay.aborted.length = 0;
    replay.enqueue({ hang: true });
    await page.getByLabel('Stream the answer').uncheck();
    await send('openai:gpt-4o-mini', 'Text', 'Take your time');
    await eventually(() => replay.requests.length).toBe(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.innerText()).toContain('Cancelled.');
    await eventually(() => replay.aborted.length).toBe(1);
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
  });

  test('says so when the gateway refuses the request itself', async () => {
    await openTry();
    await page.getByLabel('Stream the answer').uncheck();
    await send('nowhere:model', 'Text', 'Say hi');
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toMatch(/^NOT_FOUND HTTP 404$/);
    expect(await facts().innerText()).toMatch(/Provider\s+system/);
    expect(replay.requests).toEqual([]);
  });
});
