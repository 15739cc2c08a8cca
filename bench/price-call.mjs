// `npm run build && node bench/price-call.mjs`: the CPU one call's pricing costs (docs/gateway.md, "Prices"): the
// gateway's `priceCall` over the bundled price table, for a model the table has, timed over 2,000 calls a round.
import { createPriceBook } from '../dist/gateway/spend/price-book.js';
import { priceCall } from '../dist/gateway/spend/price-call.js';

const book = createPriceBook(undefined, new Map([['openai', 'openai']]));
const call = {
  provider: 'openai',
  answeredModel: 'gpt-4o-mini-2024-07-18',
  requestedModel: 'gpt-4o-mini',
  usage: { input_tokens: 20, output_tokens: 10 },
  at: new Date(),
};
console.log('priced:', JSON.stringify(priceCall(call, book)));
const CALLS = 2000;
for (let round = 1; round <= 5; round++) {
  const started = performance.now();
  for (let index = 0; index < CALLS; index++) priceCall(call, book);
  console.log(`round ${round}: ${((performance.now() - started) / CALLS).toFixed(4)} ms per call`);
}
