import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkGatewayConfig } from '../config/config.js';
import { createPriceBook, PRICE_TABLE_VERSION } from './price-book.js';
import { type PricedCall, priceCall, priceEnvelope } from './price-call.js';

const M = 1_000_000;
const AT = new Date('2026-12-01T12:00:00Z');
const book = createPriceBook(
  { 'local:llama': { input_mtok: 0.1, output_mtok: 0.2 } },
  new Map([
    ['openai', 'openai'],
    ['local', 'openai-compatible'],
    ['router', 'openai-compatible'],
  ] as const),
);

function call(extra: Partial<PricedCall>): PricedCall {
  return { provider: 'openai', usage: { input_tokens: 0, output_tokens: 0 }, at: AT, ...extra };
}

describe('PRICE_TABLE_VERSION', () => {
  test('is the version of the installed price table', () => {
    const entry = createRequire(import.meta.url).resolve('@pydantic/genai-prices');
    let folder = dirname(entry);
    while (!folder.endsWith('genai-prices')) folder = dirname(folder);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
    expect(PRICE_TABLE_VERSION).toBe(manifest.version);
  });
});

describe('priceCall', () => {
  test('prices by the answered model, else the requested one', () => {
    // gpt-4o: 2.50 input, 10 output per million; gpt-4o-mini: 0.15 and 0.60.
    const usage = { input_tokens: 1000, output_tokens: 100 };
    expect(
      priceCall(call({ answeredModel: 'gpt-4o', requestedModel: 'gpt-4o-mini', usage }), book).usd,
    ).toBeCloseTo((1000 * 2.5 + 100 * 10) / M, 12);
    expect(priceCall(call({ requestedModel: 'gpt-4o-mini', usage }), book).usd).toBeCloseTo(
      (1000 * 0.15 + 100 * 0.6) / M,
      12,
    );
  });

  test('an unknown model, or a self-hosted one without a configured price, is null with the reason', () => {
    const usage = { input_tokens: 10, output_tokens: 10 };
    expect(priceCall(call({ answeredModel: 'no-such-model', usage }), book)).toMatchObject({
      usd: null,
      reason: 'unknown_price',
    });
    expect(priceCall(call({ provider: 'local', answeredModel: 'mistral-7b', usage }), book)).toMatchObject({
      usd: null,
      reason: 'unknown_price',
    });
    expect(priceCall(call({ provider: 'local', answeredModel: 'llama', usage }), book)).toMatchObject({
      usd: (10 * 0.1 + 10 * 0.2) / M,
      source: 'config',
    });
  });

  test('usage the provider did not report is null, not 0', () => {
    const cost = priceCall(call({ answeredModel: 'gpt-4o', usageReported: false }), book);
    expect(cost).toMatchObject({ usd: null, reason: 'usage_not_reported' });
  });

  test('media billed per item without usage is null with the reason', () => {
    const cost = priceCall(
      call({ answeredModel: 'dall-e-3', usageReported: false, media: { images: 1, videos: 0, files: 0 } }),
      book,
    );
    expect(cost).toMatchObject({ usd: null, reason: 'unpriced_media' });
  });

  test('transcription seconds are priced per hour of audio where the table has the model', () => {
    // whisper-1: 0.36 dollars per hour of audio.
    const cost = priceCall(
      call({ answeredModel: 'whisper-1', usageReported: false, details: { billed_audio_seconds: 90 } }),
      book,
    );
    expect(cost.usd).toBeCloseTo((90 / 3600) * 0.36, 12);
  });

  test("a transcription without billed seconds is priced by its audio's length", () => {
    const envelope = {
      success: true as const,
      content: 'Hello.',
      provider: 'openai',
      usage: { input_tokens: 0, output_tokens: 0 },
      metadata: { trace_id: 't', model: 'whisper-1', usage_reported: false, audio_duration_s: 60 },
      images: [],
      files: [],
      videos: [],
    };
    // whisper-1: 0.36 dollars per hour of audio.
    expect(priceEnvelope(envelope, 'whisper-1', book, AT)?.usd).toBeCloseTo(0.006, 12);
  });

  test('usage that does not add up is null with the reason, and never throws', () => {
    const cost = priceCall(
      call({
        answeredModel: 'gpt-4o',
        usage: { input_tokens: 10, output_tokens: 10 },
        details: { cached_input_tokens: 50 },
      }),
      book,
    );
    expect(cost).toMatchObject({ usd: null, reason: 'inconsistent_usage' });
  });

  test('an openai-compatible provider the table knows by id is priced from its own prices', () => {
    const router = createPriceBook(undefined, new Map([['openrouter', 'openai-compatible']] as const));
    const cost = priceCall(
      call({
        provider: 'openrouter',
        answeredModel: 'openai/gpt-4o',
        usage: { input_tokens: 1000, output_tokens: 0 },
      }),
      router,
    );
    expect(cost.usd).toBeGreaterThan(0);
    expect(cost.source).toBe('genai-prices');
  });

  test('prices that change by time of day are found again for each second, never remembered across one', () => {
    // The table prices deepseek-chat at its full rate from 00:30:00Z to 16:30:00Z and at half of it otherwise.
    const deepseek = createPriceBook(undefined, new Map([['deepseek', 'deepseek']] as const));
    const at = (time: string) =>
      priceCall(
        call({
          provider: 'deepseek',
          requestedModel: 'deepseek-chat',
          usage: { input_tokens: M, output_tokens: 0 },
          at: new Date(`2026-12-01T${time}Z`),
        }),
        deepseek,
      ).usd;
    const before = at('00:29:59.900');
    const after = at('00:30:00.000');
    expect(after).toBe(before === null ? null : before * 2);
    expect(before).toBeGreaterThan(0);
    // The same second again, and the second before once more: the same answers.
    expect(at('00:30:00.500')).toBe(after);
    expect(at('00:29:59.100')).toBe(before);
  });

  test('a remembered price is the same answer, and changing it never changes the next one', () => {
    const usage = { input_tokens: 1000, output_tokens: 10 };
    const first = priceCall(call({ answeredModel: 'gpt-4o', usage }), book);
    (first as { usd: number | null }).usd = -1;
    expect(priceCall(call({ answeredModel: 'gpt-4o', usage }), book).usd).toBeGreaterThan(0);
  });
});

/** Prices of the right shape that cannot price a call: tiers out of order, a cache price without the input price. */
const ARITHMETIC_PROBLEMS = {
  'local:c': {
    input_mtok: {
      base: 1,
      tiers: [
        { start: 2000, price: 2 },
        { start: 1000, price: 3 },
      ],
    },
  },
  'local:d': { cache_read_mtok: 1 },
};

describe('prices in a configuration file', () => {
  test('are checked: unknown price names and negative prices first, then the arithmetic of the rest', () => {
    const shape = checkGatewayConfig({
      prices: { 'local:a': { input_mtok: -1 }, 'local:b': { inptu_mtok: 1 }, ...ARITHMETIC_PROBLEMS },
    });
    expect(shape.ok ? [] : shape.problems.map((problem) => problem.path)).toEqual([
      '/prices/local:a/input_mtok',
      '/prices/local:b/inptu_mtok',
    ]);
    const arithmetic = checkGatewayConfig({ prices: ARITHMETIC_PROBLEMS });
    expect(arithmetic.ok ? [] : arithmetic.problems.map((problem) => problem.path)).toEqual([
      '/prices/local:c/input_mtok/tiers',
      '/prices/local:d',
    ]);
  });

  test('good prices pass', () => {
    expect(
      checkGatewayConfig({
        prices: {
          'local:llama': { input_mtok: 0.1, cache_read_mtok: 0.01, output_mtok: 0.2 },
          'openai:gpt-4o': { input_mtok: { base: 2, tiers: [{ start: 128000, price: 4 }] }, output_mtok: 8 },
        },
      }).ok,
    ).toBe(true);
  });
});
