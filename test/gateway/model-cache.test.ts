import { describe, expect, test } from 'vitest';
import { createProviderModels } from '../../src/gateway/providers/providers.js';

describe('createProviderModels', () => {
  test('keeps one model instance per id, within 64 Ki characters of ids, whatever their count', () => {
    const models = createProviderModels('openai', { apiKey: 'k' }, {});
    const text = models.text as (modelId: string) => unknown;
    expect(text('gpt-4o-mini')).toBe(text('gpt-4o-mini'));
    const long = (index: number) => `${index}-${'m'.repeat(10_000)}`;
    // Six ids of 10 000 characters fit beside the first one; the seventh is built anew on every request.
    for (let index = 0; index < 6; index++) expect(text(long(index))).toBe(text(long(index)));
    expect(text(long(6))).not.toBe(text(long(6)));
  });
});
