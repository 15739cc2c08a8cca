import { describe, expect, test } from 'vitest';
import type { RequestFacts } from '../pipeline/gateway-env.js';
import { chargeOf } from './charge-of.js';
import { createPriceBook } from './price-book.js';

const book = createPriceBook(undefined, new Map([['openai', 'openai']] as const));
const AT = new Date('2026-12-01T12:00:00Z');

describe('chargeOf', () => {
  test("an answer's charge is its envelope's cost and its tokens", () => {
    const facts: RequestFacts = {
      route: '/v1/text',
      attempts: 1,
      provider: 'openai',
      usage: { input_tokens: 100, output_tokens: 10 },
      cost: { usd: 0.5, source: 'config' },
    };
    expect(chargeOf(facts, book, AT)).toEqual({ tokens: 110, cost: { usd: 0.5, source: 'config' } });
  });

  test('usage a billed failure left (a stream cut short) is priced at the same prices', () => {
    // gpt-4o-mini: 0.15 input, 0.60 output per million tokens.
    const facts: RequestFacts = {
      route: '/v1/text',
      attempts: 1,
      provider: 'openai',
      target: 'openai:gpt-4o-mini',
      code: 'PROVIDER_ERROR',
      usage: { input_tokens: 1000, output_tokens: 500 },
    };
    const { tokens, cost } = chargeOf(facts, book, AT);
    expect(tokens).toBe(1500);
    expect(cost?.usd).toBeCloseTo((1000 * 0.15 + 500 * 0.6) / 1e6, 12);
  });

  test('a request no provider billed has no cost', () => {
    expect(chargeOf({ provider: 'system' }, book, AT)).toEqual({
      tokens: 0,
      cost: undefined,
    });
  });
});
