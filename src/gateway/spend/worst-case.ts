import type { PriceBook } from './price-book.js';
import { priceCall } from './price-call.js';

/** Output tokens a call is assumed to produce when its request sets no maximum (docs/gateway.md, "Budgets in dollars"). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** Dollars reserved for a call to a model without a price: it settles at 0, its cost being unknown. */
export const UNPRICED_RESERVATION_USD = 0.1;

/** What a call's worst case is worked out from. */
export interface WorstCaseInput {
  /** The targets the call may go to, fallbacks included: `provider` id and `model`. */
  targets: readonly { provider: string; model: string }[];
  /** Bytes of the request body: no more input tokens than that (a token spans at least one byte of text). */
  inputBytes: number;
  /** The request's output maximum, else {@link DEFAULT_MAX_OUTPUT_TOKENS}. */
  maxOutputTokens?: number | undefined;
  /** When the call is made. */
  at: Date;
}

/**
 * The most a call can cost, for the reservation made before it: every input token written to the cache (the
 * dearest input price) and the output maximum, at the dearest of the targets it may go to, long-context tiers
 * included. A target without a price counts {@link UNPRICED_RESERVATION_USD}.
 */
export function worstCaseUsd(input: WorstCaseInput, book: PriceBook): number {
  const output = input.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  let worst = 0;
  for (const target of input.targets) {
    const cost = priceCall(
      {
        provider: target.provider,
        requestedModel: target.model,
        usage: { input_tokens: input.inputBytes, output_tokens: output },
        details: { cache_creation_input_tokens: input.inputBytes },
        at: input.at,
      },
      book,
    );
    worst = Math.max(worst, cost.usd ?? UNPRICED_RESERVATION_USD);
  }
  return worst;
}
