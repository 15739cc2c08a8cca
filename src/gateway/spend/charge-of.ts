import type { UnifiedCost } from '../../unified/types.js';
import type { PriceBook } from './price-book.js';
import { priceCall } from './price-call.js';

/** What a finished request's charge is worked out from: the facts its log line gathered (a subset of them). */
export interface ChargeFacts {
  /** The tokens the request is charged for, whatever its outcome. */
  readonly usage?: { readonly input_tokens: number; readonly output_tokens: number } | undefined;
  /** What the call cost, as its envelope says. */
  readonly cost?: UnifiedCost | undefined;
  /** The envelope's provider (`system` for the gateway's own answers). */
  readonly provider?: string | undefined;
  /** The model that answered, as the provider named it. */
  readonly model?: string | undefined;
  /** The `provider:model` target that answered. */
  readonly target?: string | undefined;
}

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
export function chargeOf(facts: ChargeFacts, book: PriceBook | undefined, at: Date): Charge {
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
