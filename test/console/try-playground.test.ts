import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import {
  consoleAsset,
  eventually,
  expectAccessible,
  fileOf,
  saveEverySize,
  serveFetch,
  useConsolePage,
} from './browser.js';

let replay: ReplayProviders;

// The console served by the gateway, its providers the local replay servers and the offline demo.
const site = useConsolePage(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: { ...replay.providers(), demo: { type: 'demo' } } as GatewayOptions['providers'],
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
beforeEach(() => {
  replay.requests.length = 0;
});

const picker = () => page.getByRole('combobox', { name: 'Route', exact: true });
const message = () => page.getByRole('textbox', { name: 'Message', exact: true });
const answer = () => page.getByRole('region', { name: 'Answer', exact: true });
const conversation = () => page.getByRole('region', { name: 'Conversation' });
const turns = () => conversation().locator('li.turn');
const facts = () => page.locator('dl.facts').last();

/** Opens Try freshly loaded on a text route, streaming off unless asked. */
async function openOn(route: string, stream = false): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${site.url}#try`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await eventually(() => page.getByText(/^Routes from GET \/v1\/models: /).count()).toBe(1);
  await picker().selectOption(route);
  if (!stream) await page.getByLabel('Stream the answer').uncheck();
}

/** Types a message and sends it with the Send button, then waits for its answer card. */
async function say(text: string): Promise<void> {
  const before = replay.requests.length;
  await message().fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await eventually(() => replay.requests.length).toBe(before + 1);
  await page.locator('.response .outcome').waitFor();
}

/** What the provider was last sent, as its parsed body. */
function lastBody(): Record<string, unknown> {
  return (replay.requests.at(-1)?.body ?? {}) as Record<string, unknown>;
}

/** A Chat Completions answer whose message says `content`. */
function chatAnswer(content: string) {
  const recorded = fixture('openai.chat/success/text-after-tool-result.json');
  const body = recorded.body as { choices: { message: { content: string } }[] };
  return {
    ...recorded,
    body: { ...body, choices: [{ ...body.choices[0], message: { role: 'assistant', content } }] },
  };
}

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Try view as a playground', { timeout: 120_000 }, () => {
  test('holds a three-turn conversation with a system prompt; a turn is edited and the answer regenerated', async () => {
    await openOn('openai:gpt-4o-mini');
    await page.getByRole('textbox', { name: 'System prompt' }).fill('Answer in one sentence.');
    await say('Hi');
    await say('And the second?');
    // The third is sent from the keyboard: Ctrl+Enter in the message field.
    await message().fill('And the third?');
    await message().press('Control+Enter');
    await eventually(() => replay.requests.length).toBe(3);
    await eventually(() => turns().count()).toBe(5);
    const paris = 'Paris is the capital of France.';
    expect(lastBody().messages).toEqual([
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: paris },
      { role: 'user', content: 'And the second?' },
      { role: 'assistant', content: paris },
      { role: 'user', content: 'And the third?' },
    ]);
    await answer().waitFor();
    expect(await turns().locator('.author').allInnerTexts()).toEqual(['You', 'Model', 'You', 'Model', 'You']);
    expect(await message().inputValue()).toBe('');
    expect(await facts().innerText()).toMatch(/Cost\s+(\$\d|unknown)/);
    await expectAccessible(page);
    await saveEverySize(page, 'try-conversation');

    // Edit the first turn, then regenerate the last answer: the conversation is sent again without it.
    await page.getByRole('button', { name: 'Edit turn 1' }).click();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Edit turn 1' }).fill('Hello');
    await page.getByRole('button', { name: 'Save turn 1' }).click();
    replay.enqueue(chatAnswer('A new third answer.'));
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await eventually(() => replay.requests.length).toBe(4);
    const regenerated = lastBody().messages as { role: string; content: unknown }[];
    expect(regenerated).toHaveLength(6);
    expect(regenerated[1]).toEqual({ role: 'user', content: 'Hello' });
    expect(regenerated.at(-1)).toEqual({ role: 'user', content: 'And the third?' });
    await eventually(() => answer().innerText()).toBe('A new third answer.');
    await page.getByRole('button', { name: 'Clear the conversation' }).click();
    expect(await conversation().count()).toBe(0);
  });

  test('sends the parameters the route takes, which the provider receives, and refuses a wrong one', async () => {
    await openOn('openai:gpt-4o-mini');
    const panel = page.locator('details.parameters');
    await panel.getByLabel('Temperature (0–2)').fill('3');
    await expect.poll(() => panel.getByText('From 0 to 2.').count()).toBe(1);
    expect(await panel.getByLabel('Temperature (0–2)').getAttribute('aria-invalid')).toBe('true');
    await message().fill('Hi');
    await page.getByRole('button', { name: 'Send' }).click();
    const refused = page.getByRole('alert', { name: 'The request cannot be sent' });
    await refused.waitFor();
    expect(await refused.innerText()).toContain('temperature: From 0 to 2.');
    expect(replay.requests).toEqual([]);
    await expectAccessible(page);

    await panel.getByLabel('Temperature (0–2)').fill('0.3');
    await panel.getByLabel('Top p (0–1)').fill('0.8');
    await panel.getByLabel('Max tokens').fill('50');
    await panel.getByLabel('Stop sequences (one a line)').fill('END\nSTOP');
    await panel.getByLabel('Seed').fill('42');
    await panel.getByLabel('Provider options (JSON)').fill('{"openai": {"user": "console-test"}}');
    await page.getByRole('button', { name: 'Send' }).click();
    await answer().waitFor();
    expect(lastBody()).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.3,
      top_p: 0.8,
      stop: ['END', 'STOP'],
      seed: 42,
      user: 'console-test',
    });
    expect(lastBody().max_tokens ?? lastBody().max_completion_tokens).toBe(50);

    // Anthropic takes no seed: the panel does not offer it, and a seed typed before is not sent.
    await picker().selectOption('anthropic:claude-sonnet-4-5');
    await eventually(() => panel.getByLabel('Seed').count()).toBe(0);
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await eventually(() => replay.requests.length).toBe(2);
    expect(lastBody()).toMatchObject({ temperature: 0.3, stop_sequences: ['END', 'STOP'] });
    expect(lastBody()).not.toHaveProperty('seed');
  });

  test('shows the tool call the model makes, and continues with the result typed by hand', async () => {
    await openOn('openai:gpt-4o-mini');
    await page.getByRole('button', { name: 'Add a tool' }).click();
    const name = page.getByRole('textbox', { name: 'Tool 1 name' });
    expect(await name.inputValue()).toBe('get_weather');
    // The schema is checked as it is typed.
    const schema = page.getByRole('textbox', { name: /^Tool 1 parameters/ });
    await schema.fill('{"type": "object", ');
    await expect.poll(() => schema.getAttribute('aria-invalid')).toBe('true');
    await schema.fill('{"type": "object", "properties": {"city": {"type": "string"}}}');
    await expect.poll(() => schema.getAttribute('aria-invalid')).toBeNull();
    await say('Weather in Oslo?');
    expect(lastBody().tools).toEqual([
      expect.objectContaining({
        type: 'function',
        function: expect.objectContaining({ name: 'get_weather' }),
      }),
    ]);
    const results = page.getByRole('form', { name: 'Answer the tool calls' });
    await results.waitFor();
    const result = results.getByRole('textbox', { name: /^Result of get_weather / });
    expect(JSON.parse(await result.inputValue())).toEqual({ tool: 'get_weather', ok: true });
    await expectAccessible(page);
    await saveEverySize(page, 'try-tool-call');
    await result.fill('{"temperature_c": 12}');
    await results.getByRole('button', { name: 'Send the results' }).click();
    await eventually(() => replay.requests.length).toBe(2);
    const sent = lastBody().messages as Record<string, unknown>[];
    const call = sent[1] as { tool_calls: { id: string; function: { name: string } }[] };
    expect(call.tool_calls[0]?.function.name).toBe('get_weather');
    expect(sent[2]).toMatchObject({ role: 'tool', tool_call_id: call.tool_calls[0]?.id });
    expect(JSON.parse(String(sent[2]?.content))).toEqual({ temperature_c: 12 });
    await answer().waitFor();
    expect(await turns().locator('.author').allInnerTexts()).toEqual(['You', 'Model', 'Tool result']);
    expect(await results.count()).toBe(0);
  });

  test('reproduces the demo: a tool call answered, then a JSON-schema answer shown as a tree', async () => {
    await openOn('demo:chat');
    await page.getByRole('button', { name: 'Add a tool' }).click();
    await page.getByLabel('Answer with a JSON object of a schema').check();
    await message().fill('Plan a trip');
    await page.getByRole('button', { name: 'Send' }).click();
    const results = page.getByRole('form', { name: 'Answer the tool calls' });
    await results.waitFor();
    await results.getByRole('button', { name: 'Send the results' }).click();
    const object = answer().locator('.object');
    await object.waitFor();
    expect(await object.getByRole('heading').textContent()).toBe('Structured object');
    expect(await object.locator('.key').allInnerTexts()).toEqual(['city', 'population']);
    expect(await facts().innerText()).toMatch(/Cost\s+\$0 \(the demo costs nothing\)/);
    await expectAccessible(page);
    await saveEverySize(page, 'try-demo-structured');
  });

  test('flags the members of an answer that break the schema, in the object shown as a tree', async () => {
    await openOn('openai:gpt-4o-mini');
    await page.getByLabel('Answer with a JSON object of a schema').check();
    replay.enqueue(chatAnswer('{"city": "Paris", "population": "many"}'));
    await say('Which city?');
    expect(lastBody()).toMatchObject({ response_format: { type: 'json_schema' } });
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.getByRole('heading', { level: 3 }).innerText()).toMatch(/^INVALID_PROVIDER_RESPONSE/);
    const flagged = card.locator('ul.tree li.violation');
    expect(await flagged.count()).toBe(1);
    expect(await flagged.innerText()).toMatch(/^population: "many" ✗ /);
    expect(await card.getByRole('list', { name: 'Schema violations' }).innerText()).toMatch(
      /^\/population: /,
    );
    await expectAccessible(page);
    await saveEverySize(page, 'try-schema-violation');
  });

  test('attaches an image and a PDF to a user turn', async () => {
    await openOn('openai:gpt-4o-mini');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .getByLabel('Attach an image or a PDF')
      .setInputFiles([
        fileOf('dot.png', png, 'image/png'),
        fileOf('note.pdf', '%PDF-1.4\n', 'application/pdf'),
      ]);
    const attached = page.getByRole('list', { name: 'Attached files' });
    await eventually(() => attached.getByRole('listitem').count()).toBe(2);
    expect(await attached.getByRole('img', { name: 'dot.png' }).count()).toBe(1);
    await expectAccessible(page);
    await say('What is in these?');
    const content = (lastBody().messages as { content: unknown }[])[0]?.content;
    expect(content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      expect.objectContaining({ type: 'file' }),
    ]);
    expect(await attached.count()).toBe(0);
    expect(await turns().first().innerText()).toContain('Attached: dot.png, note.pdf');
  });

  test('Stop cancels a streamed answer, and the provider call is aborted too', async () => {
    await openOn('openai:gpt-4o-mini', true);
    replay.aborted.length = 0;
    replay.enqueue(fixture('openai.chat/success/stream-text.json', { stallAfterEvents: 2 }));
    await message().fill('Say hello slowly');
    await page.getByRole('button', { name: 'Send' }).click();
    // The stream stops after its first word: the answer so far grows in place, then waits.
    await eventually(() => page.locator('[aria-label="Answer so far"] .content').innerText()).toBe('Hel');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Stop' }).click();
    const card = page.getByRole('alert');
    await card.waitFor();
    expect(await card.innerText()).toContain('Cancelled.');
    await eventually(() => replay.aborted.length).toBe(1);
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    // The message stays in the conversation, to send again.
    expect(await turns().locator('.author').allInnerTexts()).toEqual(['You']);
  });
});
