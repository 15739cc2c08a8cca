import type { UnifiedCost } from '../../unified/types.js';

/** The response header that says what a call cost, in dollars (docs/gateway.md, "Prices"). */
export const COST_HEADER = 'x-verdict-cost-usd';

/**
 * The header of an answer's cost, for every surface that answers a call: the dollars as a decimal number, or
 * `unknown` when the call could not be priced (its envelope's `metadata.cost` says why). A streamed answer's
 * cost is known only at its end, after its headers went: it is in the stream's last event instead.
 */
export function costHeaders(cost: UnifiedCost | undefined): Record<string, string> {
  if (cost === undefined) return {};
  return { [COST_HEADER]: cost.usd === null ? 'unknown' : formatUsd(cost.usd) };
}

/** Dollars as a plain decimal (no exponent), to twelve places at most. */
export function formatUsd(usd: number): string {
  return usd.toFixed(12).replace(/\.?0+$/, '') || '0';
}
