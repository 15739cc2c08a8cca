import { calcPrice, type PriceCalculation, type Provider, type Usage } from '@pydantic/genai-prices';
import type { UnifiedCost, UnifiedOutput } from '../../unified/types.js';
import { PRICE_TABLE_VERSION, type PriceBook, TABLE_PROVIDERS } from './price-book.js';

/** Why a call has no price; {@link CostReason} is derived from it. */
export const COST_REASONS = [
  // Neither the configuration nor the table prices this provider and model.
  'unknown_price',
  // The provider reported no usage, so there is nothing to multiply.
  'usage_not_reported',
  // Media (images, videos, speech) billed per item or second, which the table does not price for this model.
  'unpriced_media',
  // The usage does not add up (cached tokens above the input), so no price would be right.
  'inconsistent_usage',
] as const;

/** One of {@link COST_REASONS}. */
export type CostReason = (typeof COST_REASONS)[number];

/** Where a cost's price came from. */
export type CostSource = 'genai-prices' | 'config' | 'demo';

/**
 * What one call cost (`metadata.cost`, docs/unified.md): dollars, or `null` with the reason, never a 0 that
 * only means "not known".
 */
export interface CallCost extends UnifiedCost {
  /** Dollars, or `null` when the call could not be priced. */
  usd: number | null;
  /** Where the price came from; absent when there is none. */
  source?: CostSource;
  /** The table's version (`0.1.8`) or `config`. */
  version?: string;
  /** The model the price is for (the answered one, else the requested one). */
  model?: string;
  /** The table's own name of the priced model, when it matched a pattern. */
  price_id?: string;
  /** Why `usd` is `null`. */
  reason?: CostReason;
  /** One sentence about the reason. */
  message?: string;
}

/** The facts a call is priced from. */
export interface PricedCall {
  /** The configured provider id (the envelope's `provider`). */
  provider: string;
  /** The model the provider says it served, when it said. */
  answeredModel?: string | undefined;
  /** The model of the target that was called. */
  requestedModel?: string | undefined;
  /** Input and output tokens, as the envelope counts them (cached input in the input, reasoning in the output). */
  usage: { input_tokens: number; output_tokens: number };
  /** `metadata.usage_details`. */
  details?: Readonly<Record<string, number>> | undefined;
  /** `false` when the provider reported no usage. */
  usageReported?: boolean | undefined;
  /** Seconds of audio transcribed (`metadata.audio_duration_s`): what transcription models bill by. */
  audioSeconds?: number | undefined;
  /** Images and videos produced, and audio files: items the table may price per unit. */
  media?: { images: number; videos: number; files: number } | undefined;
  /** When the call was made: the table holds prices that changed over time. */
  at: Date;
}

/** Dollars to twelve decimals: the arithmetic of many small prices leaves binary noise past that. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e12) / 1e12;
}

/** A count from the usage breakdown, when it holds a non-negative number. */
function detail(
  details: Readonly<Record<string, number>> | undefined,
  ...names: string[]
): number | undefined {
  for (const name of names) {
    const value = details?.[name];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** Seconds of transcribed audio, when a non-negative number. */
function audioSecondsOf(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * The envelope's usage in the table's units. The envelope's input counts every input token (cached ones
 * included) and its output every output token (reasoning included), as the table's `input_tokens` and
 * `output_tokens` do; the breakdown names the parts with their own prices (docs/unified.md, "Usage").
 */
export function toPriceUsage(call: Pick<PricedCall, 'usage' | 'details' | 'audioSeconds'>): Usage {
  const { usage, details } = call;
  const usageOf: Usage = { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens };
  const parts: [keyof Usage & string, number | undefined][] = [
    ['cache_read_tokens', detail(details, 'cached_input_tokens', 'cache_read_input_tokens')],
    ['cache_write_tokens', detail(details, 'cache_creation_input_tokens', 'cache_write_input_tokens')],
    ['input_audio_tokens', detail(details, 'audio_input_tokens')],
    ['input_image_tokens', detail(details, 'image_input_tokens')],
    ['output_reasoning_tokens', detail(details, 'reasoning_tokens')],
    ['output_audio_tokens', detail(details, 'audio_output_tokens')],
    // The seconds the provider billed, else the length of the audio it transcribed.
    ['audio_seconds', detail(details, 'billed_audio_seconds') ?? audioSecondsOf(call.audioSeconds)],
  ];
  for (const [name, value] of parts) if (value !== undefined && value > 0) usageOf[name] = value;
  return usageOf;
}

/** A price found, or why not. */
type Found =
  | { ok: true; calculation: PriceCalculation; source: 'genai-prices' | 'config'; model: string }
  | { ok: false; reason: 'unknown_price' | 'inconsistent_usage'; message: string };

/** Price `usage` for `model` with one provider of prices; `undefined` when it has no price for the model. */
function tryPrice(
  usage: Usage,
  model: string,
  at: Date,
  options: { provider: Provider } | { providerId: string },
): PriceCalculation | undefined | Error {
  try {
    return calcPrice(usage, model, { ...options, timestamp: at }) ?? undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** How many prices found are remembered per price book before the memory starts over. */
const REMEMBERED_PRICES = 2048;
const remembered = new WeakMap<PriceBook, Map<string, Found>>();

/**
 * {@link findPrice}, remembered for the same provider, models and usage within the same second: the table's
 * prices change by date and by time of day in whole seconds at the finest, and a book's overrides never change,
 * so the answer is the same. Under load most calls repeat one of a few such keys.
 */
function findPriceRemembered(call: PricedCall, book: PriceBook, usage: Usage): Found {
  let memory = remembered.get(book);
  if (memory === undefined) {
    memory = new Map();
    remembered.set(book, memory);
  }
  const second = Math.floor(call.at.getTime() / 1000);
  const key = `${second}\u0000${call.provider}\u0000${call.answeredModel ?? ''}\u0000${call.requestedModel ?? ''}\u0000${JSON.stringify(usage)}`;
  const known = memory.get(key);
  if (known !== undefined) return known;
  const found = findPrice(call, book, usage);
  if (memory.size >= REMEMBERED_PRICES) memory.clear();
  memory.set(key, found);
  return found;
}

/**
 * The operator's price for the answered model, then for the requested one; then the table's, in the same
 * order: a negotiated price for `gpt-4o` covers the dated model the provider says it served.
 */
function findPrice(call: PricedCall, book: PriceBook, usage: Usage): Found {
  const models = [call.answeredModel, call.requestedModel].filter(
    (model, index, all): model is string =>
      model !== undefined && model !== '' && all.indexOf(model) === index,
  );
  const type = book.providerTypes.get(call.provider);
  const tableId = TABLE_PROVIDERS[type === 'openai-compatible' ? call.provider : (type ?? call.provider)];
  const tries: {
    model: string;
    source: 'genai-prices' | 'config';
    options: { provider: Provider } | { providerId: string };
  }[] = [];
  for (const model of models) {
    const provider = book.overrides.get(`${call.provider}:${model}`);
    if (provider !== undefined)
      tries.push({ model: `${call.provider}:${model}`, source: 'config', options: { provider } });
  }
  if (tableId !== undefined)
    for (const model of models)
      tries.push({ model, source: 'genai-prices', options: { providerId: tableId } });
  for (const attempt of tries) {
    const result = tryPrice(usage, attempt.model, call.at, attempt.options);
    if (result instanceof Error)
      return {
        ok: false,
        reason: 'inconsistent_usage',
        message: `The usage cannot be priced: ${result.message}.`,
      };
    if (result !== undefined)
      return {
        ok: true,
        calculation: result,
        source: attempt.source,
        model: attempt.model.slice(attempt.source === 'config' ? call.provider.length + 1 : 0),
      };
  }
  const named = models.map((model) => `"${call.provider}:${model}"`).join(' or ') || `"${call.provider}"`;
  return {
    ok: false,
    reason: 'unknown_price',
    message:
      tableId === undefined
        ? `The price table has no prices for provider "${call.provider}"; give ${named} a price under "prices" in the gateway's configuration.`
        : `The price table has no price for ${named}; give it one under "prices" in the gateway's configuration.`,
  };
}

/** The media of a call that its usage does not price: items billed per image, video or second of speech. */
function unpricedMedia(call: PricedCall): string | undefined {
  const media = call.media;
  if (media === undefined || call.usageReported !== false) return undefined;
  if (media.images > 0) return 'images, billed per image';
  if (media.videos > 0) return 'videos, billed per video or second';
  if (media.files > 0) return 'audio files, billed per character or second';
  return undefined;
}

/**
 * What a call cost, by the model the provider says it served, else the one requested (docs/gateway.md,
 * "Prices"): input, cached input read and written, output, reasoning and audio tokens each at its own price,
 * with the table's long-context tiers. A price that cannot be known is `null` with the reason, never 0.
 * @example
 * priceCall({ provider: 'openai', answeredModel: 'gpt-4o', usage: { input_tokens: 1000, output_tokens: 100 },
 *   at: new Date() }, book); // { usd: 0.0035, source: 'genai-prices', version: '0.1.8', model: 'gpt-4o', … }
 */
export function priceCall(call: PricedCall, book: PriceBook): CallCost {
  const model = call.answeredModel ?? call.requestedModel;
  const named = model === undefined ? {} : { model };
  // The offline demo answers recordings: nothing was billed.
  if (book.providerTypes.get(call.provider) === 'demo')
    return { usd: 0, source: 'demo', version: PRICE_TABLE_VERSION, ...named };
  const usage = toPriceUsage(call);
  const media = unpricedMedia(call);
  if (media !== undefined) {
    return {
      usd: null,
      ...named,
      reason: 'unpriced_media',
      message: `The provider reported no usage for these ${media}: the price table has no such price for this model.`,
    };
  }
  if (call.usageReported === false && usage.audio_seconds === undefined) {
    return {
      usd: null,
      ...named,
      reason: 'usage_not_reported',
      message: 'The provider reported no usage for this call.',
    };
  }
  const found = findPriceRemembered(call, book, usage);
  if (!found.ok) return { usd: null, ...named, reason: found.reason, message: found.message };
  const priceId = found.calculation.model.id;
  return {
    usd: roundUsd(found.calculation.total_price),
    source: found.source,
    version: found.source === 'config' ? 'config' : PRICE_TABLE_VERSION,
    model: found.model,
    ...(found.source === 'genai-prices' && priceId !== found.model ? { price_id: priceId } : {}),
  };
}

/**
 * The cost of an answered envelope from a call to `provider`'s `requestedModel`: its usage, its breakdown and
 * its media. A failure has no usage of its own, so it is not priced here (see {@link chargeOf}).
 */
export function priceEnvelope(
  envelope: UnifiedOutput,
  requestedModel: string | undefined,
  book: PriceBook,
  at: Date,
): CallCost | undefined {
  if (!envelope.success) return undefined;
  const { metadata } = envelope;
  return priceCall(
    {
      provider: envelope.provider,
      answeredModel: typeof metadata.model === 'string' ? metadata.model : undefined,
      requestedModel,
      usage: envelope.usage,
      details: metadata.usage_details,
      usageReported: metadata.usage_reported,
      audioSeconds: typeof metadata.audio_duration_s === 'number' ? metadata.audio_duration_s : undefined,
      media: { images: envelope.images.length, videos: envelope.videos.length, files: envelope.files.length },
      at,
    },
    book,
  );
}
