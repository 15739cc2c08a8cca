import type { UnifiedCost } from '../../unified/types.js';
import type { RequestFacts } from '../pipeline/gateway-env.js';
import type { PriceBook } from './price-book.js';
import { priceCall } from './price-call.js';

/** What a finished request is charged: the tokens counted toward token limits and its cost in dollars. */
export interface Charge {
  /** Input and output tokens. */
  tokens: number;
  /** Its cost; `undefined` when no provider billed anything (a refusal of the gateway's, a provider's error). */
  cost: UnifiedCost | undefined;
}

/**
 * The one place a finished request's charge is worked out (docs/gateway.md, "Prices"), for the usage record,
 * the token limits and the dollar budgets alike: the tokens its facts hold, and the cost its envelope carried —
 * or, for usage a billed failure left in the facts (a stream cut short), that usage at the same prices.
 */
export function chargeOf(facts: RequestFacts, book: PriceBook | undefined, at: Date): Charge {
  const usage = facts.usage;
  const tokens = (usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0);
  if (facts.cost !== undefined) return { tokens, cost: facts.cost };
  if (
    usage === undefined ||
    book === undefined ||
    facts.provider === undefined ||
    facts.provider === 'system'
  )
    return { tokens, cost: undefined };
  const colon = facts.target?.indexOf(':') ?? -1;
  const requestedModel = colon > 0 ? facts.target?.slice(colon + 1) : undefined;
  const cost = priceCall(
    { provider: facts.provider, answeredModel: facts.model, requestedModel, usage, at },
    book,
  );
  return { tokens, cost };
}
