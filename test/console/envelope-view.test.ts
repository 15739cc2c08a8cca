import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { consoleAsset, expectAccessible, saveEverySize, serveFetch, useConsolePage } from './browser.js';

/** An envelope with everything the answer can show: text, a captioned image, tool calls and an object. */
const ENVELOPE = {
  success: true,
  content: 'I looked up the weather and filled in the form.',
  provider: 'anthropic',
  usage: { input_tokens: 412, output_tokens: 57 },
  metadata: {
    trace_id: 'trc_render_1',
    model: 'claude-sonnet-4-5',
    finish_reason: 'tool_calls',
    usage_reported: true,
    latency_ms: 812,
    attempts: 2,
    tool_calls: [
      { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
      { id: 'call_2', name: 'book_table', arguments: { guests: 2, when: { day: 'friday', time: '19:30' } } },
    ],
    object: { city: 'Paris', forecast: [{ day: 'friday', high: 21 }], sunny: true },
  },
  images: [
    {
      data: '', // a picture the browser draws, set before the test
      media_type: 'image/png',
      revised_prompt: 'A lighthouse on a cliff at dusk, painted in watercolour',
    },
  ],
  files: [],
  videos: [],
};

/** The providers the stand-in lists: an anthropic provider, or the demo provider as `gateway --demo` lists it. */
const ANTHROPIC = [{ id: 'anthropic', type: 'anthropic', modalities: ['text'] }];
let listed: unknown[] = ANTHROPIC;

/** The `model` of each request the stand-in answered. */
const asked: unknown[] = [];

// A stand-in gateway on 127.0.0.1: the console page, its routes, and one fixed envelope for every request.
const site = useConsolePage(() =>
  serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/models') {
      return Response.json({
        success: true,
        content: '1 provider and 1 alias configured.',
        provider: 'system',
        usage: { input_tokens: 0, output_tokens: 0 },
        metadata: {
          trace_id: 'trc_models',
          usage_reported: false,
          providers: listed,
          aliases: listed === ANTHROPIC ? { smart: ['anthropic:claude-sonnet-4-5'] } : {},
        },
        images: [],
        files: [],
        videos: [],
      });
    }
    if (path.startsWith('/v1/')) {
      asked.push(((await request.json()) as { model?: unknown }).model);
      return Response.json(ENVELOPE, { headers: { 'x-trace-id': 'trc_render_1' } });
    }
    return consoleAsset(request) ?? new Response('Not found', { status: 404 });
  }),
);

let page: Page;
beforeAll(async () => {
  page = site.page;
  await page.setContent(
    '<div style="width:320px;height:180px;background:linear-gradient(160deg,#f0b429,#1f4fbf 70%)"></div>',
  );
  (ENVELOPE.images[0] as { data: string }).data = (await page.locator('div').screenshot()).toString('base64');
});

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Try view against a stand-in gateway', { timeout: 120_000 }, () => {
  test('renders tool calls with their arguments, a structured object as a tree and a captioned image', async () => {
    await page.goto(`${site.url}#try`);
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    // An alias comes first and is the default.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Route', exact: true }).inputValue())
      .toBe('smart');
    await page.getByLabel('Stream the answer').uncheck();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Plan my Friday in Paris');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('region', { name: 'Answer', exact: true });
    await answer.waitFor();
    const calls = await answer
      .getByRole('list', { name: 'Tool calls' })
      .locator(':scope > li')
      .allInnerTexts();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^get_weather call_1\s+city: "Paris"\s+unit: "celsius"$/);
    expect(calls[1]).toMatch(/^book_table call_2\s+guests: 2\s+when:\s*day: "friday"\s+time: "19:30"$/);
    const object = await answer.locator('.object').innerText();
    expect(object).toMatch(/city: "Paris"\s+forecast:\s*0:\s*day: "friday"\s+high: 21\s+sunny: true/);
    expect(await answer.locator('figcaption').innerText()).toBe(
      'A lighthouse on a cliff at dusk, painted in watercolour',
    );
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).toMatch(/Finish reason\s+tool_calls/);
    expect(facts).toMatch(/Attempts\s+2/);
    expect(facts).toMatch(/Trace id\s+trc_render_1/);
    await expectAccessible(page);
    await saveEverySize(page, 'try-tools');
  });

  test('offers the demo provider under its label, its chat route chosen, answering without a model typed', async () => {
    listed = [
      {
        id: 'demo',
        type: 'demo',
        modalities: ['text', 'images', 'speech', 'transcriptions', 'videos'],
        demo: true,
      },
    ];
    asked.length = 0;
    try {
      await page.goto('about:blank');
      await page.goto(`${site.url}#try`);
      await page.getByText(/^Routes from GET \/v1\/models: 1 provider, 0 aliases\.$/).waitFor();
      const picker = page.getByRole('combobox', { name: 'Route', exact: true });
      await expect.poll(() => picker.inputValue()).toBe('demo:chat');
      expect(
        await picker
          .locator('optgroup')
          .evaluateAll((all) => all.map((g) => (g as HTMLOptGroupElement).label)),
      ).toEqual(['demo: offline demo, generated answers']);
      await page.getByRole('radio', { name: 'Video', exact: true }).check();
      await expect.poll(() => picker.inputValue()).toBe('demo:video');
      await page.getByRole('radio', { name: 'Text', exact: true }).check();
      await page.getByLabel('Stream the answer').uncheck();
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Say hi');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('region', { name: 'Answer', exact: true }).waitFor();
      expect(asked).toEqual(['demo:chat']);
    } finally {
      listed = ANTHROPIC;
    }
  });
});
