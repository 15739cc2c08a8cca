import { describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture } from '../helpers/replay-providers.js';
import { postJson, readEnvelope, readStreamEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

// Each expected cost is worked out here by hand from the price table's published prices (dollars per million
// tokens), so that a wrong mapping of cached, cache-write or reasoning tokens shows as a wrong number.
const M = 1_000_000;

const replay = useReplay();

function gatewayWith(options: GatewayOptions = {}) {
  const lines: string[] = [];
  const gateway = createGateway({
    providers: {
      ...replay().providers(),
      local: { type: 'openai-compatible', baseURL: replay().providers().openrouter?.baseURL },
    },
    retries: 0,
    log: (line) => lines.push(line),
    ...options,
  });
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { gateway, logged };
}

/** The cost in the last log line. */
function loggedUsd(lines: Record<string, unknown>[]): unknown {
  return (lines.at(-1)?.cost as { usd?: unknown } | undefined)?.usd;
}

describe('the cost of a call', () => {
  test('OpenAI: cached input at the cache price, reasoning inside the output at the output price', async () => {
    // gpt-4.1-mini: input 0.40, cached input 0.10, output 1.60 per million tokens. 1 200 input tokens of which
    // 1 024 cached; 80 output tokens of which 32 reasoning (billed as output).
    replay().enqueue(fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json'));
    const { gateway, logged } = gatewayWith();
    const response = await postJson(gateway, '/v1/text', { model: 'openai:gpt-4.1-mini', input: 'Capital?' });
    const { envelope, headers } = await readEnvelope(response);
    const usd = (176 * 0.4 + 1024 * 0.1 + 80 * 1.6) / M;
    expect(envelope.metadata.cost).toMatchObject({ source: 'genai-prices', version: '0.1.8' });
    expect(envelope.metadata.cost?.usd).toBeCloseTo(usd, 12);
    expect(envelope.metadata.cost?.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(Number(headers.get('x-verdict-cost-usd'))).toBeCloseTo(usd, 12);
    expect(loggedUsd(logged())).toBeCloseTo(usd, 12);
  });

  test('Anthropic: cache writes and cache reads each at their own price', async () => {
    // claude-sonnet-4-5: input 3, cache write 3.75, cache read 0.30, output 15 per million tokens. 25 uncached,
    // 1 000 written, 3 000 read, 12 output.
    replay().enqueue(fixture('anthropic.messages/success/text-with-prompt-cache.json'));
    const { gateway } = gatewayWith();
    const response = await postJson(gateway, '/v1/text', {
      model: 'anthropic:claude-sonnet-4-5',
      input: 'Bonjour',
    });
    const { envelope } = await readEnvelope(response);
    expect(envelope.success && envelope.usage).toEqual({ input_tokens: 4025, output_tokens: 12 });
    const usd = (25 * 3 + 1000 * 3.75 + 3000 * 0.3 + 12 * 15) / M;
    expect(envelope.metadata.cost?.usd).toBeCloseTo(usd, 12);
    expect(envelope.metadata.cost?.price_id).toBe('claude-sonnet-4-5');
  });

  test('Gemini: past 200 000 input tokens the whole call is priced at the long-context tier', async () => {
    // gemini-2.5-pro: 1.25 / 10 per million up to 200 000 input tokens; 2.50 / 15 for the whole call above.
    const body = fixture('google.generate-content/success/text-with-thoughts.json').body as Record<
      string,
      unknown
    >;
    const long = (promptTokenCount: number) => ({
      body: {
        ...body,
        modelVersion: 'gemini-2.5-pro',
        usageMetadata: {
          promptTokenCount,
          candidatesTokenCount: 900,
          thoughtsTokenCount: 100,
          totalTokenCount: promptTokenCount + 1000,
        },
      },
    });
    replay().enqueue(long(250_000), long(150_000));
    const { gateway } = gatewayWith();
    const request = { model: 'google:gemini-2.5-pro', input: 'A long document…' };
    const above = await readEnvelope(await postJson(gateway, '/v1/text', request));
    const below = await readEnvelope(await postJson(gateway, '/v1/text', request));
    expect(above.envelope.metadata.cost?.usd).toBeCloseTo((250_000 * 2.5 + 1000 * 15) / M, 12);
    expect(below.envelope.metadata.cost?.usd).toBeCloseTo((150_000 * 1.25 + 1000 * 10) / M, 12);
  });

  test("a streamed answer's cost is in its last event, known when the stream ends", async () => {
    // gpt-4.1-nano: input 0.10, output 0.40 per million tokens; 9 input and 2 output tokens.
    replay().enqueue(fixture('openai.chat/success/stream-text.json'));
    const { gateway, logged } = gatewayWith();
    const response = await postJson(gateway, '/v1/text', {
      model: 'openai:gpt-4.1-nano',
      input: 'Hi',
      stream: true,
    });
    const { envelope } = readStreamEnvelope(await response.text());
    const usd = (9 * 0.1 + 2 * 0.4) / M;
    expect(envelope.metadata.cost?.usd).toBeCloseTo(usd, 12);
    expect(loggedUsd(logged())).toBeCloseTo(usd, 12);
  });

  test('a model the table does not know costs null with the reason, never 0', async () => {
    const { gateway, logged } = gatewayWith();
    const response = await postJson(gateway, '/v1/text', { model: 'local:my-finetune', input: 'Hi' });
    const { envelope, headers } = await readEnvelope(response);
    expect(envelope.success).toBe(true);
    expect(envelope.metadata.cost).toMatchObject({ usd: null, reason: 'unknown_price' });
    expect(envelope.metadata.cost?.message).toContain('"prices"');
    expect(headers.get('x-verdict-cost-usd')).toBe('unknown');
    expect(logged().at(-1)?.cost).toMatchObject({ usd: null, reason: 'unknown_price' });
  });

  test("the configuration's prices price a self-hosted model and win over the table", async () => {
    replay().enqueue(fixture('openai.chat/success/text-with-cached-and-reasoning-usage.json'));
    const { gateway } = gatewayWith({
      prices: {
        'local:my-finetune': { input_mtok: 0.5, output_mtok: 1 },
        // A negotiated price for the requested model covers the dated model the provider says it served.
        'openai:gpt-4.1-mini': { input_mtok: 0.2, cache_read_mtok: 0.05, output_mtok: 0.8 },
      },
    });
    const negotiated = await readEnvelope(
      await postJson(gateway, '/v1/text', { model: 'openai:gpt-4.1-mini', input: 'Capital?' }),
    );
    expect(negotiated.envelope.metadata.cost).toMatchObject({ source: 'config', version: 'config' });
    expect(negotiated.envelope.metadata.cost?.usd).toBeCloseTo((176 * 0.2 + 1024 * 0.05 + 80 * 0.8) / M, 12);
    // The compatible replay answers the default Chat Completions body: 1 200 input, 80 output tokens.
    const own = await readEnvelope(
      await postJson(gateway, '/v1/text', { model: 'local:my-finetune', input: 'Hi' }),
    );
    expect(own.envelope.metadata.cost).toMatchObject({ source: 'config', model: 'my-finetune' });
    expect(own.envelope.metadata.cost?.usd).toBeCloseTo((1200 * 0.5 + 80 * 1) / M, 12);
  });

  test('the offline demo costs nothing, and says so', async () => {
    const gateway = createGateway({ providers: { demo: { type: 'demo' } } });
    const response = await postJson(gateway, '/v1/text', { model: 'demo:echo', input: 'Hi' });
    const { envelope } = await readEnvelope(response);
    expect(envelope.metadata.cost).toMatchObject({ usd: 0, source: 'demo' });
  });
});

describe('prices in the configuration', () => {
  test('prices that cannot price a call are refused at start-up', () => {
    expect(() =>
      createGateway({
        providers: replay().providers() as GatewayOptions['providers'],
        prices: { 'local:x': { cache_read_mtok: 1 } },
      }),
    ).toThrow(/prices/);
    expect(() =>
      createGateway({
        providers: replay().providers() as GatewayOptions['providers'],
        prices: { 'local:x': { input_mtok: -1 } },
      }),
    ).toThrow(/\/prices\/local:x\/input_mtok/);
  });
});
