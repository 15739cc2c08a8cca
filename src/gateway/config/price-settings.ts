import { calcPrice, type ModelPrice, type Provider } from '@pydantic/genai-prices';
import { z } from 'zod';
import { pointerOf } from '../../json/json-pointer.js';
import type { ConfigProblem } from './config-problem.js';

// The configuration's `prices` (docs/gateway.md, "Prices"): the members an operator may set, their schema and the
// checks its schema cannot make. The price book (spend/price-book.ts) prices calls with them.

/**
 * The price members an operator may set, each named as the price table names it: `_mtok` per million tokens,
 * `_hours` per hour of audio, `_kcount` per thousand requests.
 */
export const PRICE_KEYS = [
  'input_mtok',
  'output_mtok',
  'cache_read_mtok',
  'cache_write_mtok',
  'output_reasoning_mtok',
  'input_audio_mtok',
  'output_audio_mtok',
  'cache_audio_read_mtok',
  'input_image_mtok',
  'output_image_mtok',
  'audio_hours',
  'input_audio_hours',
  'output_audio_hours',
  'requests_kcount',
] as const;

/** One of {@link PRICE_KEYS}. */
export type PriceKey = (typeof PRICE_KEYS)[number];

/** A price in dollars, flat or by tier: a tier's price applies to the whole call once its input reaches `start`. */
export type PriceValue = number | { base: number; tiers: { start: number; price: number }[] };

/** An operator's prices for one model, in dollars per unit. */
export type ModelPrices = Partial<Record<PriceKey, PriceValue>>;

const dollars = z.number().nonnegative().finite();
const priceValueSchema = z.union([
  dollars,
  z.strictObject({
    base: dollars,
    tiers: z
      .array(z.strictObject({ start: z.number().int().positive(), price: dollars }))
      .min(1)
      .max(16),
  }),
]);

/** The schema of the configuration's `prices`: `provider:model` → prices, at most 10 000 models. */
export const pricesSchema = z
  .record(
    z.string().regex(/^[a-z0-9][a-z0-9._-]*:.{1,256}$/, 'must be provider:model'),
    z.partialRecord(z.enum(PRICE_KEYS), priceValueSchema),
  )
  .refine((value) => Object.keys(value).length <= 10_000, 'at most 10 000 priced models');

/** Every usage member, each with one unit, so that a trial price touches every price an operator set. */
const TRIAL_USAGE = {
  input_tokens: 1_000,
  cache_read_tokens: 100,
  cache_write_tokens: 100,
  input_audio_tokens: 100,
  input_image_tokens: 100,
  output_tokens: 1_000,
  output_reasoning_tokens: 100,
  output_audio_tokens: 100,
  output_image_tokens: 100,
  audio_seconds: 10,
  input_audio_seconds: 5,
  output_audio_seconds: 10,
  requests: 1,
};

/** A provider of the price table's shape holding one operator-priced model. */
export function overrideProvider(label: string, prices: ModelPrices): Provider {
  return {
    id: 'verdict-config',
    name: 'gateway configuration',
    api_pattern: '^$',
    models: [{ id: label, match: { equals: label }, prices: prices as ModelPrice }],
  };
}

/**
 * Problems of the configuration's `prices` that its schema cannot see: a price the table's arithmetic refuses
 * (a cache price without the input price it refines, tiers out of order). Each is tried once on a usage that
 * touches every unit; none throws.
 */
export function checkPrices(prices: Readonly<Record<string, ModelPrices>>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [label, modelPrices] of Object.entries(prices)) {
    for (const [key, value] of Object.entries(modelPrices)) {
      if (typeof value !== 'object') continue;
      const starts = value.tiers.map((tier) => tier.start);
      if (starts.some((start, index) => index > 0 && start <= (starts[index - 1] as number))) {
        problems.push({
          path: pointerOf('prices', label, key, 'tiers'),
          message: 'Tiers are listed by increasing start.',
        });
      }
    }
    try {
      calcPrice(TRIAL_USAGE, label, { provider: overrideProvider(label, modelPrices) });
    } catch (error) {
      problems.push({
        path: pointerOf('prices', label),
        message: `These prices cannot price a call: ${error instanceof Error ? error.message : String(error)}.`,
      });
    }
  }
  return problems;
}
