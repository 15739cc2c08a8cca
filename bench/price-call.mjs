// `npm run build && node bench/price-call.mjs`: the CPU one call's pricing costs (docs/gateway.md, "Prices"): the
// gateway's `priceCall` over the bundled price table, for a model the table has, timed over 2,000 calls a round —
// each with its own token counts (the table is searched every time), then one call repeated (the price found for
// the same second, provider, models and usage is remembered).
import { createPriceBook } from '../dist/gateway/spend/price-book.js';
import { priceCall } from '../dist/gateway/spend/price-call.js';

const book = createPriceBook(undefined, new Map([['openai', 'openai']]));
const callWith = (inputTokens) => ({
  provider: 'openai',
  answeredModel: 'gpt-4o-mini-2024-07-18',
  requestedModel: 'gpt-4o-mini',
  usage: { input_tokens: inputTokens, output_tokens: 10 },
  at: new Date(),
});
console.log('priced:', JSON.stringify(priceCall(callWith(20), book)));
const CALLS = 2000;
let distinct = 0;
for (const [label, next] of [
  ['distinct calls', () => callWith(100 + distinct++)],
  ['one call repeated', () => callWith(20)],
]) {
  for (let round = 1; round <= 5; round++) {
    const calls = Array.from({ length: CALLS }, next);
    const started = performance.now();
    for (const call of calls) priceCall(call, book);
    console.log(
      `${label}, round ${round}: ${((performance.now() - started) / CALLS).toFixed(4)} ms per call`,
    );
  }
}
