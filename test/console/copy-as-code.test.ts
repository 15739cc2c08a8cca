import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TextRequest } from '../../src/client/types.js';
import { type Snippet, type SnippetKind, writeSnippets } from '../../src/console/code/snippets.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';
import { ROOT } from '../support/ensure-build.js';
import { consoleAsset, eventually, expectAccessible, serveFetch, useConsolePage } from './browser.js';

const run = promisify(execFile);
const KEY = 'copy-as-code-gateway-key-0123456789';
let replay: ReplayProviders;
let gatewayUrl = '';

// A gateway that asks for a key, its providers the local replay servers; the snippets reach it as any program would.
const site = useConsolePage(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  replay = await startReplayProviders();
  const gateway = createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    keys: [KEY],
    retryBaseMs: 1,
    console: consoleAsset,
  });
  const served = await serveFetch(gateway.fetch);
  gatewayUrl = served.url.replace(/\/$/, '');
  return {
    url: served.url,
    async close() {
      await served.close();
      await replay.close();
    },
  };
});

// The JavaScript snippets run as ES modules inside the repository, where `verdict/client`, `openai` and
// `@anthropic-ai/sdk` resolve as they would in a project that installed them.
let folder = '';
beforeAll(() => {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  folder = mkdtempSync(join(ROOT, '.tmp', 'snippets-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a snippet as its reader would: curl in a shell, the others with Node.js; gives what it printed. */
async function execute(snippet: Pick<Snippet, 'kind' | 'code'>): Promise<string> {
  const env = { ...process.env, VERDICT_GATEWAY_KEY: KEY };
  if (snippet.kind === 'curl') return (await run('sh', ['-c', snippet.code], { env })).stdout;
  const file = join(folder, `${snippet.kind}-${Date.now()}.mjs`);
  writeFileSync(file, snippet.code);
  return (await run(process.execPath, [file], { env, cwd: folder })).stdout;
}

/** The upstream requests the gateway made while `act` ran. */
async function upstreamOf(act: () => Promise<unknown>) {
  const before = replay.requests.length;
  await act();
  return replay.requests.slice(before);
}

type ChatBody = {
  messages: { role: string; content: unknown }[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string[];
  seed?: number;
  tools?: { function: { name: string } }[];
};

/** A conversation past a tool call, with a system prompt, sampling options and a tool. */
const conversation: TextRequest = {
  model: 'openai:gpt-4.1',
  system: 'Answer in one short sentence.',
  messages: [
    { role: 'user', content: "What's the weather in Oslo?" },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":12}' },
  ],
  temperature: 0.3,
  max_output_tokens: 200,
  stop: ['\n\n'],
  seed: 7,
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
};

describe('copy as code', { timeout: 120_000 }, () => {
  test('every snippet of a conversation with a system prompt, options and a tool result runs against the gateway', async () => {
    const snippets = writeSnippets(conversation, { baseUrl: gatewayUrl, keyed: true });
    expect(snippets.map((s) => s.kind)).toEqual(['curl', 'client', 'openai', 'anthropic']);
    for (const snippet of snippets) {
      expect(snippet.code).not.toContain(KEY);
      let printed = '';
      const upstream = await upstreamOf(async () => {
        printed = await execute(snippet);
      });
      expect(printed, snippet.kind).toContain('It is 12 °C in Oslo.');
      expect(upstream, snippet.kind).toHaveLength(1);
      const body = upstream[0]?.body as ChatBody;
      expect(body.messages[0], snippet.kind).toEqual({
        role: 'system',
        content: 'Answer in one short sentence.',
      });
      expect(body.messages.at(-1)?.role, snippet.kind).toBe('tool');
      expect(body.temperature, snippet.kind).toBe(0.3);
      expect(body.max_tokens ?? body.max_completion_tokens, snippet.kind).toBe(200);
      expect(body.stop, snippet.kind).toEqual(['\n\n']);
      expect(
        body.tools?.map((tool) => tool.function.name),
        snippet.kind,
      ).toEqual(['get_weather']);
      // Anthropic's Messages API has no seed: its snippet says it leaves it out.
      if (snippet.kind === 'anthropic') {
        expect(body.seed).toBeUndefined();
        expect(snippet.omitted).toEqual(['seed']);
        expect(snippet.code).toContain('// Left out: ');
      } else expect(body.seed, snippet.kind).toBe(7);
    }
  });

  test('a snippet without the key the gateway asks for is refused, so the key really travels', async () => {
    const [curl] = writeSnippets(
      { model: 'openai:gpt-4.1', input: 'Hi' },
      { baseUrl: gatewayUrl, keyed: false },
    );
    const printed = (await run('sh', ['-c', (curl as Snippet).code])).stdout;
    expect(JSON.parse(printed)).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_ERROR' } });
  });
});

let page: Page;
beforeAll(() => {
  page = site.page;
});

describe('the Try view with a gateway that needs a key', { timeout: 120_000 }, () => {
  test('says so in a callout whose button opens Connection at the key field', async () => {
    await page.goto(`${site.url}#try`);
    const callout = page.getByRole('alert', { name: 'This gateway needs a key' });
    await callout.waitFor();
    await expectAccessible(page);
    await callout.getByRole('button', { name: 'Enter the key' }).click();
    const key = page.getByLabel('Gateway key (this gateway needs one)');
    await eventually(() => key.evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await page.getByLabel('Gateway key (optional)').count()).toBe(0);
    await key.fill(KEY);
    await page.getByRole('button', { name: 'Reload routes' }).click();
    await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
    expect(await callout.count()).toBe(0);
  });

  test('copies the request as each snippet, and each copied snippet runs', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    await page.getByRole('combobox', { name: 'Route', exact: true }).selectOption('openai:gpt-4o-mini');
    await page.getByLabel('System prompt').fill('Answer in one short sentence.');
    await page.getByLabel('Message', { exact: true }).fill('What is the capital of France?');
    const parameters = page.locator('details.parameters');
    await parameters.getByLabel('Temperature (0–2)').fill('0.3');
    await parameters.getByLabel('Max tokens').fill('50');
    await page.locator('summary', { hasText: 'Copy as code' }).click();
    const titles: Record<SnippetKind, string> = {
      curl: 'curl',
      client: 'verdict/client',
      openai: 'OpenAI SDK',
      anthropic: 'Anthropic SDK',
    };
    for (const [kind, title] of Object.entries(titles) as [SnippetKind, string][]) {
      await page.getByRole('radio', { name: title }).check();
      await page.getByRole('button', { name: `Copy the ${title} code` }).click();
      const copied = await eventually(() => page.evaluate(() => navigator.clipboard.readText()))
        .toContain(kind === 'curl' ? 'curl ' : 'import ')
        .then(() => page.evaluate(() => navigator.clipboard.readText()));
      expect(copied.trim()).toBe(
        (await page.getByRole('region', { name: `${title} code` }).innerText()).trim(),
      );
      expect(copied).not.toContain(KEY);
      const upstream = await upstreamOf(async () => {
        expect(await execute({ kind, code: copied }), kind).toContain('Paris is the capital of France.');
      });
      // The request the page would send, with its system prompt and parameters, is the one that arrived.
      expect(upstream, kind).toHaveLength(1);
      const body = upstream[0]?.body as ChatBody;
      expect(body.messages, kind).toEqual([
        { role: 'system', content: 'Answer in one short sentence.' },
        { role: 'user', content: 'What is the capital of France?' },
      ]);
      expect(body.temperature, kind).toBe(0.3);
      expect(body.max_tokens ?? body.max_completion_tokens, kind).toBe(50);
      await expectAccessible(page);
    }
    // Once sent, the message field is empty: the panel writes the request last sent rather than nothing.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('The request last sent; a new message makes it the next one.').waitFor();
    expect(await page.getByRole('region', { name: 'Anthropic SDK code' }).innerText()).toContain(
      'What is the capital of France?',
    );
  });
});
